import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { webhookEventTypes } from "../../server/db/schema";
import { createAccountsApp, ORIGIN } from "../support/accounts";
import { openApiContract } from "../support/openapi-contract";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;
beforeAll(async () => {
  env = createAccountsApp(database);
});

/** Every operation of the booking API (issue 15, point 9), as the document must list it. */
const BOOKING_API_OPERATIONS = [
  "get /api/salons/{id}/availability",
  "get /api/salons/{id}/availability/stream",
  "get /api/salons/{id}/reviews",
  "post /api/holds",
  "post /api/bookings",
  "get /api/bookings",
  "get /api/bookings/{id}",
  "post /api/bookings/{id}/cancel",
  "get /api/favorites",
  "put /api/favorites/{salonId}",
  "delete /api/favorites/{salonId}",
];

describe("OpenAPI document and reference", () => {
  it("/api/openapi.json is a valid OpenAPI 3.1 document", async () => {
    const response = await env.app.request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(operations.sort()).toEqual(expect.arrayContaining(BOOKING_API_OPERATIONS));
    // Client generators name their functions after these: each present and unique.
    const operationIds = Object.values(
      doc.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds.every(Boolean)).toBe(true);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("documents the salons' webhooks, one per event, with the payload's version and the signature headers", async () => {
    const doc = await (await env.app.request("/api/openapi.json")).json();
    const webhooks = doc.webhooks as Record<
      string,
      {
        post: {
          parameters: { name: string; in: string }[];
          requestBody: {
            content: Record<string, { schema: { properties: Record<string, unknown> } }>;
          };
        };
      }
    >;
    expect(Object.keys(webhooks).sort()).toEqual([...webhookEventTypes].sort());
    for (const [type, item] of Object.entries(webhooks)) {
      const schema = item.post.requestBody.content["application/json"]?.schema;
      expect(schema?.properties.version, type).toMatchObject({ enum: [1] });
      expect(item.post.parameters.map((p) => `${p.in} ${p.name}`).sort(), type).toEqual([
        "header webhook-id",
        "header webhook-signature",
        "header webhook-timestamp",
      ]);
    }
  });

  it("leaves pages outside /api to their own caching", async () => {
    const page = await env.app.request("/");
    expect(page.headers.get("cache-control")).not.toBe("private, no-store");
  });

  it("/api/docs lists the document's operations as HTML without scripts", async () => {
    const doc = await (await env.app.request("/api/openapi.json")).json();
    const response = await env.app.request("/api/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).not.toContain("<script");
    for (const [path, item] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(item)) {
        expect(html).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
      }
    }
    for (const name of Object.keys(doc.components.schemas)) {
      expect(html).toContain(`id="schema-${name}"`);
    }
  });
});

describe("the document as a generated client reads it", () => {
  it("has JSON Schema patterns, not JavaScript regex literals with flags", async () => {
    const text = await (await env.app.request("/api/openapi.json")).text();
    const patterns = [...text.matchAll(/"pattern":"((?:[^"\\]|\\.)*)"/g)].map((m) =>
      JSON.parse(`"${m[1]}"`),
    );
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      expect(pattern).not.toMatch(/\/[dgimsuvy]*$/);
      expect(() => new RegExp(pattern, "u")).not.toThrow();
    }
  });

  it("the contract check sees an answer or a request the document does not describe", async () => {
    const contract = openApiContract(await (await env.app.request("/api/openapi.json")).json());
    const url = new URL(`${ORIGIN}/api/bookings/3F0C2A4E-8D51-4C1B-9A55-2F1E0B7D9C11`);
    const call = { method: "GET", url, contentType: "application/json" };
    expect(contract.check({ ...call, status: 418, answer: {} })).toEqual([
      expect.stringContaining("status not in the document"),
    ]);
    expect(contract.check({ ...call, status: 200, answer: { data: { id: 1 } } })).not.toEqual([]);
    expect(
      contract.check({
        ...call,
        status: 404,
        answer: { error: { code: "not_found", message: "x" } },
      }),
    ).toEqual([]);
    const hold = new URL(`${ORIGIN}/api/holds`);
    expect(
      contract.check({
        method: "POST",
        url: hold,
        body: { salonId: "x", menuIds: ["not-a-uuid"], start: "2026-12-01T10:00:00+09:00" },
        status: 201,
        contentType: "application/json",
        answer: {},
      }),
    ).toEqual(expect.arrayContaining([expect.stringContaining("accepted a request")]));
  });
});
