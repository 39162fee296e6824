import { Link } from "react-router";

/**
 * Page links for a list. `hrefFor(page)` builds each URL so the page number
 * stays in the query string (shareable, back button works).
 */
export function Pagination({
  page,
  total,
  pageSize,
  hrefFor,
  label = "ページ送り",
}: {
  page: number;
  total: number;
  pageSize: number;
  hrefFor: (page: number) => string;
  label?: string;
}) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (last <= 1) return null;
  const pages = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, last])]
    .filter((n) => n >= 1 && n <= last)
    .sort((a, b) => a - b);
  const item = "inline-block min-w-11 rounded border border-neutral-300 px-3 py-2 text-center";
  return (
    <nav aria-label={label} className="mt-6">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>
            <Link to={hrefFor(page - 1)} className={`${item} hover:bg-neutral-50`} rel="prev">
              前へ
            </Link>
          </li>
        ) : null}
        {pages.map((n, index) => (
          <li key={n} className="flex items-center gap-2">
            {index > 0 && n - (pages[index - 1] ?? n) > 1 ? (
              <span aria-hidden="true">…</span>
            ) : null}
            {n === page ? (
              <span aria-current="page" className={`${item} bg-brand-700 font-bold text-white`}>
                {n}
              </span>
            ) : (
              <Link to={hrefFor(n)} className={`${item} hover:bg-neutral-50`}>
                <span className="sr-only">ページ</span>
                {n}
              </Link>
            )}
          </li>
        ))}
        {page < last ? (
          <li>
            <Link to={hrefFor(page + 1)} className={`${item} hover:bg-neutral-50`} rel="next">
              次へ
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
