import { Form, Link } from "react-router";
import { genreLabels } from "../../common/genres";
import { publicPageHeaders } from "../../common/page-cache";
import { listPopularAreas } from "../../server/areas/area-queries";
import { listPublishedArticles } from "../../server/content/articles";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { listRecommendedSalons } from "../../server/salons/listings";
import { favoriteState } from "../components/favorites/favorite-toggle";
import { SalonCardItem } from "../components/salons/salon-card-item";
import { originFromMatches, pageMeta, SITE_NAME } from "../lib/meta";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: SITE_NAME,
    description:
      "全国のヘアサロン・ネイル・まつげ・エステ・ヘッドスパを、エリアや駅、こだわり条件から探して24時間ネット予約。",
    path: "/",
    origin: originFromMatches(matches),
  });

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  // May lag a moment: the replica, when there is one (decision 0074).
  const { readDb: db } = ctx;
  const [salons, areas, articles] = await Promise.all([
    listRecommendedSalons(db, 8),
    listPopularAreas(db, 12),
    listPublishedArticles(db, new Date(), 4),
  ]);
  // No query for a guest: the first page most visitors see stays as cheap as it was.
  const favorites = await favoritesAmong(
    request,
    ctx,
    salons.map((salon) => salon.slug),
  );
  return { salons, areas, articles, favorites };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { salons, areas, articles, favorites } = loaderData;
  return (
    <div>
      <section className="bg-brand-50 px-4 py-10">
        <div className="mx-auto max-w-6xl">
          <h1 className="text-2xl font-bold sm:text-3xl">
            キレイになれるサロンが、すぐ見つかる。すぐ予約できる。
          </h1>
          <p className="mt-2 text-neutral-700">
            ヘア・ネイル・まつげ・エステ・ヘッドスパを全国から検索。空き枠を見てそのままネット予約。
          </p>
          <Form
            method="get"
            action="/salons/search"
            className="mt-6 flex flex-col gap-3 sm:flex-row"
          >
            <label htmlFor="home-search" className="sr-only">
              キーワード
            </label>
            <input
              id="home-search"
              type="search"
              name="q"
              placeholder="例：渋谷 カット、表参道 ネイル"
              className="min-w-0 flex-1 rounded-lg border border-neutral-400 bg-white px-4 py-3"
            />
            <button
              type="submit"
              className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
            >
              サロンを探す
            </button>
          </Form>
          <ul className="mt-4 flex flex-wrap gap-2" aria-label="ジャンルから探す">
            {Object.entries(genreLabels).map(([genre, label]) => (
              <li key={genre}>
                <Link
                  to={`/salons/search?genre=${genre}`}
                  className="inline-block rounded-full border border-brand-700 bg-white px-4 py-1.5 text-sm text-brand-700 hover:bg-brand-100"
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="top-salons" className="mx-auto max-w-6xl px-4 py-10">
        <h2 id="top-salons" className="text-xl font-bold">
          おすすめのサロン
        </h2>
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {salons.map((salon, index) => (
            <li key={salon.slug}>
              <SalonCardItem
                salon={salon}
                priority={index === 0}
                favorite={favoriteState(favorites, salon.slug)}
              />
            </li>
          ))}
        </ul>
        <p className="mt-3 text-right">
          <Link to="/salons/recommend/all" className="text-brand-700 underline">
            おすすめのサロンをもっと見る
          </Link>
        </p>
      </section>

      <section aria-labelledby="popular-areas" className="mx-auto max-w-6xl px-4 py-6">
        <h2 id="popular-areas" className="text-xl font-bold">
          人気のエリアから探す
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4">
          {areas.map((area) => (
            <li key={area.slug}>
              <Link
                to={`/area/${area.slug}`}
                className="block rounded-lg border border-neutral-200 px-3 py-2 hover:bg-neutral-50"
              >
                <span className="font-bold">{area.name}</span>
                <span className="block text-xs text-neutral-700">
                  {area.prefectureName}・{area.salonCount}件
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-right">
          <Link to="/area" className="text-brand-700 underline">
            すべてのエリアを見る
          </Link>
        </p>
      </section>

      <section aria-labelledby="home-articles" className="mx-auto max-w-6xl px-4 py-6">
        <h2 id="home-articles" className="text-xl font-bold">
          特集・記事
        </h2>
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {articles.map((article) => (
            <li key={article.slug}>
              <Link to={`/articles/${article.slug}`} className="block hover:underline">
                <img
                  src={article.coverUrl}
                  alt=""
                  width={1200}
                  height={630}
                  loading="lazy"
                  className="aspect-[40/21] h-auto w-full rounded-lg object-cover"
                />
                <span className="mt-2 block font-bold">{article.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
