import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as settingsRoute from "../../app/routes/owner.salons.$id.settings";
import { salonNoticeRecipients } from "../../server/bookings/booking-jobs.server";
import { auditLog, salonBookingSettings, salonOwners } from "../../server/db/schema";
import { setRole } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * /owner/salons/{id}/settings (issue 28, point 7): the salon chooses where
 * its booking notices go, or turns them off; every change is audited.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [{ path: "/owner/salons/:id/settings", module: settingsRoute }]);
});

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

type Answer = {
  loaderData: {
    settings: { enabled: boolean; email: string };
    ownerEmails: string[];
    saved: "notice" | "rules" | null;
  };
  actionData: { errors: { email?: string }; values: { enabled: boolean; email: string } } | null;
};

describe("the salon's notice settings", () => {
  it("starts on, to the owners; saves an address and turns the mails off, each audited", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    const first = (await (await owner.b.request(path)).json()) as Answer;
    expect(first.loaderData.settings).toEqual({ enabled: true, email: "" });
    expect(first.loaderData.ownerEmails).toEqual([owner.email]);
    expect(await salonNoticeRecipients(database.db, salon.id, [owner.email])).toEqual([
      owner.email,
    ]);

    const saved = await owner.b.request(
      path,
      postForm({ enabled: "on", email: " Yoyaku@Salon.Example.jp " }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`${path}?saved=1`);
    expect(await salonNoticeRecipients(database.db, salon.id, [owner.email])).toEqual([
      "yoyaku@salon.example.jp",
    ]);
    const page = (await (await owner.b.request(`${path}?saved=1`)).json()) as Answer;
    expect(page.loaderData).toMatchObject({
      saved: "notice",
      settings: { enabled: true, email: "yoyaku@salon.example.jp" },
    });

    // Unticked: no notices at all.
    expect(
      (await owner.b.request(path, postForm({ email: "yoyaku@salon.example.jp" }))).status,
    ).toBe(302);
    expect(await salonNoticeRecipients(database.db, salon.id, [owner.email])).toEqual([]);

    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(auditLog.createdAt);
    expect(entries.map((e) => [e.action, e.actorUserId, e.after])).toEqual([
      ["salon.notice_settings", owner.userId, { email: "yoyaku@salon.example.jp" }],
      ["salon.notice_settings", owner.userId, { enabled: false }],
    ]);
  });

  it("refuses a malformed address with a Japanese message, keeping what was typed and saving nothing", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    for (const email of ["not-an-address", `${"a".repeat(300)}@example.jp`, "a@b@c"]) {
      const refused = await owner.b.request(path, postForm({ enabled: "on", email }));
      expect(refused.status, email).toBe(400);
      const body = (await refused.json()) as Answer;
      expect(body.actionData?.errors.email, email).toMatch(/メールアドレス/);
      expect(body.actionData?.values.email, email).toBe(email.slice(0, 300));
    }
    const rows = await database.db
      .select()
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, salon.id));
    expect(rows).toEqual([]);
  });

  it("is another salon's owner's 404, and a guest signs in first", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const stranger = await ownerOf(other.salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    expect((await stranger.b.request(path)).status).toBe(404);
    expect((await stranger.b.request(path, postForm({ email: "x@example.jp" }))).status).toBe(404);
    const rows = await database.db
      .select()
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, salon.id));
    expect(rows).toEqual([]);
    const guest = await env.app.request(`http://localhost:3000${path}`, { redirect: "manual" });
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
  });
});
