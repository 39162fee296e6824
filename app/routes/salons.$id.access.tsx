import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { loadSalonAccessPage } from "../../server/salons/salon-sections";
import { SalonAccessView } from "../components/salons/salon-access";
import { SalonFrameView, salonTabPath, salonTabTitle } from "../components/salons/salon-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.access";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon } = loaderData.frame;
  return pageMeta({
    title: salonTabTitle(salon.name, "access"),
    description:
      `${salon.name}の地図・アクセス。〒${salon.postalCode} ${salon.address}。${salon.access}。最寄り駅からの徒歩時間、営業時間と定休日。`.slice(
        0,
        160,
      ),
    path: salonTabPath(salon.slug, "access"),
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const page = await loadSalonAccessPage(
    ctx.readDb,
    params.id,
    new URL(request.url).searchParams,
    new Date(),
  );
  if (!page) throw notFound(request);
  const favorites = await favoritesAmong(request, ctx, [page.frame.salon.slug]);
  return { ...page, favorites };
}

export default function SalonTabPage({ loaderData }: Route.ComponentProps) {
  const { frame, favorites } = loaderData;
  return (
    <SalonFrameView frame={frame} via={frame.via} favorites={favorites} tab="access">
      <SalonAccessView page={loaderData} />
    </SalonFrameView>
  );
}
