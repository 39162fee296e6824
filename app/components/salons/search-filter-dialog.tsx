import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button, Dialog, Heading, I18nProvider, Modal, ModalOverlay } from "react-aria-components";
import type { SearchFormProps } from "./search-form";

/** What the dialog adds to the page's search form: its recount, its closing and its button. */
export type DialogFormProps = Pick<SearchFormProps, "onFieldsChange" | "onSearch" | "submitLabel">;

/** How long the visitor may pause between changes before the count is asked for. */
const RECOUNT_DELAY_MS = 250;

/**
 * The phone's filters: the search form in a modal dialog (React Aria: focus
 * kept inside, Escape and the close button dismiss it, focus goes back to the
 * 絞り込み button), with the number of salons the chosen filters find, asked
 * from /salons/search/count as they change. Loaded on demand (search-filter-bar),
 * without the form's own code: the bar renders the form (`renderForm`), which the
 * page has loaded already, so this chunk holds the dialog alone.
 */
export default function SearchFilterDialog({
  total,
  onClose,
  renderForm,
}: {
  /** The current search's count, shown until the first recount. */
  total: number;
  onClose: () => void;
  renderForm: (props: DialogFormProps) => ReactNode;
}) {
  const { count, pending, recount } = useMatchCount(total);
  return (
    <I18nProvider locale="ja-JP">
      <ModalOverlay
        isOpen
        isDismissable
        onOpenChange={(open) => {
          if (!open) onClose();
        }}
        className="fixed inset-0 z-40 flex items-end justify-center bg-black/40 sm:items-center"
      >
        <Modal className="max-h-[90dvh] w-full overflow-y-auto rounded-t-2xl bg-white shadow-xl sm:max-w-lg sm:rounded-2xl">
          <Dialog className="outline-none" aria-describedby="search-filter-count">
            <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-neutral-200 bg-white px-4 py-3">
              <div>
                <Heading slot="title" level={2} className="text-lg font-bold">
                  絞り込み
                </Heading>
                <p
                  id="search-filter-count"
                  role="status"
                  aria-busy={pending}
                  className="text-sm text-neutral-700"
                >
                  {count === null
                    ? "件数を確認できませんでした"
                    : count === 0
                      ? "該当するサロンはありません"
                      : `該当するサロン ${count}件`}
                </p>
              </div>
              <Button
                slot="close"
                className="rounded border border-neutral-400 px-3 py-1 text-sm hover:bg-neutral-50"
              >
                閉じる
              </Button>
            </div>
            {/* The apply button (with the count) stays in view while the form scrolls. */}
            <div className="p-4 [&_button[type=submit]]:sticky [&_button[type=submit]]:bottom-3 [&_button[type=submit]]:shadow-lg">
              {renderForm({
                onFieldsChange: recount,
                onSearch: onClose,
                submitLabel: count ? `${count}件を表示` : "この条件で検索",
              })}
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </I18nProvider>
  );
}

/**
 * The count for the form's current fields: the latest change wins (earlier
 * requests are aborted), asked only once the visitor pauses. null when the
 * count could not be had; the form still searches.
 */
function useMatchCount(initial: number) {
  const [count, setCount] = useState<number | null>(initial);
  const [pending, setPending] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const inflight = useRef<AbortController | undefined>(undefined);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      inflight.current?.abort();
    },
    [],
  );
  const recount = (fields: URLSearchParams) => {
    const params = new URLSearchParams(fields);
    // Neither changes the count; left out so the browser's short cache serves more of them.
    params.delete("sort");
    params.delete("page");
    window.clearTimeout(timer.current);
    inflight.current?.abort();
    setPending(true);
    timer.current = window.setTimeout(async () => {
      const controller = new AbortController();
      inflight.current = controller;
      try {
        const response = await fetch(`/salons/search/count?${params}`, {
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`count: ${response.status}`);
        const body = (await response.json()) as { total: number };
        setCount(body.total);
      } catch {
        if (controller.signal.aborted) return;
        setCount(null);
      }
      setPending(false);
    }, RECOUNT_DELAY_MS);
  };
  return { count, pending, recount };
}
