import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { appContext } from "../../server/context";
import { todayPage } from "../../server/owner/today.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { OwnerPageHandle } from "../components/owner/owner-frame";
import { OwnerToday } from "../components/owner/owner-today";
import { useTodayLive } from "../components/owner/use-ledger-live";
import type { Route } from "./+types/owner.salons.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `今日の予約 | ${loaderData?.view.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

/** The frame links to the salon's public page (published salons only). */
export const handle = { ownerFrame: { publicLink: true } } satisfies OwnerPageHandle;

/** A reception screen stays open all day: arrivals due and free time follow the clock. */
const REFRESH_MS = 60_000;

/**
 * What the page needs (loader): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = { loader: "ledger.read" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess (the salon's owner or an administrator; a guest
// signs in and comes back; anyone else, or another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return todayPage(ctx.db, access, new Date());
}

export default function OwnerTodayPage({ loaderData }: Route.ComponentProps) {
  const { salon } = loaderData.view;
  // The salon's bookings changed, on any day (要確認 lists them all): read the page again.
  const announcement = useTodayLive(salon.id);
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidate.current();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <OwnerToday data={loaderData} />
      <p className="sr-only" aria-live="polite">
        {announcement ? "今日の予約を更新しました" : ""}
      </p>
    </>
  );
}
