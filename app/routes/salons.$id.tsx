import { Link, redirect, useRouteLoaderData } from "react-router";
import { genreLabels } from "../../common/genres";
import { publicPageHeaders } from "../../common/page-cache";
import { pageNumberSchema } from "../../common/search.schema";
import { getCurrentUser } from "../../server/accounts/current-user";
import { appContext } from "../../server/context";
import { cacheKey } from "../../server/http/page-cache";
import {
  couponsForVisitor,
  loadSalonTopPage,
  requirePublishedSalon,
} from "../../server/salons/salon-sections";
import { JsonLd } from "../components/json-ld";
import { FreeTimes } from "../components/salons/free-times";
import { SalonAccessSummary } from "../components/salons/salon-access-summary";
import {
  SalonCoupons,
  SalonMenus,
  SalonPhotos,
  SalonReviews,
  SalonStaff,
} from "../components/salons/salon-detail-sections";
import { type SalonTabHandle, salonTabHref, useSalonFrame } from "../components/salons/salon-frame";
import { ratingText } from "../components/salons/salon-rating";
import { salonJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id";

/** How many coupons and stylists トップ shows before 「…をすべて見る」. */
const TOP_COUPONS = 3;
const TOP_MENUS = 4;
const TOP_STYLISTS = 4;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon, area, photos } = loaderData;
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

export const handle: SalonTabHandle = { salonTab: "top" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const { searchParams } = new URL(request.url);
  // The review pages moved to /salons/:id/reviews (issue 30): old ?reviews=N links follow them.
  const reviewPage = searchParams.get("reviews");
  if (reviewPage !== null) {
    const page = pageNumberSchema.parse(reviewPage);
    throw redirect(
      `/salons/${encodeURIComponent(params.id)}/reviews${page > 1 ? `?page=${page}` : ""}`,
      301,
    );
  }
  // Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  const page = await loadSalonTopPage(ctx.readDb, salon, new Date());
  // A signed-in visitor sees the coupons they can use first (decision 0087); never on the shared page.
  const user = cacheKey(request) === null ? await getCurrentUser(request, ctx) : null;
  return {
    ...page,
    coupons: await couponsForVisitor(ctx.readDb, salon.id, user?.id ?? null, page.coupons),
  };
}

/** トップ: a summary to decide from, each part with the way to its tab (decision 0057). */
export default function SalonPage({ loaderData }: Route.ComponentProps) {
  const detail = loaderData;
  const { salon } = detail;
  const { via } = useSalonFrame();
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  const href = (tab: Parameters<typeof salonTabHref>[1]) => salonTabHref(salon.slug, tab, via);
  return (
    <>
      <JsonLd
        data={salonJsonLd(detail, new URL(`/salons/${salon.slug}`, origin).toString(), origin)}
      />
      <SalonPhotos photos={detail.photos} />
      {detail.photos.length > 0 ? (
        <p className="mt-2 text-right">
          <Link to={href("styles")} className="font-bold text-brand-700 underline">
            スタイル写真をすべて見る
          </Link>
        </p>
      ) : null}
      {salon.catchCopy ? <p className="mt-6 text-lg font-bold">{salon.catchCopy}</p> : null}
      <p className="mt-2 whitespace-pre-line">{salon.description}</p>
      {detail.freeTimes ? <FreeTimes slug={salon.slug} freeTimes={detail.freeTimes} /> : null}
      <SalonCoupons
        slug={salon.slug}
        coupons={detail.coupons}
        menuGroups={detail.menuGroups}
        limit={TOP_COUPONS}
        moreHref={href("coupons")}
      />
      <SalonMenus
        slug={salon.slug}
        menuGroups={detail.menuGroups}
        limit={TOP_MENUS}
        moreHref={href("coupons")}
      />
      <SalonStaff
        slug={salon.slug}
        staff={detail.staff}
        limit={TOP_STYLISTS}
        moreHref={href("stylists")}
      />
      <SalonReviews detail={detail} allHref={href("reviews")} />
      <SalonAccessSummary frame={detail} accessHref={href("access")} />
    </>
  );
}
