import { redirect, useRouteLoaderData } from "react-router";
import { genreLabels } from "../../common/genres";
import { publicPageHeaders } from "../../common/page-cache";
import { pageNumberSchema } from "../../common/search.schema";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { getSalonDetail } from "../../server/salons/salon-detail";
import { Breadcrumbs } from "../components/breadcrumbs";
import { FavoriteToggle, favoriteState } from "../components/favorites/favorite-toggle";
import { JsonLd } from "../components/json-ld";
import { FreeTimes } from "../components/salons/salon-card-item";
import {
  SalonCoupons,
  SalonInfo,
  SalonMenus,
  SalonPhotos,
  SalonReviews,
  SalonStaff,
} from "../components/salons/salon-detail-sections";
import { ratingText, SalonRating } from "../components/salons/salon-rating";
import { breadcrumbJsonLd, salonJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon, area, photos } = loaderData.detail;
  return pageMeta({
    title: `${salon.name}（${area.name}・${genreLabels[salon.genre]}）`,
    description:
      `${salon.name}（${salon.nameKana}）の${ratingText(salon.ratingAverage, salon.reviewCount)}。${salon.catchCopy}${salon.access}。メニュー・クーポン・スタッフを見てネット予約。`.slice(
        0,
        160,
      ),
    path: `/salons/${salon.slug}`,
    origin: originFromMatches(matches),
    image: photos[0]?.url,
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  // The review pages moved to /salons/:id/reviews (issue 30): old ?reviews=N links follow them.
  const reviewPage = new URL(request.url).searchParams.get("reviews");
  if (reviewPage !== null) {
    const page = pageNumberSchema.parse(reviewPage);
    throw redirect(
      `/salons/${encodeURIComponent(params.id)}/reviews${page > 1 ? `?page=${page}` : ""}`,
      301,
    );
  }
  const detail = await getSalonDetail(ctx.db, params.id, new Date());
  if (!detail) throw notFound(request);
  const favorites = await favoritesAmong(request, ctx, [detail.salon.slug]);
  return { detail, favorites };
}

export default function SalonPage({ loaderData }: Route.ComponentProps) {
  const { detail, favorites } = loaderData;
  const { salon } = detail;
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  const trail = [
    { name: "トップ", path: "/" },
    { name: "エリア一覧", path: "/area" },
    { name: detail.area.name, path: `/area/${detail.area.slug}` },
    { name: salon.name, path: `/salons/${salon.slug}` },
  ];
  return (
    <article className="mx-auto max-w-5xl px-4 py-8">
      <JsonLd
        data={salonJsonLd(detail, new URL(`/salons/${salon.slug}`, origin).toString(), origin)}
      />
      <JsonLd data={breadcrumbJsonLd(trail, origin)} />
      <Breadcrumbs items={trail} />
      <header className="mt-4">
        <p className="text-sm text-neutral-700">
          {genreLabels[salon.genre]}・{detail.prefecture.name} {detail.area.name}
          {detail.station ? `・${detail.station.name}駅` : ""}
        </p>
        <h1 className="text-2xl font-bold sm:text-3xl">{salon.name}</h1>
        <p className="text-sm text-neutral-700">{salon.nameKana}</p>
        <div className="mt-2">
          <FavoriteToggle
            salonSlug={salon.slug}
            salonName={salon.name}
            state={favoriteState(favorites, salon.slug)}
            size="large"
          />
        </div>
        <p className="mt-2">
          <SalonRating
            ratingAverage={salon.ratingAverage}
            reviewCount={salon.reviewCount}
            reviewsHref="#reviews"
          />
        </p>
      </header>
      <SalonPhotos photos={detail.photos} />
      {salon.catchCopy ? <p className="mt-6 text-lg font-bold">{salon.catchCopy}</p> : null}
      <p className="mt-2 whitespace-pre-line">{salon.description}</p>
      {detail.freeTimes ? <FreeTimes slug={salon.slug} freeTimes={detail.freeTimes} /> : null}
      <p className="mt-4">
        <a href="#salon-menus" className="underline">
          メニューから予約する
        </a>
      </p>
      <SalonMenus detail={detail} />
      <SalonCoupons detail={detail} />
      <SalonStaff detail={detail} />
      <SalonInfo detail={detail} />
      <SalonReviews detail={detail} />
    </article>
  );
}
