import { Link } from "react-router";
import { publicPageHeaders } from "../../common/page-cache";
import { pageNumberSchema } from "../../common/search.schema";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { getFeaturePage } from "../../server/salons/listings";
import { Breadcrumbs } from "../components/breadcrumbs";
import { JsonLd } from "../components/json-ld";
import { Pagination } from "../components/pagination";
import { SalonCardGrid } from "../components/salons/salon-card-grid";
import { breadcrumbJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.feature.$param";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { feature, result } = loaderData.page;
  return pageMeta({
    title: `「${feature.name}」のサロン${result.page > 1 ? `（${result.page}ページ目）` : ""}`,
    description:
      `「${feature.name}」のサロン${result.total}件。${feature.description}口コミ評価を見てネット予約。`.slice(
        0,
        160,
      ),
    path: `/salons/feature/${feature.slug}${result.page > 1 ? `?page=${result.page}` : ""}`,
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const pageNumber = pageNumberSchema.parse(new URL(request.url).searchParams.get("page"));
  const page = await getFeaturePage(ctx.readDb, params.param, pageNumber);
  if (!page) throw notFound(request);
  const favorites = await favoritesAmong(
    request,
    ctx,
    page.result.salons.map((salon) => salon.slug),
  );
  return { page, favorites, origin: ctx.config.PUBLIC_URL };
}

export default function FeaturePage({ loaderData }: Route.ComponentProps) {
  const { feature, result } = loaderData.page;
  const trail = [
    { name: "トップ", path: "/" },
    { name: feature.name, path: `/salons/feature/${feature.slug}` },
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <JsonLd data={breadcrumbJsonLd(trail, loaderData.origin)} />
      <Breadcrumbs items={trail} />
      <h1 className="mt-4 text-2xl font-bold">「{feature.name}」のサロン</h1>
      {feature.description ? <p className="mt-2">{feature.description}</p> : null}
      <p className="mt-2">
        {result.total}件・おすすめ順
        <Link
          to={`/salons/search?feature=${feature.slug}`}
          className="ml-3 text-brand-700 underline"
        >
          エリアや条件を追加して探す
        </Link>
      </p>
      <SalonCardGrid salons={result.salons} favorites={loaderData.favorites} />
      <Pagination
        page={result.page}
        total={result.total}
        pageSize={result.pageSize}
        hrefFor={(n) => `/salons/feature/${feature.slug}${n > 1 ? `?page=${n}` : ""}`}
      />
    </div>
  );
}
