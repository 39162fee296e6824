import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { loadSalonStylesPage } from "../../server/salons/salon-sections";
import { SalonFrameView, salonTabPath, salonTabTitle } from "../components/salons/salon-frame";
import { SalonStylesView } from "../components/salons/salon-styles";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.styles";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { salon } = loaderData.frame;
  return pageMeta({
    title: salonTabTitle(salon.name, "styles"),
    description:
      `${salon.name}（${salon.nameKana}）のスタイル写真。担当スタイリストとメニューを見て、同じメニューでネット予約できます。`.slice(
        0,
        160,
      ),
    path: salonTabPath(salon.slug, "styles"),
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const page = await loadSalonStylesPage(
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
    <SalonFrameView frame={frame} via={frame.via} favorites={favorites} tab="styles">
      <SalonStylesView slug={frame.salon.slug} photos={loaderData.photos} />
    </SalonFrameView>
  );
}
