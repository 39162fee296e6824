import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCurrentUser } from "../../server/accounts/current-user";
import { ownerInviteSchema } from "../../server/admin/admin.schema";
import { adminDashboard, dayAndWeek } from "../../server/admin/dashboard";
import { listOwners, setOwnerSuspended, unlinkSalon } from "../../server/admin/owners";
import { listAudit } from "../../server/audit/audit";
import {
  auditLog,
  type bookings,
  ownerInvitations,
  salonOwners,
  sessions,
  users,
} from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import {
  acceptInvitation,
  findInvitation,
  INVITATION_TTL_MS,
  inviteOwner,
} from "../../server/invitations/invitations.server";
import { browser, createAccountsApp, outboxFor, uniqueEmail } from "../support/accounts";
import { buildBooking, buildSalon, buildStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

// Every admin action on owners: the change, its audit entry in the same
// transaction, and nothing at all when the change fails.
const database = withTestDatabase();
let setup: ReturnType<typeof createAccountsApp>;
let admin: { id: string };
const NOW = new Date("2026-11-23T03:00:00Z"); // Monday 12:00 in Tokyo

beforeAll(async () => {
  setup = createAccountsApp(database);
  admin = await buildUser(database.db, { role: "admin", email: uniqueEmail("admin") });
});
afterAll(async () => {
  await setup?.accounts.close();
});

const db = () => database.db;
const hash = async (password: string) =>
  (await setup.accounts.auth.$context).password.hash(password);

function input(overrides: Partial<Record<string, unknown>> = {}) {
  return ownerInviteSchema.parse({
    name: "佐藤 美咲",
    nameKana: "さとう みさき",
    email: uniqueEmail("owner"),
    phone: "090-1111-2222",
    salonIds: [],
    ...overrides,
  });
}

async function invite(overrides: Partial<Record<string, unknown>> = {}, now = NOW) {
  const data = input(overrides);
  const result = await inviteOwner(
    db(),
    setup.accounts.mailer,
    data,
    admin,
    now,
    setup.config.PUBLIC_URL,
  );
  const [mail] = (await outboxFor(db(), data.email)).slice(-1);
  const token = mail
    ? (new URL(mail.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token") ??
      "")
    : "";
  return { ...result, data, mail, token };
}

const auditFor = (targetId: string) =>
  db().select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.createdAt);

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError)
      return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a DomainError");
}

async function signIn(email: string, password: string) {
  const b = browser(setup.app);
  const response = await b.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return { b, status: response.status };
}

