import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { submitOwnRequestForm } from "../../server/owner/schedule-requests.server";
import { ownSchedulePage } from "../../server/owner/schedules.server";
import { notFound } from "../../server/routing/not-found";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { SchedulePage } from "../components/owner/schedule-page";
import type { Route } from "./+types/owner.salons.$id.schedules.mine";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `自分の勤務表 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * A stylist's own month, read-only (decision 0046), and their schedule requests (decision
 * 0052); the role matrix checks both (decision 0045).
 */
export const capability = {
  loader: "schedules.request",
  action: "schedules.request",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with schedules.request (a stylist linked to one of the salon's
// stylists: their own month only, ?month=); anyone else and another salon's id, the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return ownSchedulePage(ctx.db, access, request, new Date());
}

// Guard: the same; the stylist asks for a change of their own schedule or withdraws their own
// pending request (their staffId from the access, never from the form).
export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  if (!access.staffId) throw notFound(request);
  const result = await submitOwnRequestForm(ctx.db, access, await request.formData(), new Date());
  if (result.ok) {
    return redirect(`/owner/salons/${access.salon.id}/schedules/mine?done=${result.done}`);
  }
  return data(result, { status: result.status });
}

export default function OwnStylistSchedule({ loaderData, actionData }: Route.ComponentProps) {
  return <SchedulePage data={loaderData} result={actionData} />;
}
