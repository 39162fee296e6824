import { lazy, Suspense, useEffect, useState } from "react";
import { SearchForm, type SearchFormProps } from "./search-form";

/** The id of the page's own filter form, where the bar's link leads without JavaScript. */
export const SEARCH_FILTERS_ID = "search-filters";

// React Aria's dialog is only needed once a visitor taps 絞り込み: it stays
// out of the page's first load (issue 17's budget) and is fetched on intent.
const loadDialog = () => import("./search-filter-dialog");
const SearchFilterDialog = lazy(loadDialog);

export type FilterBarProps = Pick<
  SearchFormProps,
  "query" | "errors" | "typed" | "today" | "options"
> & {
  /** The current search's count, shown until the first recount. */
  total: number;
  /** Conditions chosen now (the chips), for the button's badge. */
  chosen: number;
};

/**
 * On a phone the results come first; this bar stays at the top of them with
 * a 絞り込み button. Without JavaScript it is a link down to the page's own
 * filter form; with it, the filters open in a dialog that counts the matches
 * before they are applied. On the two-column desktop layout the form is
 * beside the results, and the link is a skip link shown on focus.
 */
export function SearchFilterBar(
  props: FilterBarProps & { open: boolean; onOpenChange: (open: boolean) => void },
) {
  const { chosen, total, open, onOpenChange, ...formProps } = props;
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const label = (
    <>
      絞り込み
      {chosen > 0 ? (
        <span className="rounded-full bg-brand-700 px-2 text-xs text-white">
          {chosen}
          <span className="sr-only">件の条件を指定中</span>
        </span>
      ) : null}
    </>
  );
  const look =
    "inline-flex items-center gap-2 rounded-full border border-brand-700 bg-white px-4 py-2 font-bold text-brand-700 hover:bg-brand-50";
  return (
    <div className="sticky top-0 z-10 -mx-4 mb-3 flex items-center justify-between gap-3 border-b border-neutral-200 bg-white px-4 py-2 lg:static lg:m-0 lg:border-0 lg:p-0">
      <p className="text-sm text-neutral-700 lg:sr-only" aria-hidden="true">
        {total}件
      </p>
      {enhanced ? (
        <button
          type="button"
          aria-haspopup="dialog"
          className={`${look} lg:hidden`}
          onPointerEnter={() => void loadDialog()}
          onFocus={() => void loadDialog()}
          onClick={() => onOpenChange(true)}
        >
          {label}
        </button>
      ) : null}
      {/* Before JavaScript, and on the desktop layout as a skip link: down to the page's form. */}
      <a
        href={`#${SEARCH_FILTERS_ID}`}
        className={
          enhanced
            ? "hidden lg:inline-flex lg:sr-only lg:focus:not-sr-only"
            : `${look} lg:sr-only lg:focus:not-sr-only`
        }
      >
        {enhanced ? "絞り込み条件へ移動" : label}
      </a>
      {open ? (
        <Suspense fallback={null}>
          <SearchFilterDialog
            total={total}
            onClose={() => onOpenChange(false)}
            renderForm={(dialog) => <SearchForm {...formProps} {...dialog} />}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
