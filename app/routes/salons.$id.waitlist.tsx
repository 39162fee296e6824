import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { requireLogin } from "../../server/accounts/guards";
import { clientIp } from "../../server/accounts/request-info";
import { bookingLimitsFrom } from "../../server/bookings/booking-rate-limit";
import { findFlowSalon } from "../../server/bookings/pages/booking-flow.server";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { loadWaitlistJoinPage, submitWaitlistJoin } from "../../server/waitlist/join-page.server";
import { WaitlistJoin } from "../components/bookings/waitlist-join";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.waitlist";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageMeta({
    title: `キャンセル待ちに登録（${loaderData?.page.salon.name ?? "サロン"}）`,
    description: "満席の日のキャンセル待ちに登録",
    path: loaderData ? `/salons/${loaderData.page.salon.slug}/waitlist` : "/",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2 style): is-login; a guest signs in and comes back to the same choice.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  await requireLogin(request, ctx);
  const page = await loadWaitlistJoinPage(ctx.db, {
    salon,
    search: new URL(request.url).searchParams,
    now: new Date(),
  });
  return data({ page }, { status: page.problems.length > 0 ? 400 : 200 });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  const user = await requireLogin(request, ctx);
  const outcome = await submitWaitlistJoin(ctx.db, {
    salon,
    search: new URL(request.url).searchParams,
    form: await request.formData(),
    userId: user.id,
    now: new Date(),
    // The booking limits' numbers, in the waiting list's own counters.
    limits: bookingLimitsFrom(ctx.config, ctx.accounts.limits.store),
    ip: clientIp(request),
  });
  if (outcome.kind === "redirect") return redirect(outcome.to);
  return data({ errors: outcome.errors, values: outcome.values }, { status: outcome.status });
}

export default function SalonWaitlist({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitlistJoin page={loaderData.page} result={actionData} />;
}
