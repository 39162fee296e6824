import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { loadSalonStylesPage, requirePublishedSalon } from "../../server/salons/salon-sections";
import {
  type SalonTabHandle,
  salonFrameFromMatches,
  salonTabPath,
  salonTabTitle,
  useSalonFrame,
} from "../components/salons/salon-frame";
import { SalonStylesView } from "../components/salons/salon-styles";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.styles";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const salon = salonFrameFromMatches(matches)?.salon;
  if (!loaderData || !salon) return [];
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

export const handle: SalonTabHandle = { salonTab: "styles" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

// Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  return loadSalonStylesPage(ctx.readDb, salon);
}

export default function SalonTabPage({ loaderData }: Route.ComponentProps) {
  const slug = useSalonFrame().salon.slug;
  return <SalonStylesView slug={slug} photos={loaderData.photos} />;
}
