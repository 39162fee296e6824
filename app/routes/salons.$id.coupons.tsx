import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { loadSalonCouponsPage } from "../../server/salons/salon-sections";
import { SalonCoupons, SalonMenus } from "../components/salons/salon-detail-sections";
import { SalonFrameView, salonTabPath, salonTabTitle } from "../components/salons/salon-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.coupons";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon } = loaderData.frame;
  return pageMeta({
    title: salonTabTitle(salon.name, "coupons"),
    description:
      `${salon.name}（${salon.nameKana}）のクーポンとメニュー。料金・所要時間を見て、クーポンやメニューからそのままネット予約できます。`.slice(
        0,
        160,
      ),
    path: salonTabPath(salon.slug, "coupons"),
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const page = await loadSalonCouponsPage(
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
    <SalonFrameView frame={frame} via={frame.via} favorites={favorites} tab="coupons">
      <SalonCoupons
        slug={frame.salon.slug}
        coupons={loaderData.coupons}
        menuGroups={loaderData.menuGroups}
      />
      <SalonMenus slug={frame.salon.slug} menuGroups={loaderData.menuGroups} />
    </SalonFrameView>
  );
}
