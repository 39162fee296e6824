import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { schedulesPage, submitScheduleForm } from "../../server/owner/schedules.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { SchedulePage } from "../components/owner/schedule-page";
import type { Route } from "./+types/owner.salons.$id.schedules";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `勤務表 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "schedules.manage",
  action: "schedules.manage",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with schedules.manage (owner, manager, admin); a guest signs in and
// comes back; anyone else and another salon's id, the 404 screen. ?staff=&month= pick the month.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return schedulesPage(ctx.db, access, request, new Date());
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const result = await submitScheduleForm(ctx.db, access, await request.formData(), new Date());
  // Applied with bookings left outside working time: this page lists them (no redirect).
  if (result.ok && result.stranded.length === 0) {
    const query = new URLSearchParams({ ...result.query, done: result.done });
    return redirect(`/owner/salons/${access.salon.id}/schedules?${query}`);
  }
  return data(result, { status: result.ok ? 200 : result.status });
}

export default function OwnerSchedules({ loaderData, actionData }: Route.ComponentProps) {
  return <SchedulePage data={loaderData} result={actionData} />;
}
