import { formatDateTime as japaneseDateTime } from "../../common/format";

// The back office's shared look (tables, links, buttons, list counts), used by the
// administrator's pages, the salon's pages and the salon editor both doors open.

/** 2026年11月23日(月) 12:00 in Japan's time (the site's one format), or — when there is none. */
export function formatDateTime(value: Date | string | null | undefined): string {
  return value ? japaneseDateTime(value) : "—";
}

export const tableClass = "w-full border-collapse text-left text-sm";
export const cellClass = "border-b border-neutral-200 px-2 py-2 align-top";
export const headCellClass = "border-b-2 border-neutral-400 px-2 py-2 font-bold";
export const linkClass = "font-bold text-brand-700 underline underline-offset-4";
export const buttonClass =
  "rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-60";
export const secondaryButtonClass =
  "rounded-lg border border-neutral-500 px-3 py-1 text-sm font-bold hover:bg-neutral-100";

/** A labelled filter of a GET form: "" (the first option) means no filter. */
export function FilterSelect({
  id,
  name,
  label,
  allLabel,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  allLabel: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-bold">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value ?? ""}
        className="max-w-full rounded-lg border border-neutral-400 px-3 py-2"
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "123件（21〜40件目）" above a paged admin list, announced when a search changes it. */
export function ListCount({
  total,
  page,
  perPage,
}: {
  total: number;
  page: number;
  perPage: number;
}) {
  return (
    <p aria-live="polite">
      {total.toLocaleString("ja-JP")}件
      {total > 0 ? `（${(page - 1) * perPage + 1}〜${Math.min(page * perPage, total)}件目）` : ""}
    </p>
  );
}
