import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { getRecommendedSalons } from "../../server/salons/listings";
import { Breadcrumbs } from "../components/breadcrumbs";
import { JsonLd } from "../components/json-ld";
import { SalonCardGrid } from "../components/salons/salon-card-grid";
import { breadcrumbJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.recommend.$param";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { scope, limit } = loaderData.page;
  return pageMeta({
    title: `${scope.name}のおすすめサロン ランキング`,
    description: `${scope.name}のおすすめサロン上位${limit}件。口コミの評価と件数から算出した順位で、ネット予約できるサロンを紹介します。`,
    path: `/salons/recommend/${scope.slug}`,
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const page = await getRecommendedSalons(ctx.readDb, params.param);
  if (!page) throw notFound(request);
  const favorites = await favoritesAmong(
    request,
    ctx,
    page.salons.map((salon) => salon.slug),
  );
  return { page, favorites, origin: ctx.config.PUBLIC_URL };
}

export default function RecommendPage({ loaderData }: Route.ComponentProps) {
  const { scope, salons } = loaderData.page;
  const trail = [
    { name: "トップ", path: "/" },
    { name: `${scope.name}のおすすめ`, path: `/salons/recommend/${scope.slug}` },
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <JsonLd data={breadcrumbJsonLd(trail, loaderData.origin)} />
      <Breadcrumbs items={trail} />
      <h1 className="mt-4 text-2xl font-bold">{scope.name}のおすすめサロン ランキング</h1>
      <p className="mt-2 text-sm text-neutral-700">
        順位は口コミの平均評価と件数から決めています。口コミが少ないサロンは評価を全体の平均（3.5）に寄せて計算するため、少数の高評価だけで上位になることはありません。
      </p>
      {salons.length === 0 ? (
        <p className="mt-6">
          まだ掲載サロンがありません。ほかのエリアやジャンルからお探しください。
        </p>
      ) : (
        <SalonCardGrid salons={salons} favorites={loaderData.favorites} ranked />
      )}
    </div>
  );
}
