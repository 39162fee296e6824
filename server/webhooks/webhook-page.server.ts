import type { Database } from "../db/client";
import { webhookEventTypes } from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointFormErrors,
  type EndpointFormValues,
  endpointValuesOf,
  listWebhookEndpoints,
  MAX_ENDPOINTS_PER_SALON,
  MAX_REPLAYS_PER_HOUR,
  replayWebhookDelivery,
  rotateWebhookSecret,
  setWebhookEndpointEnabled,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookDeliveryLog,
  webhookEventLabels,
} from "./endpoints.server";

/**
 * 設定 → Webhook (/owner/salons/{id}/settings/webhooks, decision 0086): what
 * the page reads and what its forms do, for the route module's loader and
 * action.
 */

const webhookSaved = ["disabled", "enabled", "deleted", "replayed"] as const;
export type WebhookSaved = (typeof webhookSaved)[number];

export type WebhookSettingsPageData = {
  salon: SalonAccess["salon"];
  endpoints: WebhookEndpointView[];
  events: { type: string; label: string }[];
  maxEndpoints: number;
  maxReplaysPerHour: number;
  /** The endpoint whose delivery log is open (?log=), and its deliveries. */
  log: { endpoint: WebhookEndpointView; deliveries: WebhookDeliveryView[] } | null;
  saved: WebhookSaved | null;
};

export async function webhookSettingsPage(
  db: Database,
  access: SalonAccess,
  url: URL,
  now: Date,
): Promise<WebhookSettingsPageData> {
  const endpoints = await listWebhookEndpoints(db, access.salon.id, now);
  const logId = url.searchParams.get("log");
  const logEndpoint = logId ? endpoints.find((endpoint) => endpoint.id === logId) : undefined;
  const deliveries = logEndpoint
    ? await webhookDeliveryLog(db, access.salon.id, logEndpoint.id)
    : null;
  const saved = url.searchParams.get("saved");
  return {
    salon: access.salon,
    endpoints,
    events: webhookEventTypes.map((type) => ({ type, label: webhookEventLabels[type] })),
    maxEndpoints: MAX_ENDPOINTS_PER_SALON,
    maxReplaysPerHour: MAX_REPLAYS_PER_HOUR,
    log: logEndpoint && deliveries ? { endpoint: logEndpoint, deliveries } : null,
    saved: webhookSaved.find((value) => value === saved) ?? null,
  };
}

export type WebhookFormOutcome =
  /** A secret to show once: the endpoint just added, or its secret just rotated. */
  | {
      kind: "secret";
      action: "created" | "rotated";
      endpointId: string;
      url: string;
      secret: string;
    }
  | { kind: "saved"; saved: WebhookSaved; log?: string }
  | {
      kind: "error";
      /** Which form: the add form (its fields kept), or a button on an endpoint or delivery. */
      form: "create" | "endpoint";
      status: 400 | 404 | 409 | 429;
      errors: EndpointFormErrors;
      values: EndpointFormValues;
    };

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function submitWebhookForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  { allowLoopback, now }: { allowLoopback: boolean; now: Date },
): Promise<WebhookFormOutcome> {
  const intent = field(form, "intent");
  const endpointId = field(form, "endpoint");
  const empty: EndpointFormValues = { url: "", events: [] };
  const failed = (result: { status: 400 | 404 | 409 | 429; errors: EndpointFormErrors }) => ({
    kind: "error" as const,
    form: "endpoint" as const,
    status: result.status,
    errors: result.errors,
    values: empty,
  });
  switch (intent) {
    case "create": {
      const values = endpointValuesOf(form);
      const result = await createWebhookEndpoint(db, access, values, { allowLoopback, now });
      if (!result.ok) {
        return {
          kind: "error",
          form: "create",
          status: result.status,
          errors: result.errors,
          values,
        };
      }
      return {
        kind: "secret",
        action: "created",
        endpointId: result.endpoint.id,
        url: result.endpoint.url,
        secret: result.secret,
      };
    }
    case "rotate": {
      const result = await rotateWebhookSecret(db, access, endpointId, now);
      if (!result.ok) return failed(result);
      const [endpoint] = (await listWebhookEndpoints(db, access.salon.id, now)).filter(
        (e) => e.id === endpointId,
      );
      return {
        kind: "secret",
        action: "rotated",
        endpointId,
        url: endpoint?.url ?? "",
        secret: result.secret,
      };
    }
    case "disable":
    case "enable": {
      const result = await setWebhookEndpointEnabled(
        db,
        access,
        endpointId,
        intent === "enable",
        now,
      );
      if (!result.ok) return failed(result);
      return { kind: "saved", saved: intent === "enable" ? "enabled" : "disabled" };
    }
    case "delete": {
      const result = await deleteWebhookEndpoint(db, access, endpointId, now);
      if (!result.ok) return failed(result);
      return { kind: "saved", saved: "deleted" };
    }
    case "replay": {
      const result = await replayWebhookDelivery(db, access, field(form, "delivery"), now);
      if (!result.ok) return failed(result);
      return { kind: "saved", saved: "replayed", log: endpointId };
    }
    default:
      return failed({ status: 400, errors: { form: "操作を選んでください。" } });
  }
}