describe("inviting a new owner", () => {
  it("creates the owner with the salons, audits it and mails a link that sets the password once", async () => {
    const salon = await buildSalon(db());
    const { data, mail, token, kind } = await invite({ salonIds: [salon.id] });
    expect(kind).toBe("new_owner");
    const [owner] = await db().select().from(users).where(eq(users.email, data.email));
    expect(owner).toMatchObject({ role: "owner", emailVerified: false, name: "佐藤 美咲" });
    if (!owner) throw new Error("no owner");
    expect(
      await db().select().from(salonOwners).where(eq(salonOwners.userId, owner.id)),
    ).toHaveLength(1);

    expect(mail?.subject).toContain("サロンオーナー");
    expect(mail?.text).toContain("72時間");
    expect(token.length).toBeGreaterThan(30);
    // Only a hash of the token is stored.
    const [stored] = await db()
      .select()
      .from(ownerInvitations)
      .where(eq(ownerInvitations.userId, owner.id));
    expect(stored?.tokenHash).not.toContain(token);
    expect(stored?.expiresAt.getTime()).toBe(NOW.getTime() + INVITATION_TTL_MS);

    const [entry] = await auditFor(owner.id);
    expect(entry).toMatchObject({
      actorUserId: admin.id,
      action: "owner.invite",
      targetType: "user",
      salonId: salon.id,
      before: null,
    });
    expect(entry?.after).toMatchObject({ email: data.email, role: "owner", salonIds: [salon.id] });

    // No password yet: signing in is impossible until the link is used.
    expect((await signIn(data.email, "owner-pass-1")).status).not.toBe(200);
    expect(await findInvitation(db(), token, NOW)).toMatchObject({
      kind: "new_owner",
      email: data.email,
    });
    await acceptInvitation(db(), hash, { token, password: "owner-pass-1" }, NOW);
    const signedIn = await signIn(data.email, "owner-pass-1");
    expect(signedIn.status).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(after?.emailVerified).toBe(true);
    expect(after?.lastSignInAt).not.toBeNull();
    expect((await auditFor(owner.id)).map((e) => e.action)).toEqual([
      "owner.invite",
      "owner.invitation_accept",
    ]);

    // Single use.
    expect(await findInvitation(db(), token, NOW)).toBeNull();
    expect(
      await failure(acceptInvitation(db(), hash, { token, password: "other-pass-2" }, NOW)),
    ).toMatchObject({
      code: "invitation_invalid",
      status: 410,
    });
    expect((await signIn(data.email, "other-pass-2")).status).not.toBe(200);
  });

  it("refuses a link after 72 hours", async () => {
    const { token } = await invite();
    const late = new Date(NOW.getTime() + INVITATION_TTL_MS + 1000);
    expect(
      await findInvitation(db(), token, new Date(NOW.getTime() + INVITATION_TTL_MS - 1000)),
    ).not.toBeNull();
    expect(await findInvitation(db(), token, late)).toBeNull();
    expect(
      await failure(acceptInvitation(db(), hash, { token, password: "owner-pass-1" }, late)),
    ).toMatchObject({
      code: "invitation_invalid",
    });
    expect(
      await failure(
        acceptInvitation(db(), hash, { token: "made-up", password: "owner-pass-1" }, NOW),
      ),
    ).toMatchObject({
      code: "invitation_invalid",
    });
  });

  it("writes nothing — account, invitation, audit entry or mail — when a salon is gone", async () => {
    const salon = await buildSalon(db());
    const missing = "00000000-0000-4000-8000-000000000000";
    const data = input({ salonIds: [salon.id, missing] });
    const before = (await db().select().from(auditLog)).length;
    expect(
      await failure(
        inviteOwner(db(), setup.accounts.mailer, data, admin, NOW, setup.config.PUBLIC_URL),
      ),
    ).toMatchObject({ code: "salon_not_found", status: 400 });
    expect(await db().select().from(users).where(eq(users.email, data.email))).toHaveLength(0);
    expect((await db().select().from(auditLog)).length).toBe(before);
    expect(
      await db().select().from(salonOwners).where(eq(salonOwners.salonId, salon.id)),
    ).toHaveLength(0);
    expect(await outboxFor(db(), data.email)).toHaveLength(0);
  });

  it("refuses an administrator's address", async () => {
    const other = await buildUser(db(), { role: "admin", email: uniqueEmail("admin2") });
    expect(await failure(invite({ email: other.email }))).toMatchObject({
      code: "admin_address",
      status: 409,
    });
    expect(await auditFor(other.id)).toHaveLength(0);
  });
});

describe("inviting an existing user", () => {
  it("makes them an owner of the salons only once they confirm", async () => {
    const salon = await buildSalon(db());
    const user = await buildUser(db(), { email: uniqueEmail("member") });
    const { token, kind, mail } = await invite({ email: user.email, salonIds: [salon.id] });
    expect(kind).toBe("upgrade");
    expect(mail?.subject).toContain("確認");
    const [unchanged] = await db().select().from(users).where(eq(users.id, user.id));
    expect(unchanged?.role).toBe("user");
    expect(
      await db().select().from(salonOwners).where(eq(salonOwners.userId, user.id)),
    ).toHaveLength(0);

    expect(await findInvitation(db(), token, NOW)).toMatchObject({
      kind: "upgrade",
      salons: [{ id: salon.id }],
    });
    await acceptInvitation(db(), hash, { token }, NOW);
    const [upgraded] = await db().select().from(users).where(eq(users.id, user.id));
    expect(upgraded?.role).toBe("owner");
    expect(
      await db().select().from(salonOwners).where(eq(salonOwners.userId, user.id)),
    ).toHaveLength(1);
    const entries = await auditFor(user.id);
    expect(entries.map((e) => e.action)).toEqual(["owner.invite", "user.role_change"]);
    expect(entries[1]).toMatchObject({
      actorUserId: admin.id,
      salonId: salon.id,
      before: { role: "user" },
      after: expect.objectContaining({ role: "owner", confirmedBy: user.id }),
    });
  });
});

