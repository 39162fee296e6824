import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { submitWebhookForm, webhookSettingsPage } from "../../server/webhooks/webhook-page.server";
import { WebhookSettingsPage } from "../components/owner/webhook-settings";
import type { Route } from "./+types/owner.salons.$id.settings.webhooks";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Webhook | 設定 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** The page and its forms: the salon's webhooks (owner, manager, admin; decision 0086). */
export const capability = {
  loader: "webhooks.manage",
  action: "webhooks.manage",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with webhooks.manage (a guest signs in and comes back; anyone else
// and another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return webhookSettingsPage(ctx.db, access, new URL(request.url), new Date());
}

/** Add (the secret shown once in the answer), rotate, stop, restart, delete, replay. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const form = await request.formData();
  const outcome = await submitWebhookForm(ctx.db, access, form, {
    allowLoopback: ctx.config.WEBHOOK_ALLOW_LOOPBACK === "on",
    now: new Date(),
  });
  const path = `/owner/salons/${access.salon.id}/settings/webhooks`;
  if (outcome.kind === "saved") {
    const log = outcome.log ? `&log=${encodeURIComponent(outcome.log)}` : "";
    return redirect(`${path}?saved=${outcome.saved}${log}`);
  }
  if (outcome.kind === "secret") return outcome;
  return data(outcome, { status: outcome.status });
}

export default function OwnerWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  return <WebhookSettingsPage data={loaderData} result={actionData} />;
}
