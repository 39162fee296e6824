import { Link } from "react-router";
import { publicPageHeaders } from "../../common/page-cache";
import { pageNumberSchema } from "../../common/search.schema";
import { getAreaPage } from "../../server/areas/area-pages";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { AreaOverview } from "../components/areas/area-overview";
import { Breadcrumbs } from "../components/breadcrumbs";
import { favoriteState } from "../components/favorites/favorite-toggle";
import { JsonLd } from "../components/json-ld";
import { Pagination } from "../components/pagination";
import { SalonCardItem } from "../components/salons/salon-card-item";
import { breadcrumbJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/area.$id";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { area, result } = loaderData.page;
  return pageMeta({
    title: `${area.name}（${area.prefectureName}）のサロン${result.page > 1 ? `（${result.page}ページ目）` : ""}`,
    description:
      `${area.prefectureName}${area.name}のヘアサロン・ネイル・まつげ・エステ${result.total}件。駅やこだわり条件から探して、口コミを見てネット予約。${area.description}`.slice(
        0,
        160,
      ),
    path: `/area/${area.slug}${result.page > 1 ? `?page=${result.page}` : ""}`,
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const pageNumber = pageNumberSchema.parse(new URL(request.url).searchParams.get("page"));
  const page = await getAreaPage(ctx.readDb, params.id, pageNumber);
  if (!page) throw notFound(request);
  const favorites = await favoritesAmong(
    request,
    ctx,
    page.result.salons.map((salon) => salon.slug),
  );
  return { page, favorites, origin: ctx.config.PUBLIC_URL };
}

export default function AreaPage({ loaderData }: Route.ComponentProps) {
  const { page, favorites, origin } = loaderData;
  const { area, parent, result } = page;
  const trail = [
    { name: "トップ", path: "/" },
    { name: "エリア一覧", path: "/area" },
    ...(parent ? [{ name: parent.name, path: `/area/${parent.slug}` }] : []),
    { name: area.name, path: `/area/${area.slug}` },
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <JsonLd data={breadcrumbJsonLd(trail, origin)} />
      <Breadcrumbs items={trail} />
      <h1 className="mt-4 text-2xl font-bold">
        {area.name}のサロン
        <span className="ml-2 text-base font-normal">（{area.prefectureName}）</span>
      </h1>
      {area.description ? <p className="mt-2">{area.description}</p> : null}
      <AreaOverview page={page} />
      <section aria-labelledby="area-salons" className="mt-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="area-salons" className="text-xl font-bold">
            {area.name}のおすすめサロン（{result.total}件）
          </h2>
          <Link to={`/salons/search?area=${area.slug}`} className="text-brand-700 underline">
            条件を指定して探す
          </Link>
        </div>
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {result.salons.map((salon) => (
            <li key={salon.slug}>
              <SalonCardItem salon={salon} favorite={favoriteState(favorites, salon.slug)} />
            </li>
          ))}
        </ul>
        {result.salons.length === 0 ? (
          <p className="mt-4">このエリアの掲載サロンはまだありません。</p>
        ) : null}
        <Pagination
          page={result.page}
          total={result.total}
          pageSize={result.pageSize}
          hrefFor={(n) => `/area/${area.slug}${n > 1 ? `?page=${n}` : ""}`}
        />
      </section>
    </div>
  );
}
