import { Form, Link } from "react-router";
import { defaultSalonSortDirection, SALONS_PER_PAGE } from "../../../common/admin";
import { genreLabels, salonGenres } from "../../../common/genres";
import type { SalonListPageData, SalonListQuery } from "../../../server/admin/salon-list.server";
import { Notice } from "../accounts/account-frame";
import {
  buttonClass,
  cellClass,
  FilterSelect,
  formatDateTime,
  headCellClass,
  ListCount,
  linkClass,
  tableClass,
} from "../back-office-ui";
import { Pagination } from "../pagination";
import { salonStatusLabels } from "../salon-editor/salon-status";
import { AdminFrame } from "./admin-frame";

/** The list's URL with some conditions changed (page back to 1 unless given). */
function listHref(query: SalonListQuery, change: Partial<SalonListQuery>) {
  const next = { ...query, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.status) params.set("status", next.status);
  if (next.genre) params.set("genre", next.genre);
  if (next.area) params.set("area", next.area);
  if (next.sort !== "updated") params.set("sort", next.sort);
  if (next.dir && next.dir !== defaultSalonSortDirection(next.sort)) params.set("dir", next.dir);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return `/admin/salons${text ? `?${text}` : ""}`;
}

const columns: { sort: SalonListQuery["sort"]; label: string }[] = [
  { sort: "name", label: "サロン名" },
  { sort: "area", label: "エリア" },
  { sort: "status", label: "状態" },
  { sort: "updated", label: "更新日時" },
  { sort: "created", label: "登録日時" },
];

/**
 * /admin/salons: the search and its filters, one page of salons sorted by
 * the column whose heading was chosen, and the pages.
 */
export function SalonList({ data }: { data: SalonListPageData & { done: string | null } }) {
  const { salons, total, page, query, areas, dir, done } = data;
  return (
    <AdminFrame
      title="サロン一覧"
      actions={
        <Link to="/admin/salons/add" className={buttonClass}>
          サロンを追加
        </Link>
      }
    >
      {done === "deleted" ? <Notice>サロンを削除しました。</Notice> : null}
      <Form
        method="get"
        role="search"
        aria-label="サロンの検索"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="salon-q" className="text-sm font-bold">
            サロン名・フリガナ・エリアで検索
          </label>
          <input
            id="salon-q"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={100}
            className="rounded-lg border border-neutral-400 px-3 py-2"
          />
        </div>
        <FilterSelect
          id="salon-status"
          name="status"
          label="状態"
          allLabel="すべての状態"
          value={query.status}
          options={Object.entries(salonStatusLabels).map(([value, label]) => ({ value, label }))}
        />
        <FilterSelect
          id="salon-genre"
          name="genre"
          label="ジャンル"
          allLabel="すべてのジャンル"
          value={query.genre}
          options={salonGenres.map((genre) => ({ value: genre, label: genreLabels[genre] }))}
        />
        <FilterSelect
          id="salon-area"
          name="area"
          label="エリア"
          allLabel="すべてのエリア"
          value={query.area}
          options={areas.map((area) => ({ value: area.id, label: area.name }))}
        />
        {query.sort !== "updated" ? <input type="hidden" name="sort" value={query.sort} /> : null}
        {query.dir ? <input type="hidden" name="dir" value={query.dir} /> : null}
        <button type="submit" className={buttonClass}>
          検索する
        </button>
      </Form>
      <ListCount total={total} page={page} perPage={SALONS_PER_PAGE} />
      {salons.length === 0 ? (
        <p>該当するサロンはありません。</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">サロン一覧（列の見出しで並べ替えできます）</caption>
            <thead>
              <tr>
                {columns.map((column) => {
                  const active = query.sort === column.sort;
                  const nextDir = active
                    ? dir === "asc"
                      ? "desc"
                      : "asc"
                    : defaultSalonSortDirection(column.sort);
                  return (
                    <th
                      key={column.sort}
                      scope="col"
                      className={headCellClass}
                      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
                    >
                      <Link
                        to={listHref(query, { sort: column.sort, dir: nextDir })}
                        className="underline underline-offset-4"
                      >
                        {column.label}
                        <span aria-hidden="true">
                          {active ? (dir === "asc" ? " ▲" : " ▼") : ""}
                        </span>
                        <span className="sr-only">
                          （{nextDir === "asc" ? "昇順" : "降順"}で並べ替え）
                        </span>
                      </Link>
                    </th>
                  );
                })}
                <th scope="col" className={headCellClass}>
                  ジャンル
                </th>
              </tr>
            </thead>
            <tbody>
              {salons.map((salon) => (
                <tr key={salon.id}>
                  <td className={cellClass}>
                    <Link to={`/admin/salons/edit/${salon.id}`} className={linkClass}>
                      {salon.name}
                    </Link>
                    <span className="block text-xs">{salon.nameKana}</span>
                    <span className="block text-xs text-neutral-700">/salons/{salon.slug}</span>
                    <Link to={`/owner/salons/${salon.id}`} className={`${linkClass} text-xs`}>
                      予約台帳<span className="sr-only">（{salon.name}）</span>
                    </Link>
                  </td>
                  <td className={cellClass}>{salon.areaName}</td>
                  <td className={cellClass}>{salonStatusLabels[salon.status]}</td>
                  <td className={cellClass}>{formatDateTime(salon.updatedAt)}</td>
                  <td className={cellClass}>{formatDateTime(salon.createdAt)}</td>
                  <td className={cellClass}>{genreLabels[salon.genre]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        page={page}
        total={total}
        pageSize={SALONS_PER_PAGE}
        hrefFor={(n) => listHref(query, { page: n })}
      />
    </AdminFrame>
  );
}
