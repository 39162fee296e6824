import { redirect, useRouteLoaderData } from "react-router";
import { publicPageHeaders } from "../../common/page-cache";
import { reviewListHref } from "../../common/review-list-query";
import { formatRating, reviewSortLabels } from "../../common/reviews";
import { appContext } from "../../server/context";
import { loadSalonReviewsPage } from "../../server/salons/salon-reviews-page";
import { requirePublishedSalon } from "../../server/salons/salon-sections";
import { JsonLd } from "../components/json-ld";
import { SalonReviewsPageView } from "../components/reviews/salon-reviews-page";
import { type SalonTabHandle, useSalonFrame } from "../components/salons/salon-frame";
import { salonReviewsJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.reviews";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon, summary, filters, page } = loaderData;
  const pageNote = page > 1 ? `（${page}ページ目）` : "";
  return pageMeta({
    title: `${salon.name}の口コミ${pageNote}`,
    description:
      summary.count === 0
        ? `${salon.name}の口コミはまだありません。`
        : `${salon.name}の口コミ${summary.count}件・評価${formatRating(summary.average)}。来店したお客様だけが書いた口コミを${reviewSortLabels[filters.sort]}で。サロンからの返信も。`,
    path: reviewListHref(salon.slug, { ...filters, page }),
    origin: originFromMatches(matches),
  });
};

export const handle: SalonTabHandle = { salonTab: "reviews" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const { searchParams } = new URL(request.url);
  // Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  const data = await loadSalonReviewsPage(ctx.readDb, salon, searchParams);
  if (data.redirect !== null) throw redirect(data.redirect);
  return data;
}

export default function SalonReviewsRoute({ loaderData }: Route.ComponentProps) {
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  const url = new URL(`/salons/${loaderData.salon.slug}`, origin).toString();
  return (
    <>
      <JsonLd
        data={salonReviewsJsonLd(loaderData.salon, url, loaderData.summary, loaderData.items)}
      />
      <SalonReviewsPageView data={loaderData} via={useSalonFrame().via} />
    </>
  );
}