describe("managing owners", () => {
  async function ownerWithSalon() {
    const salon = await buildSalon(db());
    const { data, token } = await invite({ salonIds: [salon.id] });
    await acceptInvitation(db(), hash, { token, password: "owner-pass-1" }, NOW);
    const [owner] = await db().select().from(users).where(eq(users.email, data.email));
    if (!owner) throw new Error("no owner");
    return { owner, salon };
  }

  it("removes a salon from an owner, audited with the salon", async () => {
    const { owner, salon } = await ownerWithSalon();
    await unlinkSalon(db(), { userId: owner.id, salonId: salon.id }, admin, NOW);
    expect(
      await db()
        .select()
        .from(salonOwners)
        .where(and(eq(salonOwners.userId, owner.id), eq(salonOwners.salonId, salon.id))),
    ).toHaveLength(0);
    const entries = await auditFor(owner.id);
    expect(entries.at(-1)).toMatchObject({
      action: "owner.salon_unlink",
      salonId: salon.id,
      actorUserId: admin.id,
    });
    // Again: refused, and no second entry.
    expect(
      await failure(unlinkSalon(db(), { userId: owner.id, salonId: salon.id }, admin, NOW)),
    ).toMatchObject({
      status: 404,
    });
    expect(await auditFor(owner.id)).toHaveLength(entries.length);
  });

  it("suspends an owner: sessions end at once, sign-in is refused; reinstating lets them back", async () => {
    const { owner } = await ownerWithSalon();
    const { b, status } = await signIn(owner.email, "owner-pass-1");
    expect(status).toBe(200);
    const accounts = setup.accounts;
    expect(await getCurrentUser(b.toRequest("/"), { db: db(), accounts })).not.toBeNull();

    await setOwnerSuspended(db(), { userId: owner.id, suspended: true }, admin, NOW);
    expect(await db().select().from(sessions).where(eq(sessions.userId, owner.id))).toHaveLength(0);
    expect(await getCurrentUser(b.toRequest("/"), { db: db(), accounts })).toBeNull();
    expect((await signIn(owner.email, "owner-pass-1")).status).not.toBe(200);
    expect((await auditFor(owner.id)).at(-1)).toMatchObject({
      action: "owner.suspend",
      before: { banned: false },
      after: { banned: true },
    });

    await setOwnerSuspended(db(), { userId: owner.id, suspended: false }, admin, NOW);
    expect((await signIn(owner.email, "owner-pass-1")).status).toBe(200);
    expect((await auditFor(owner.id)).at(-1)?.action).toBe("owner.reinstate");
  });

  it("refuses to suspend someone who is not an owner, changing nothing", async () => {
    const user = await buildUser(db(), { email: uniqueEmail("plain") });
    expect(
      await failure(setOwnerSuspended(db(), { userId: user.id, suspended: true }, admin, NOW)),
    ).toMatchObject({
      status: 404,
    });
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row?.banned).toBe(false);
    expect(await auditFor(user.id)).toHaveLength(0);
  });
});

describe("the audit entry and the change are one transaction", () => {
  it("rolls each change back when its audit entry cannot be written", async () => {
    // An actor that is not a user: the audit insert fails on its foreign key,
    // after the change itself was made inside the same transaction.
    const ghost = { id: "no-such-admin" };
    const salon = await buildSalon(db());
    const { data, token } = await invite({ salonIds: [salon.id] });
    await acceptInvitation(db(), hash, { token, password: "owner-pass-1" }, NOW);
    const [owner] = await db().select().from(users).where(eq(users.email, data.email));
    if (!owner) throw new Error("no owner");
    const entries = (await auditFor(owner.id)).length;

    await expect(
      unlinkSalon(db(), { userId: owner.id, salonId: salon.id }, ghost, NOW),
    ).rejects.toThrow();
    expect(
      await db().select().from(salonOwners).where(eq(salonOwners.userId, owner.id)),
    ).toHaveLength(1);

    const { b } = await signIn(owner.email, "owner-pass-1");
    await expect(
      setOwnerSuspended(db(), { userId: owner.id, suspended: true }, ghost, NOW),
    ).rejects.toThrow();
    const [still] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(still?.banned).toBe(false);
    expect(
      await getCurrentUser(b.toRequest("/"), { db: db(), accounts: setup.accounts }),
    ).not.toBeNull();

    const fresh = input();
    await expect(
      inviteOwner(db(), setup.accounts.mailer, fresh, ghost, NOW, setup.config.PUBLIC_URL),
    ).rejects.toThrow();
    expect(await db().select().from(users).where(eq(users.email, fresh.email))).toHaveLength(0);
    expect(await outboxFor(db(), fresh.email)).toHaveLength(0);
    expect(await auditFor(owner.id)).toHaveLength(entries);
  });
});

