import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { loadSalonStylistsPage, requirePublishedSalon } from "../../server/salons/salon-sections";
import { SalonStaff } from "../components/salons/salon-detail-sections";
import {
  type SalonTabHandle,
  salonFrameFromMatches,
  salonTabPath,
  salonTabTitle,
  useSalonFrame,
} from "../components/salons/salon-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.stylists";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const salon = salonFrameFromMatches(matches)?.salon;
  if (!loaderData || !salon) return [];
  return pageMeta({
    title: salonTabTitle(salon.name, "stylists"),
    description:
      `${salon.name}（${salon.nameKana}）のスタッフ紹介。経歴・得意なスタイル・指名料を見て、指名してネット予約できます。`.slice(
        0,
        160,
      ),
    path: salonTabPath(salon.slug, "stylists"),
    origin: originFromMatches(matches),
  });
};

export const handle: SalonTabHandle = { salonTab: "stylists" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

// Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  return loadSalonStylistsPage(ctx.readDb, salon);
}

export default function SalonTabPage({ loaderData }: Route.ComponentProps) {
  const slug = useSalonFrame().salon.slug;
  return <SalonStaff slug={slug} staff={loaderData.staff} />;
}
