import { readFileSync } from "node:fs";
import { FAKE_ENDPOINT_PARAMS } from "../server/payments/fake/fake-stripe.server";
import {
  chargeObject,
  checkoutSessionObject,
  customerObject,
  eventObject,
  paymentIntentObject,
  paymentMethodObject,
  refundObject,
  setupIntentObject,
} from "../server/payments/fake/objects.server";

/**
 * `npx tsx scripts/stripe-openapi-check.ts path/to/spec3.json` (decision 0076):
 * checks the fake Stripe against a copy of Stripe's published OpenAPI
 * description (github.com/stripe/openapi, openapi/spec3.json or
 * spec3.sdk.json) — every endpoint it serves exists with that method, every
 * parameter it takes is one the endpoint has, and every object it builds
 * carries the fields the spec marks required. The suite checks the same
 * against the installed `stripe` package (stripe-openapi.test.ts); this is
 * for a look at the spec itself, e.g. before moving to a new API version.
 * Prints the problems; exits 1 when there are any.
 */
type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};
type Spec = {
  info?: { version?: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
  };
};

const file = process.argv[2];
if (!file) {
  console.error("usage: npx tsx scripts/stripe-openapi-check.ts path/to/spec3.json");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(file, "utf8")) as Spec;
const problems: string[] = [];

// The spec names path parameters ({session}, {intent}); the fake writes {id}.
const specPaths = new Map(
  Object.keys(spec.paths).map((path) => [path.replace(/\{[^}]+\}/g, "{id}"), path]),
);
for (const [endpoint, params] of Object.entries(FAKE_ENDPOINT_PARAMS)) {
  const [method = "", template = ""] = endpoint.split(" ");
  const operation = spec.paths[specPaths.get(template) ?? ""]?.[method.toLowerCase()];
  if (!operation) {
    problems.push(`${endpoint}: no such operation in the spec`);
    continue;
  }
  const known = new Set([
    ...(operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
    ...Object.keys(
      operation.requestBody?.content?.["application/x-www-form-urlencoded"]?.schema?.properties ??
        {},
    ),
  ]);
  for (const param of params) {
    if (!known.has(param)) problems.push(`${endpoint}: the spec has no parameter ${param}`);
  }
}

const at = 1_800_000_000;
const refund = refundObject({
  id: "re_1",
  created: at,
  amount: 100,
  currency: "jpy",
  charge: "ch_1",
  customer: null,
  paymentIntent: "pi_1",
  reason: null,
  metadata: {},
});
const samples = [
  customerObject({ id: "cus_1", created: at, email: null, name: null, metadata: {} }),
  checkoutSessionObject({
    id: "cs_1",
    created: at,
    expiresAt: at + 3600,
    mode: "payment",
    amount: 1000,
    currency: "jpy",
    customer: "cus_1",
    clientReferenceId: null,
    successUrl: "http://localhost/ok",
    cancelUrl: null,
    locale: "ja",
    metadata: {},
    setupIntent: null,
    url: "http://localhost/c/pay/cs_1",
  }),
  paymentIntentObject({
    id: "pi_1",
    created: at,
    amount: 1000,
    currency: "jpy",
    customer: null,
    description: null,
    metadata: {},
    paymentMethod: null,
    setupFutureUsage: null,
  }),
  setupIntentObject({ id: "seti_1", created: at, customer: null, description: null, metadata: {} }),
  paymentMethodObject({
    id: "pm_1",
    created: at,
    brand: "visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2030,
  }),
  chargeObject({
    id: "ch_1",
    created: at,
    amount: 1000,
    currency: "jpy",
    customer: null,
    description: null,
    metadata: {},
    paymentIntent: "pi_1",
    paymentMethod: "pm_1",
  }),
  refund,
  eventObject({
    id: "evt_1",
    created: at,
    apiVersion: "x",
    type: "refund.created",
    object: refund,
    pendingWebhooks: 1,
    request: { id: null, idempotency_key: null },
  }),
];
for (const object of samples) {
  const schema = spec.components.schemas[object.object];
  if (!schema) {
    problems.push(`${object.object}: no such schema in the spec`);
    continue;
  }
  for (const field of schema.required ?? []) {
    if (!(field in object))
      problems.push(`${object.object}: the fake leaves out required ${field}`);
  }
}

console.log(
  `Stripe OpenAPI ${spec.info?.version ?? "(no version)"}: ${Object.keys(FAKE_ENDPOINT_PARAMS).length} endpoints, ${samples.length} object types checked`,
);
for (const problem of problems) console.log(`  ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