describe("lists", () => {
  it("pages owners by 25 and finds them by name, kana or email", async () => {
    const marker = `page${Date.now().toString(36)}`;
    for (let i = 0; i < 26; i++) {
      await invite({ email: `${marker}-${i}@example.jp` });
    }
    const first = await listOwners(db(), { q: marker, page: 1 });
    expect(first.total).toBe(26);
    expect(first.owners).toHaveLength(25);
    expect(first.pageCount).toBe(2);
    const second = await listOwners(db(), { q: marker, page: 2 });
    expect(second.owners).toHaveLength(1);
    expect(second.owners[0]?.awaitingPassword).toBe(true);
    // A page past the end shows the last page.
    expect((await listOwners(db(), { q: marker, page: 99 })).page).toBe(2);

    await invite({
      name: "鈴木 一郎",
      nameKana: "スズキ イチロウ",
      email: `${marker}-kana@example.jp`,
    });
    expect(
      (await listOwners(db(), { q: "すずき いちろう", page: 1 })).owners.map((o) => o.email),
    ).toContain(`${marker}-kana@example.jp`);
    expect((await listOwners(db(), { q: "鈴木", page: 1 })).owners.map((o) => o.email)).toContain(
      `${marker}-kana@example.jp`,
    );
    // LIKE wildcards are matched as typed.
    expect((await listOwners(db(), { q: "%", page: 1 })).total).toBe(0);
  });

  it("filters the audit log by salon (also an invitation naming several) and by admin", async () => {
    const [a, b] = [await buildSalon(db()), await buildSalon(db())];
    const other = await buildUser(db(), { role: "admin", email: uniqueEmail("admin3") });
    const { data } = await invite({ salonIds: [a.id, b.id] });
    await inviteOwner(
      db(),
      setup.accounts.mailer,
      input({ salonIds: [b.id] }),
      other,
      NOW,
      setup.config.PUBLIC_URL,
    );
    const forA = await listAudit(db(), { salonId: a.id });
    expect(forA.map((e) => e.targetEmail)).toEqual([data.email]);
    expect(await listAudit(db(), { salonId: b.id })).toHaveLength(2);
    const byOther = await listAudit(db(), { actorUserId: other.id });
    expect(byOther).toHaveLength(1);
    expect(byOther[0]).toMatchObject({ actorEmail: other.email, label: "オーナー招待" });
  });
});

describe("admin home", () => {
  it("counts today's and this week's bookings in Tokyo time, and this week's cancellations", async () => {
    const week = dayAndWeek(NOW, "Asia/Tokyo");
    expect(week.today).toBe("2026-11-23");
    expect(week.weekStart.toISOString()).toBe("2026-11-22T15:00:00.000Z");
    const salon = await buildSalon(db());
    const stylist = await buildStaff(db(), salon.id);
    const guest = await buildUser(db(), { email: uniqueEmail("guest") });
    const at = (iso: string, extra: Partial<typeof bookings.$inferInsert> = {}) =>
      buildBooking(db(), {
        userId: guest.id,
        salonId: salon.id,
        staffId: stylist.id,
        startsAt: new Date(iso),
        endsAt: new Date(new Date(iso).getTime() + 3_600_000),
        totalPrice: 5000,
        ...extra,
      });
    const before = await adminDashboard(db(), NOW, "Asia/Tokyo");
    await at("2026-11-23T05:00:00Z"); // today 14:00
    await at("2026-11-25T05:00:00Z"); // Wednesday
    await at("2026-11-22T14:00:00Z"); // Sunday 23:00 in Tokyo: last week
    await at("2026-11-26T05:00:00Z", {
      status: "cancelled_by_user",
      cancelledAt: new Date("2026-11-23T01:00:00Z"),
      cancelledBy: "user",
    });
    // A hold (a visitor still in the form) is not a booking.
    await at("2026-11-23T07:00:00Z", {
      status: "held",
      holdExpiresAt: new Date("2026-11-23T03:10:00Z"),
    });
    const after = await adminDashboard(db(), NOW, "Asia/Tokyo");
    expect(after.counts.bookingsToday - before.counts.bookingsToday).toBe(1);
    expect(after.counts.bookingsThisWeek - before.counts.bookingsThisWeek).toBe(3);
    expect(after.counts.cancellationsThisWeek - before.counts.cancellationsThisWeek).toBe(1);
    expect(after.counts.publishedSalons).toBeGreaterThan(0);
    expect(after.counts.owners).toBeGreaterThan(0);
    expect(after.latestBookings[0]?.salonSlug).toBe(salon.slug);
    expect(after.latestSignUps.length).toBeGreaterThan(0);
  });
});
