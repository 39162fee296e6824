import { publicPageHeaders } from "../../common/page-cache";
import { getCurrentUser } from "../../server/accounts/current-user";
import { appContext } from "../../server/context";
import { cacheKey } from "../../server/http/page-cache";
import {
  couponsForVisitor,
  loadSalonCouponsPage,
  requirePublishedSalon,
} from "../../server/salons/salon-sections";
import { SalonCoupons, SalonMenus } from "../components/salons/salon-detail-sections";
import {
  type SalonTabHandle,
  salonFrameFromMatches,
  salonTabPath,
  salonTabTitle,
  useSalonFrame,
} from "../components/salons/salon-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.coupons";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const salon = salonFrameFromMatches(matches)?.salon;
  if (!loaderData || !salon) return [];
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

export const handle: SalonTabHandle = { salonTab: "coupons" };

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

// Guard: requirePublishedSalon (read once with the layout's); the frame is the layout's.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  const page = await loadSalonCouponsPage(ctx.readDb, salon, new Date());
  // A signed-in visitor sees the coupons they can use first (decision 0087); never on the shared page.
  const user = cacheKey(request) === null ? await getCurrentUser(request, ctx) : null;
  return {
    ...page,
    coupons: await couponsForVisitor(ctx.readDb, salon.id, user?.id ?? null, page.coupons),
  };
}

export default function SalonTabPage({ loaderData }: Route.ComponentProps) {
  const slug = useSalonFrame().salon.slug;
  return (
    <>
      <SalonCoupons slug={slug} coupons={loaderData.coupons} menuGroups={loaderData.menuGroups} />
      <SalonMenus slug={slug} menuGroups={loaderData.menuGroups} />
    </>
  );
}
