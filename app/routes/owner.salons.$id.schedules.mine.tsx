import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/owner/salon-access.server";
import { ownSchedulePage } from "../../server/owner/schedules.server";
import { SchedulePage } from "../components/owner/schedule-page";
import type { Route } from "./+types/owner.salons.$id.schedules.mine";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `自分の勤務表 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** A stylist's own month, read-only (decision 0046); the role matrix checks it (decision 0045). */
export const capability = { loader: "schedules.request" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with schedules.request (a stylist linked to one of the salon's
// stylists: their own month only, ?month=); anyone else and another salon's id, the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return ownSchedulePage(ctx.db, access, request, new Date());
}

export default function OwnStylistSchedule({ loaderData }: Route.ComponentProps) {
  return <SchedulePage data={loaderData} />;
}
