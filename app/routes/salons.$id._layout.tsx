import { Outlet, type ShouldRevalidateFunctionArgs, useMatches } from "react-router";
import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { requirePublishedSalon, salonFrameOf } from "../../server/salons/salon-sections";
import { SalonFrameView, type SalonTabHandle } from "../components/salons/salon-frame";
import type { Route } from "./+types/salons.$id._layout";

// Anonymous visitors share these pages for a few seconds (decision 0007); each tab says so too,
// since a route's `headers` replaces its parent's.
export const headers = publicPageHeaders;

// Guard: requirePublishedSalon (an unknown, draft or suspended salon: the 404 screen), then the
// frame once for every tab of /salons/{slug}: the salon's header, the ?coupon= or ?menu= the
// 予約する bar books with, and the heart. It protects nothing below it: each tab's loader
// guards itself (a client-side move between tabs runs the tab's loader alone).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await requirePublishedSalon(request, ctx.readDb, params.id);
  const [frame, favorites] = await Promise.all([
    salonFrameOf(ctx.readDb, salon, new URL(request.url).searchParams, new Date()),
    favoritesAmong(request, ctx, [salon.salon.slug]),
  ]);
  return { ...frame, favorites };
}

/**
 * The frame is read again for another salon, another coupon or menu, and
 * after a form post (the heart); not when the visitor moves between tabs or
 * through the reviews' filters and pages.
 */
export function shouldRevalidate({
  currentParams,
  nextParams,
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (currentParams.id !== nextParams.id) return true;
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  for (const key of ["coupon", "menu"]) {
    if (currentUrl.searchParams.get(key) !== nextUrl.searchParams.get(key)) return true;
  }
  return false;
}

export default function SalonLayout({ loaderData }: Route.ComponentProps) {
  const page = useMatches().at(-1)?.handle as SalonTabHandle | undefined;
  const { favorites, ...frame } = loaderData;
  return (
    <SalonFrameView
      frame={frame}
      via={frame.via}
      favorites={favorites}
      tab={page?.salonTab ?? "top"}
    >
      <Outlet context={frame} />
    </SalonFrameView>
  );
}
