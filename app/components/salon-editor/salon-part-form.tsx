import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { EditorDoorView } from "../../../server/salon-editor/salon-editor-door.server";
import {
  buttonClass,
  headCellClass,
  linkClass,
  secondaryButtonClass,
  tableClass,
} from "../back-office-ui";
import { ErrorSummary } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { SalonEditorFrame } from "./salon-editor-tabs";

/**
 * Pieces shared by the salon editor's スタッフ, メニュー and クーポン tabs.
 * Every form carries the salon version it was loaded with (decision 0018).
 */

/** What a refused save answers (PartResult of server/salon-editor/salon-parts.server.ts, seen by the page). */
export type PartRefusal = {
  ok: false;
  form: string;
  errors: Record<string, string>;
  values: Record<string, string | string[]>;
  status: number;
  conflict?: boolean;
  version?: number;
  /** Bookings a schedule change would leave outside working time (decision 0046). */
  stranded?: {
    id: string;
    href: string;
    dateLabel: string;
    startTime: string;
    endTime: string;
    customerName: string;
    staffName: string;
    menus: string[];
  }[];
};

/** The bookings a refused schedule change would strand, each linked to its page. */
export function StrandedLinks({ refusal }: { refusal: PartRefusal | null }) {
  if (!refusal?.stranded?.length) return null;
  return (
    <div className="rounded-lg border border-red-700 p-3">
      <p className="font-bold">勤務時間の外に残る予約（先に移動・キャンセルしてください）</p>
      <ul className="mt-1 list-disc pl-5 text-sm">
        {refusal.stranded.map((b) => (
          <li key={b.id}>
            <a href={b.href} className="font-bold text-brand-700 underline underline-offset-4">
              {b.dateLabel} {b.startTime}〜{b.endTime} {b.customerName || "（お名前なし）"}様
            </a>
            （{b.staffName}、{b.menus.join("・") || "メニューなし"}）
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The version the page's forms send: after a conflict, still the one the page was loaded with. */
export function formVersion(loaded: number, actionData: unknown) {
  const result = actionData as PartRefusal | undefined;
  return result?.ok === false && result.conflict && typeof result.version === "number"
    ? result.version
    : loaded;
}

/**
 * After a conflict the page stays as it was loaded (no revalidation after a
 * 4xx), typed values included, and offers the latest content instead:
 * opening it is the one way to save again, as on the 基本情報 tab (decision 0017).
 */
export function ConflictReload({ actionData, href }: { actionData: unknown; href: string }) {
  const result = actionData as PartRefusal | undefined;
  if (!(result?.ok === false && result.conflict)) return null;
  return (
    <p>
      <a href={href} className="font-bold text-brand-700 underline underline-offset-4">
        最新の内容を表示する
      </a>
      （入力中の内容は破棄されます。必要なら控えてから開いてください）
    </p>
  );
}

/** The refusal when it belongs to `form`, else nothing (another form of the page failed). */
export function refusalFor(actionData: unknown, form: string): PartRefusal | null {
  const result = actionData as PartRefusal | undefined;
  return result && result.ok === false && result.form === form ? result : null;
}

/** A typed value to show again: the refused form's value, else the stored one. */
export function typedValue(
  refusal: PartRefusal | null,
  key: string,
  stored: string | number | null | undefined,
): string {
  if (refusal) {
    const value = refusal.values[key];
    return typeof value === "string" ? value : "";
  }
  return stored === null || stored === undefined ? "" : String(stored);
}

export function listOf(refusal: PartRefusal | null, key: string, stored: string[]): string[] {
  if (refusal) {
    const value = refusal.values[key];
    return Array.isArray(value) ? value : [];
  }
  return stored;
}

/** One form's refusal, its errors, and what each of its fields shows (typed or stored). */
export function partFormState(actionData: unknown, form: string) {
  const refusal = refusalFor(actionData, form);
  return {
    refusal,
    errors: refusal?.errors ?? {},
    value: (key: string, stored: string | number | null | undefined) =>
      typedValue(refusal, key, stored),
    list: (key: string, stored: string[]) => listOf(refusal, key, stored),
  };
}

export function VersionField({ version }: { version: number }) {
  return <input type="hidden" name="version" value={version} />;
}

const notices: Record<string, string> = {
  "staff-created": "スタッフを追加しました。続けて勤務パターンを登録してください。",
  "staff-updated": "スタッフの情報を保存しました。",
  "staff-moved": "スタッフの並び順を変更しました。",
  "staff-retired":
    "スタッフを退職にしました。予約画面と公開ページには表示されません（予約は残ります）。",
  "staff-reinstated": "スタッフを復帰させました。",
  "staff-deleted": "スタッフを削除しました。",
  "schedule-saved": "勤務パターンを保存しました。",
  "schedule-deleted": "勤務パターンを削除しました。",
  "exception-added": "勤務の例外を追加しました。",
  "exception-deleted": "勤務の例外を削除しました。",
  "menu-created": "メニューを追加しました。",
  "menu-updated": "メニューを保存しました。",
  "menu-moved": "メニューの並び順を変更しました。",
  "menu-retired": "メニューの掲載をやめました。予約画面と公開ページには表示されません。",
  "menu-reinstated": "メニューを再び掲載しました。",
  "menu-deleted": "メニューを削除しました。",
  "coupon-created": "クーポンを追加しました。",
  "coupon-updated": "クーポンを保存しました。",
  "coupon-retired": "クーポンの配布を終了しました（昨日までの有効期限にしました）。",
  "coupon-deleted": "クーポンを削除しました。",
};

/** The outcome of the last save (?done=…), focused so a screen reader hears it first. */
export function DoneNotice({ done }: { done: string | null }) {
  const message = done ? notices[done] : undefined;
  if (!message) return null;
  // Keyed by the message: another save's notice is a new element, focused again.
  return (
    <FocusedNotice key={message} tone="brand">
      {message}
    </FocusedNotice>
  );
}

/** Errors of the list's row buttons (a conflict, a refused delete), above the list. */
export function ListErrors({ actionData }: { actionData: unknown }) {
  const refusal = refusalFor(actionData, "list");
  return refusal ? (
    <>
      <ErrorSummary errors={refusal.errors} />
      <StrandedLinks refusal={refusal} />
    </>
  ) : null;
}

/**
 * One button of a list row, as its own small form (works without
 * JavaScript). `label` is the visible text; `target` names the row for a
 * screen reader, after it ("下へ（山田 花子）"), so the name starts with what is seen.
 */
export function RowButton({
  intent,
  fields,
  version,
  label,
  target,
  disabled,
  danger,
}: {
  intent: string;
  fields: Record<string, string>;
  version: number;
  label: string;
  target: string;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <Form method="post" className="inline">
      <VersionField version={version} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={disabled}
        className={`${secondaryButtonClass} ${danger ? "border-red-700 text-red-700" : ""} disabled:opacity-40`}
      >
        {label}
        <span className="sr-only">（{target}）</span>
      </button>
    </Form>
  );
}

/** A group of checkboxes (menus a stylist can do, staff of a menu, menus of a coupon). */
export function CheckboxGroup({
  id,
  legend,
  name,
  options,
  checked,
  error,
  hint,
}: {
  id: string;
  legend: string;
  name: string;
  options: { value: string; label: ReactNode }[];
  checked: string[];
  error?: string;
  hint?: string;
}) {
  const chosen = new Set(checked);
  const describedBy =
    [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-lg border border-neutral-300 p-4"
      aria-describedby={describedBy}
    >
      <legend className="px-1 font-bold">{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-neutral-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-bold text-red-700">
          {error}
        </p>
      ) : null}
      {options.length === 0 ? <p className="text-sm">選べる項目はまだありません。</p> : null}
      <ul className="grid gap-1 sm:grid-cols-2">
        {options.map((option) => (
          <li key={option.value}>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                name={name}
                value={option.value}
                defaultChecked={chosen.has(option.value)}
                className="size-5 shrink-0"
              />
              <span>{option.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The salon's public page, for checking an edit as visitors see it (published salons only). */
export function PublicPageLink({ salon }: { salon: { slug: string; status: string } }) {
  if (salon.status !== "published") return null;
  return (
    <a
      href={`/salons/${salon.slug}`}
      className="font-bold text-brand-700 underline underline-offset-4"
    >
      公開ページを見る
    </a>
  );
}

/** The frame of a tab's page: the editor's tabs, then the outcome of the last save or refusal. */
export function SalonPartPage({
  door,
  salon,
  base,
  done,
  actionData,
  children,
}: {
  /** Which door the editor was opened through (decision 0047): its frame and tab addresses. */
  door: EditorDoorView;
  salon: { id: string; name: string; slug: string; status: string };
  /** The tab's own address, opened again after a conflict. */
  base: string;
  done: string | null;
  actionData: unknown;
  children: ReactNode;
}) {
  return (
    <SalonEditorFrame door={door} salon={salon} actions={<PublicPageLink salon={salon} />}>
      <DoneNotice done={done} />
      <ListErrors actionData={actionData} />
      <ConflictReload actionData={actionData} href={base} />
      {children}
    </SalonEditorFrame>
  );
}

/** What a tab edits; it names the list's ids, the row's id field (`menuId`) and the intents. */
export type PartKind = "staff" | "menu" | "coupon";

/**
 * A tab's list: a heading with the count and an add link, then a table
 * whose rows link to their form; the row being edited is marked (aria-current).
 * Each tab brings its own columns and cells.
 */
export function PartList<Row extends { id: string }>({
  part,
  heading,
  base,
  addLabel,
  empty,
  caption,
  columns,
  rows,
  selectedId,
  cells,
}: {
  part: PartKind;
  heading: string;
  base: string;
  addLabel: string;
  empty: string;
  caption: string;
  columns: string[];
  rows: Row[];
  selectedId: string | null;
  cells: (row: Row, index: number) => ReactNode;
}) {
  return (
    <section aria-labelledby={`${part}-list-heading`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${part}-list-heading`} className="text-xl font-bold">
          {heading}
        </h2>
        <Link to={base} className={linkClass}>
          {addLabel}
        </Link>
      </div>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className={headCellClass}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr
                  key={row.id}
                  id={`${part}-${row.id}`}
                  aria-current={row.id === selectedId ? "true" : undefined}
                  className={row.id === selectedId ? "bg-brand-50" : undefined}
                >
                  {cells(row, index)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The buttons of a list row: up and down (when the list has an order),
 * retire or reinstate, and delete (only for rows nothing refers to; the
 * server checks again). `target` names the row for a screen reader.
 */
export function PartRowActions({
  part,
  id,
  target,
  version,
  position,
  retire,
  deletable,
}: {
  part: PartKind;
  id: string;
  target: string;
  version: number;
  position?: { index: number; count: number };
  retire?: { intent: "retire" | "reinstate"; label: string };
  deletable: boolean;
}) {
  const fields = { [`${part}Id`]: id };
  return (
    <div className="flex flex-wrap gap-1">
      {position ? (
        <>
          <RowButton
            intent={`${part}-up`}
            fields={fields}
            version={version}
            label="上へ"
            target={target}
            disabled={position.index === 0}
          />
          <RowButton
            intent={`${part}-down`}
            fields={fields}
            version={version}
            label="下へ"
            target={target}
            disabled={position.index === position.count - 1}
          />
        </>
      ) : null}
      {retire ? (
        <RowButton
          intent={`${part}-${retire.intent}`}
          fields={fields}
          version={version}
          label={retire.label}
          target={target}
        />
      ) : null}
      {deletable ? (
        <RowButton
          intent={`${part}-delete`}
          fields={fields}
          version={version}
          label="削除"
          target={target}
          danger
        />
      ) : null}
    </div>
  );
}

/**
 * The frame of every form of the tabs: the heading that names it, the
 * refusal's summary, the version the page was loaded with and the hidden
 * ids, the fields, then one submit button. A refused form is mounted anew
 * (key "refused") so its inputs show what was typed rather than what is stored.
 */
export function SalonPartForm({
  headingId,
  heading,
  level = 2,
  className = "flex max-w-2xl flex-col gap-4",
  refusal,
  formKey,
  version,
  hidden,
  intent,
  submitLabel,
  children,
}: {
  headingId: string;
  heading: string;
  /** 2 for a tab's main form, 4 for the forms inside a stylist's sections. */
  level?: 2 | 4;
  className?: string;
  refusal: PartRefusal | null;
  /** The form's identity when not refused: a new row's form or the edited row's. */
  formKey: string;
  version: number;
  hidden: Record<string, string | undefined>;
  intent: string;
  submitLabel: string;
  children: ReactNode;
}) {
  const Heading = level === 2 ? "h2" : "h4";
  return (
    <Form
      method="post"
      noValidate
      className={className}
      aria-labelledby={headingId}
      key={refusal ? "refused" : formKey}
    >
      <Heading id={headingId} className={level === 2 ? "text-xl font-bold" : "font-bold"}>
        {heading}
      </Heading>
      <ErrorSummary errors={refusal?.errors ?? {}} />
      <StrandedLinks refusal={refusal} />
      <VersionField version={version} />
      {Object.entries(hidden).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      {children}
      <button type="submit" name="intent" value={intent} className={buttonClass}>
        {submitLabel}
      </button>
    </Form>
  );
}
