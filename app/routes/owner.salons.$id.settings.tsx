import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { saveBookingRules } from "../../server/owner/booking-settings.server";
import {
  noticeSettingsPage,
  submitNoticeSettings,
} from "../../server/owner/notice-settings.server";
import { savePaymentPolicy } from "../../server/owner/payment-policy.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { NoticeSettingsPage } from "../components/owner/notice-settings";
import type { Route } from "./+types/owner.salons.$id.settings";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `設定 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "settings.manage",
  action: "settings.manage",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with settings.manage (a guest signs in and comes back; anyone else
// and another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return noticeSettingsPage(ctx.db, access, new URL(request.url));
}

/**
 * Three forms: the booking rules (intent=booking-rules), the payment and cancellation
 * policy (intent=payment-policy) and the notice mails (the rest).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const form = await request.formData();
  const path = `/owner/salons/${access.salon.id}/settings`;
  if (form.get("intent") === "booking-rules") {
    const saved = await saveBookingRules(ctx.db, access, form, new Date());
    // Applied with bookings left outside working time: the page lists them to move or cancel.
    if (saved.ok && saved.stranded.length > 0) {
      return { kind: "stranded" as const, stranded: saved.stranded };
    }
    if (saved.ok) return redirect(`${path}?saved=rules`);
    return data(
      {
        kind: "rules" as const,
        errors: saved.errors,
        form: saved.form,
        stranding: saved.stranding,
      },
      { status: saved.status },
    );
  }
  if (form.get("intent") === "payment-policy") {
    const saved = await savePaymentPolicy(ctx.db, access, form, new Date());
    if (saved.ok) return redirect(`${path}?saved=policy`);
    return data(
      { kind: "policy" as const, errors: saved.errors, values: saved.values },
      { status: 400 },
    );
  }
  const outcome = await submitNoticeSettings(ctx.db, access, form, new Date());
  if (outcome.ok) return redirect(`${path}?saved=1`);
  return data(
    { kind: "notice" as const, errors: outcome.errors, values: outcome.values },
    { status: 400 },
  );
}

export default function OwnerSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <NoticeSettingsPage data={loaderData} result={actionData} />;
}
