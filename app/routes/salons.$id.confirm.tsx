import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { getCurrentUser } from "../../server/accounts/current-user";
import { requireLogin } from "../../server/accounts/guards";
import { clientIp } from "../../server/accounts/request-info";
import { BookingNotFoundError } from "../../server/bookings/booking-errors";
import { bookingLimitsFrom } from "../../server/bookings/booking-rate-limit";
import {
  holdBrowserCookie,
  holdBrowserKey,
  holdBrowserKeyOrNew,
} from "../../server/bookings/hold-browser.server";
import { findFlowSalon, parseFlowParams } from "../../server/bookings/pages/booking-flow.server";
import {
  changeIdOf,
  loadChangeView,
  submitChangeForm,
} from "../../server/bookings/pages/change-page.server";
import { submitConfirmForm } from "../../server/bookings/pages/confirm-form.server";
import { loadConfirmView } from "../../server/bookings/pages/confirm-page.server";
import { flowAvailability } from "../../server/bookings/pages/flow-availability.server";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { BookingPage } from "../components/bookings/booking-page";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.confirm";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageMeta({
    title: loaderData
      ? `${"change" in loaderData.view || loaderData.view.kind === "change-refused" ? "予約変更" : "ご予約"}（${loaderData.salon.name}）`
      : "ご予約",
    description: "メニュー・スタッフ・日時を選んでネット予約",
    path: loaderData ? `/salons/${loaderData.salon.slug}/confirm` : "/",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2): none. Confirming needs a signed-in visitor (the action checks).
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  const search = new URL(request.url).searchParams;
  // 予約変更 (?change={bookingId}): only the booking's own customer, signed in.
  const changeId = changeIdOf(search);
  if (changeId === "invalid") throw notFound(request);
  if (changeId !== null) {
    const member = await requireLogin(request, ctx);
    const view = await loadChangeView(ctx.db, {
      salon,
      params: search,
      changeId,
      userId: member.id,
      now: new Date(),
    }).catch((error) => {
      throw error instanceof BookingNotFoundError ? notFound(request) : error;
    });
    if (view.kind === "redirect") throw redirect(view.to);
    const status = view.kind === "change-refused" ? 409 : view.problems.length > 0 ? 400 : 200;
    return data({ salon, view }, { status });
  }
  const query = parseFlowParams(search);
  const user = await getCurrentUser(request, ctx);
  const view = await loadConfirmView(
    ctx.db,
    { salon, query, user, browserKey: holdBrowserKey(request), now: new Date() },
    flowAvailability,
  );
  if (view.kind === "redirect") throw redirect(view.to);
  const shown =
    view.kind === "hold" ? { ...view, paymentProvider: ctx.payments?.name ?? null } : view;
  return data({ salon, view: shown }, { status: view.problems.length > 0 ? 400 : 200 });
}

// After a refused hold or confirm (4xx), the times must be fetched again: they changed.
export function shouldRevalidate() {
  return true;
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  const form = await request.formData();
  const changeId = changeIdOf(form);
  if (changeId === "invalid") throw notFound(request);
  if (changeId !== null) {
    const member = await requireLogin(request, ctx);
    const changed = await submitChangeForm(ctx.db, {
      salon,
      form,
      changeId,
      userId: member.id,
      now: new Date(),
      limits: bookingLimitsFrom(ctx.config, ctx.accounts.limits.store),
      ip: clientIp(request),
    });
    if (changed.kind === "redirect") return redirect(changed.to);
    return data({ error: changed.error, draft: changed.draft }, { status: changed.status });
  }
  // Only a signed-in visitor confirms; a guest signs in and comes back to this hold.
  const user =
    form.get("intent") === "confirm"
      ? await requireLogin(request, ctx)
      : await getCurrentUser(request, ctx);
  const outcome = await submitConfirmForm(ctx.db, {
    salon,
    form,
    user,
    now: new Date(),
    // The same per-address and per-account limits as the booking API (and the same counters).
    limits: bookingLimitsFrom(ctx.config, ctx.accounts.limits.store),
    ip: clientIp(request),
    browserKey: holdBrowserKeyOrNew(request),
    payments: ctx.payments,
    origin: ctx.config.PUBLIC_URL,
    confirmPath: confirmPathOf(request),
  });
  if (outcome.kind === "redirect") {
    const secure = ctx.config.PUBLIC_URL.startsWith("https:");
    return redirect(
      outcome.to,
      outcome.holdBrowserKey
        ? { headers: { "Set-Cookie": holdBrowserCookie(outcome.holdBrowserKey, secure) } }
        : undefined,
    );
  }
  if (outcome.kind === "refused") {
    return data({ error: outcome.error, draft: outcome.draft }, { status: outcome.status });
  }
  return data({ errors: outcome.errors, values: outcome.values }, { status: outcome.status });
}

/** This page's path and query, without the data request's suffix: where the payment page returns on 戻る. */
function confirmPathOf(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  return `${url.pathname.replace(/\.data$/, "")}${url.search}`;
}

export default function SalonConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return <BookingPage salon={loaderData.salon} view={loaderData.view} actionData={actionData} />;
}
