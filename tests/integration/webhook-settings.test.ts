import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as webhooksRoute from "../../app/routes/owner.salons.$id.settings.webhooks";
import { auditLog, salonMembers, salonOwners, webhookEndpoints } from "../../server/db/schema";
import { setRole } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * 設定 → Webhook (decision 0086) through its route module: the owner and a
 * manager add, rotate, stop and delete endpoints, the secret is in the answer
 * once and never in the page again; reception, a stylist and another salon's
 * owner are refused; bad input is a 4xx with Japanese messages.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
const path = (salonId: string) => `/owner/salons/${salonId}/settings/webhooks`;

beforeAll(() => {
  env = createRouteApp(
    database,
    [{ path: "/owner/salons/:id/settings/webhooks", module: webhooksRoute }],
    { WEBHOOK_ALLOW_LOOPBACK: "off" },
  );
});

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

async function staffOf(
  salonId: string,
  role: "manager" | "reception" | "stylist",
  staffId?: string,
) {
  const member = await signedInMember(database, env, role);
  await database.db
    .insert(salonMembers)
    .values({ salonId, userId: member.userId, role, staffId: role === "stylist" ? staffId : null });
  return member;
}

type Page = {
  loaderData: {
    endpoints: { id: string; url: string; secretHint: string; disabledAt: string | null }[];
  };
  actionData:
    | { kind: "secret"; secret: string; endpointId: string }
    | { kind: "error"; errors: Record<string, string> }
    | null;
};

describe("設定 → Webhook", () => {
  it("adds an endpoint for the owner, shows its secret once, rotates, stops and deletes it, audited", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const added = await owner.b.request(
      path(salon.id),
      postForm({
        intent: "create",
        url: "https://hooks.example.com/salon",
        events: ["booking.created", "review.posted"],
      }),
    );
    expect(added.status).toBe(200);
    const answer = (await added.json()) as Page;
    if (answer.actionData?.kind !== "secret") throw new Error("no secret");
    const { secret, endpointId } = answer.actionData;
    expect(secret).toMatch(/^whsec_/);
    // The page never shows it again.
    const page = await owner.b.request(path(salon.id));
    const text = await page.text();
    expect(text).not.toContain(secret);
    const listed = JSON.parse(text) as Page;
    expect(listed.loaderData.endpoints).toMatchObject([
      {
        id: endpointId,
        url: "https://hooks.example.com/salon",
        secretHint: `${secret.slice(0, 10)}…`,
      },
    ]);

    const rotated = (await (
      await owner.b.request(path(salon.id), postForm({ intent: "rotate", endpoint: endpointId }))
    ).json()) as Page;
    expect(rotated.actionData).toMatchObject({ kind: "secret" });
    if (rotated.actionData?.kind === "secret") expect(rotated.actionData.secret).not.toBe(secret);

    const stopped = await owner.b.request(
      path(salon.id),
      postForm({ intent: "disable", endpoint: endpointId }),
    );
    expect(stopped.status).toBe(302);
    expect(stopped.headers.get("location")).toBe(`${path(salon.id)}?saved=disabled`);
    const [row] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    expect(row?.disabledReason).toBe("manual");

    const deleted = await owner.b.request(
      path(salon.id),
      postForm({ intent: "delete", endpoint: endpointId }),
    );
    expect(deleted.status).toBe(302);
    expect(
      await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.salonId, salon.id)),
    ).toEqual([]);
    const audit = await database.db
      .select({ action: auditLog.action, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      "webhook.create",
      "webhook.delete",
      "webhook.disable",
      "webhook.rotate",
    ]);
    // The audit keeps no secret.
    expect(JSON.stringify(audit)).not.toContain(secret.slice(10));
  });

  it("answers bad input with a 4xx and Japanese messages", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    for (const [fields, field] of [
      [{ intent: "create", url: "http://hooks.example.com/x", events: "booking.created" }, "url"],
      [
        { intent: "create", url: "https://169.254.169.254/latest", events: "booking.created" },
        "url",
      ],
      // Loopback is refused where the setting is off (as in production).
      [{ intent: "create", url: "http://127.0.0.1:9/x", events: "booking.created" }, "url"],
      [
        { intent: "create", url: "https://hooks.example.com/x", events: "booking.everything" },
        "events",
      ],
      [{ intent: "create", url: "https://hooks.example.com/x" }, "events"],
      [{ intent: "create", url: "%00<script>", events: "booking.created" }, "url"],
      [{ intent: "rotate", endpoint: "not-a-uuid" }, "form"],
      [{ intent: "replay", delivery: "00000000-0000-4000-8000-000000000000" }, "form"],
      [{ intent: "explode" }, "form"],
    ] as const) {
      const response = await owner.b.request(
        path(salon.id),
        postForm(fields as Record<string, string>),
      );
      expect(response.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(fields)).toBeLessThan(500);
      const body = (await response.json()) as Page;
      if (body.actionData?.kind !== "error")
        throw new Error(`no error for ${JSON.stringify(fields)}`);
      expect(body.actionData.errors[field], JSON.stringify(fields)).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
    expect(
      await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.salonId, salon.id)),
    ).toEqual([]);
  });

  it("lets a manager in, and refuses reception, a stylist and another salon's owner", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const manager = await staffOf(salon.id, "manager");
    const reception = await staffOf(salon.id, "reception");
    const stylist = await staffOf(salon.id, "stylist", stylists[0]?.id);
    const otherOwner = await ownerOf(other.salon.id);
    expect((await manager.b.request(path(salon.id))).status).toBe(200);
    const made = await manager.b.request(
      path(salon.id),
      postForm({ intent: "create", url: "https://hooks.example.com/m", events: "booking.created" }),
    );
    expect(made.status).toBe(200);
    const [endpoint] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.salonId, salon.id));
    if (!endpoint) throw new Error("no endpoint");
    for (const refused of [reception, stylist, otherOwner]) {
      expect((await refused.b.request(path(salon.id))).status).toBe(404);
      for (const intent of ["create", "rotate", "disable", "delete"]) {
        const response = await refused.b.request(
          path(salon.id),
          postForm({
            intent,
            endpoint: endpoint.id,
            url: "https://evil.example.com/",
            events: "booking.created",
          }),
        );
        expect(response.status).toBe(404);
      }
    }
    // Another salon's owner on their own page cannot reach this salon's endpoint either.
    const foreign = await otherOwner.b.request(
      path(other.salon.id),
      postForm({ intent: "rotate", endpoint: endpoint.id }),
    );
    expect(foreign.status).toBe(404);
    const [after] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(after).toMatchObject({ secret: endpoint.secret, disabledAt: null });
    expect(
      await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.salonId, salon.id)),
    ).toHaveLength(1);
  });
});
