import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { dayClosePage, submitDayCloseForm } from "../../server/owner/day-close.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { DayCloseView } from "../components/owner/day-close-page";
import type { Route } from "./+types/owner.salons.$id.day-close";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `日計 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** 日計: owner, manager, admin (decision 0082); the role matrix test checks it. */
export const capability = {
  loader: "dayclose.act",
  action: "dayclose.act",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with dayclose.act (a guest signs in; anyone else the 404 screen).
// A bad ?date=: 400 with the message, today's figures below it.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const page = await dayClosePage(ctx.db, access, new URL(request.url), new Date());
  return data(page, { status: page.dateError ? 400 : 200 });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitDayCloseForm(ctx.db, access, await request.formData(), new Date());
  if (outcome.ok) {
    const query = new URLSearchParams({ date: outcome.date, saved: outcome.saved });
    return redirect(`/owner/salons/${access.salon.id}/day-close?${query}`);
  }
  const { status, ok: _ok, ...result } = outcome;
  return data(result, { status });
}

export default function OwnerDayClose({ loaderData, actionData }: Route.ComponentProps) {
  return <DayCloseView data={loaderData} result={actionData} />;
}
