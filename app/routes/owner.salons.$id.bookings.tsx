import { data } from "react-router";
import { appContext } from "../../server/context";
import { ledgerPage } from "../../server/owner/ledger.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { LedgerPage } from "../components/owner/ledger-page";
import type { Route } from "./+types/owner.salons.$id.bookings";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `予約台帳 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

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
  const url = new URL(request.url);
  const page = await ledgerPage(
    ctx.db,
    access,
    { date: url.searchParams.get("date"), view: url.searchParams.get("view") },
    new Date(),
  );
  // A date that is not one: the form again with its message, as a 400.
  return page.kind === "invalid" ? data(page, { status: 400 }) : page;
}

export default function OwnerLedgerPage({ loaderData }: Route.ComponentProps) {
  return <LedgerPage data={loaderData} />;
}
