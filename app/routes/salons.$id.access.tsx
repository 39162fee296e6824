import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { loadSalonAccessPage, requirePublishedSalon } from "../../server/salons/salon-sections";
import { SalonAccessView } from "../components/salons/salon-access";
import {
  type SalonTabHandle,
  salonFrameFromMatches,
  salonTabPath,
  salonTabTitle,
  useSalonFrame,
} from "../components/salons/salon-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.access";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const salon = salonFrameFromMatches(matches)?.salon;
  if (!loaderData || !salon) return [];
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

export const handle: SalonTabHandle = { salonTab: "access" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

// Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  return loadSalonAccessPage(ctx.readDb, salon);
}

export default function SalonTabPage({ loaderData }: Route.ComponentProps) {
  const { salon } = useSalonFrame();
  return <SalonAccessView salon={salon} page={loaderData} />;
}
