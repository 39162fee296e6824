import { Link } from "react-router";
import type { SearchQuery } from "../../../common/search.schema";
import { searchQueryToParams } from "../../../common/search-query";

const hrefOf = (query: SearchQuery, view: SearchQuery["view"]) =>
  `/salons/search?${searchQueryToParams({ ...query, view })}`.replace(/\?$/, "");

/**
 * リスト / 地図: the same search (page, order and position kept) as a list or
 * on a map. Two links, the current one marked, so it works without JavaScript.
 * Shown only when the map has tiles (MAP_TILE_URL).
 */
export function SearchViewSwitch({ query }: { query: SearchQuery }) {
  const views = [
    { view: undefined, label: "リスト" },
    { view: "map", label: "地図" },
  ] as const;
  return (
    <nav aria-label="表示の切り替え">
      <ul className="inline-flex overflow-hidden rounded-full border border-brand-700 text-sm font-bold">
        {views.map(({ view, label }) => {
          const current = query.view === view;
          return (
            <li key={label}>
              <Link
                to={hrefOf(query, view)}
                aria-current={current ? "page" : undefined}
                className={`inline-block px-4 py-1 ${current ? "bg-brand-700 text-white" : "text-brand-700 hover:bg-brand-50"}`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
