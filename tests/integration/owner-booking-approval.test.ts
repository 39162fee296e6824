import { and, asc, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { OwnerToday } from "../../app/components/owner/owner-today";
import * as historyRoute from "../../app/routes/account.history";
import * as detailRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import * as icsRoute from "../../app/routes/salons.$id.confirm.thanks.ics";
import { toLocal } from "../../common/local-time";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import {
  bookingEvents,
  bookings,
  jobs,
  mailOutbox,
  salonBookingSettings,
  salonOwners,
  users,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import {
  approveBooking,
  BookingActionRefusedError,
  BookingVersionConflictError,
  refuseBooking,
} from "../../server/owner/booking-actions.server";
import type { BookingDetailPageData } from "../../server/owner/booking-detail-page.server";
import { buildLedger, type LedgerDay } from "../../server/owner/ledger.server";
import { salonBookingSchema } from "../../server/owner/salon-entries.schema";
import { enterSalonBooking } from "../../server/owner/salon-entries.server";
import { todayView } from "../../server/owner/today.server";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { readCalendar } from "../support/icalendar";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Approval mode (仮予約, issue 29 point 4; decision 0051): a web booking at a
 * salon that approves its bookings is confirmed as pending, holds its time,
 * and reads 仮予約（サロンの承認待ち） until the salon approves it (mail with
 * an .ics REQUEST that confirms the event) or declines it (cancelled by the
 * salon, METHOD:CANCEL, the time free again).
 */

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
const later = (minutes: number, from = NOW) => new Date(from.getTime() + minutes * 60_000);
const log = createLogger("silent");
const handlers = bookingJobHandlers({
  mailFrom: "Salon Navi <no-reply@salon.example.jp>",
  publicUrl: "https://salon.example.jp",
});
const runJobs = (now = NOW) =>
  createJobWorker({ db: database.db, handlers, log, now: () => now }).runOnce();

async function outcome<T>(work: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

let counter = 0;

/** A visitor's web booking, confirmed through the booking transactions. */
async function book(
  salonId: string,
  userId: string,
  menuIds: string[],
  staffId: string,
  start: Date,
  now = NOW,
) {
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds,
    staffId,
    start,
    userId,
    now,
  });
  counter += 1;
  return confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId,
    customer: {
      name: "仮予 花子",
      kana: "かりよ はなこ",
      phone: "090-1234-5678",
      email: `approval-${counter}-${hold.id.slice(0, 6)}@example.jp`,
    },
    notes: "",
    idempotencyKey: null,
    now,
  });
}

/** A salon that approves its bookings (or not), its owner, and a visitor's web booking. */
async function scene(
  options: { requiresApproval?: boolean; start?: Date; now?: Date; noticeEmail?: string } = {},
) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    staffCount: 1,
    settings: {
      requiresApproval: options.requiresApproval ?? true,
      noticeEmail: options.noticeEmail ?? "",
    },
  });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const visitor = await buildUser(database.db);
  const start = options.start ?? at("2026-12-03T14:00");
  const booking = await book(salon.id, visitor.id, [menu.id], stylist.id, start, options.now);
  return { salon, stylist, menu, owner, visitor, booking, start, actor: salonActor(owner.id) };
}

const rowOf = async (id: string) => {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error("no booking");
  return row;
};

const eventsOf = (id: string) =>
  database.db
    .select()
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, id))
    .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));

const mailsTo = (to: string) =>
  database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .orderBy(asc(mailOutbox.createdAt));

/** The .ics attached to a mail, parsed by ical.js (an implementation independent of ours). */
function calendarOf(mail: typeof mailOutbox.$inferSelect | undefined) {
  if (!mail) throw new Error("no mail");
  const [file] = mail.attachments;
  if (!file) throw new Error("no attachment");
  return parseCalendar(file.content);
}

function parseCalendar(content: string) {
  const calendar = readCalendar(content);
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT");
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: String(event.getFirstPropertyValue("uid")),
    sequence: Number(event.getFirstPropertyValue("sequence")),
    status: event.getFirstPropertyValue("status"),
  };
}

describe("a web booking at a salon that approves its bookings", () => {
  it("is confirmed as pending (仮予約): it takes the time, the mails say so, the salon's notice asks for approval", async () => {
    const s = await scene({ noticeEmail: "desk@approval.example.jp" });
    expect(s.booking).toMatchObject({ status: "confirmed", approval: "pending" });
    expect((await eventsOf(s.booking.id)).map((e) => [e.kind, e.details])).toEqual([
      ["created", { source: "web", approval: "pending" }],
    ]);

    // Nobody else can take the time while it waits.
    const other = await buildUser(database.db);
    const taken = await outcome(book(s.salon.id, other.id, [s.menu.id], s.stylist.id, s.start));
    expect((taken.error as { status?: number } | undefined)?.status).toBe(409);

    await runJobs();
    const [visitorMail] = await mailsTo(s.booking.customerEmail);
    expect(visitorMail?.subject).toContain("仮予約を受け付けました");
    expect(visitorMail?.subject).not.toContain("ご予約が確定しました");
    expect(visitorMail?.text).toContain("状態：仮予約（サロンの承認待ち）");
    expect(calendarOf(visitorMail)).toMatchObject({
      method: "REQUEST",
      sequence: 0,
      status: "TENTATIVE",
    });
    const [notice] = await mailsTo("desk@approval.example.jp");
    expect(notice?.subject).toContain("承認待ち");
    expect(notice?.text).toContain(
      `https://salon.example.jp/owner/salons/${s.salon.id}/bookings/${s.booking.id}`,
    );

    // The day-before reminder waits for the approval: none while pending.
    await runJobs(at("2026-12-02T14:00"));
    expect((await mailsTo(s.booking.customerEmail)).map((m) => m.subject)).toHaveLength(1);
    expect((await rowOf(s.booking.id)).reminderSentAt).toBeNull();
  });

  it("is not pending at a salon that does not ask, and a phone entry by the salon never is", async () => {
    const plain = await scene({ requiresApproval: false });
    expect(plain.booking.approval).toBeNull();

    const s = await scene();
    const phone = await enterSalonBooking(
      database.db,
      s.salon.id,
      salonBookingSchema.parse({
        source: "phone",
        staffId: s.stylist.id,
        date: "2026-12-03",
        time: "16:00",
        menuIds: [s.menu.id],
        customer: { name: "電話 太郎", kana: "でんわ たろう", phone: "090-1111-2222" },
      }),
      { userId: s.owner.id },
      NOW,
    );
    expect(phone).toMatchObject({ status: "confirmed", source: "phone", approval: null });
    const refused = await outcome(
      approveBooking(
        database.db,
        { salonId: s.salon.id, bookingId: phone.id, version: phone.version },
        s.actor,
        later(1),
      ),
    );
    expect(refused.error).toBeInstanceOf(BookingActionRefusedError);
    expect((refused.error as BookingActionRefusedError).code).toBe("booking_not_pending");
  });

  it("the customer can still cancel it as usual", async () => {
    const s = await scene();
    const cancelled = await cancelBooking(database.db, {
      bookingId: s.booking.id,
      userId: s.visitor.id,
      reason: "",
      now: later(5),
    });
    expect(cancelled.status).toBe("cancelled_by_user");
    const late = await outcome(
      approveBooking(
        database.db,
        { salonId: s.salon.id, bookingId: s.booking.id, version: cancelled.version },
        s.actor,
        later(6),
      ),
    );
    expect((late.error as BookingActionRefusedError).code).toBe("booking_not_confirmed");
  });
});

describe("承認する / 承認しない", () => {
  it("approval: one transaction with a version check, the history, and a mail whose .ics confirms the event", async () => {
    const s = await scene();
    await runJobs();
    const [first] = await mailsTo(s.booking.customerEmail);
    const target = { salonId: s.salon.id, bookingId: s.booking.id };

    const stale = await outcome(
      approveBooking(database.db, { ...target, version: s.booking.version - 1 }, s.actor, later(2)),
    );
    expect(stale.error).toBeInstanceOf(BookingVersionConflictError);
    expect((await rowOf(s.booking.id)).approval).toBe("pending");

    const approved = await approveBooking(
      database.db,
      { ...target, version: s.booking.version },
      s.actor,
      later(3),
    );
    expect(approved).toMatchObject({
      status: "confirmed",
      approval: "approved",
      version: s.booking.version + 1,
    });
    const history = await eventsOf(s.booking.id);
    expect(history.at(-1)).toMatchObject({
      kind: "confirmed",
      actorKind: "salon",
      actorUserId: s.owner.id,
      details: { approval: "approved" },
    });

    // A second approval (another tab) with the old version is refused; with the new one, told it is done.
    const again = await outcome(
      approveBooking(database.db, { ...target, version: s.booking.version }, s.actor, later(4)),
    );
    expect(again.error).toBeInstanceOf(BookingVersionConflictError);
    const twice = await outcome(
      approveBooking(database.db, { ...target, version: approved.version }, s.actor, later(4)),
    );
    expect((twice.error as BookingActionRefusedError).code).toBe("booking_not_pending");

    await runJobs(later(3));
    const mails = await mailsTo(s.booking.customerEmail);
    expect(mails).toHaveLength(2);
    const mail = mails[1];
    expect(mail?.subject).toContain("ご予約が確定しました");
    expect(mail?.text).toContain("状態：予約確定");
    const before = calendarOf(first);
    expect(calendarOf(mail)).toEqual({
      method: "REQUEST",
      uid: before.uid,
      sequence: 1,
      status: "CONFIRMED",
    });
    // A retried job (or a second enqueue) sends no second mail.
    await runJobs(later(10));
    expect(await mailsTo(s.booking.customerEmail)).toHaveLength(2);

    // Approved now: the reminder goes out the day before.
    await runJobs(at("2026-12-02T14:00"));
    const reminder = (await mailsTo(s.booking.customerEmail))[2];
    expect(reminder?.subject).toContain("明日のご予約");
    expect(calendarOf(reminder)).toMatchObject({ sequence: 1, status: "CONFIRMED" });
  });

  it("refusal: cancelled by the salon with the message, mailed with METHOD:CANCEL, and the time is free for another visitor", async () => {
    const s = await scene({ noticeEmail: "desk-refuse@approval.example.jp" });
    await runJobs();
    const [first] = await mailsTo(s.booking.customerEmail);
    const target = { salonId: s.salon.id, bookingId: s.booking.id };

    const stale = await outcome(
      refuseBooking(
        database.db,
        { ...target, version: s.booking.version + 5, message: "x" },
        s.actor,
        later(2),
      ),
    );
    expect(stale.error).toBeInstanceOf(BookingVersionConflictError);
    expect((await rowOf(s.booking.id)).status).toBe("confirmed");

    const refused = await refuseBooking(
      database.db,
      { ...target, version: s.booking.version, message: "あいにく担当者の都合がつきません。" },
      s.actor,
      later(3),
    );
    expect(refused).toMatchObject({
      status: "cancelled_by_salon",
      cancelledBy: "salon",
      cancelCategory: "salon",
      cancelReason: "あいにく担当者の都合がつきません。",
      approval: "refused",
      version: s.booking.version + 1,
    });
    expect((await eventsOf(s.booking.id)).at(-1)).toMatchObject({
      kind: "cancelled",
      actorKind: "salon",
      details: { approval: "refused", category: "salon" },
    });

    await runJobs(later(3));
    const mails = await mailsTo(s.booking.customerEmail);
    const mail = mails[1];
    expect(mail?.subject).toContain("お受けできませんでした");
    expect(mail?.text).toContain("あいにく担当者の都合がつきません。");
    expect(calendarOf(mail)).toMatchObject({
      method: "CANCEL",
      uid: calendarOf(first).uid,
      sequence: 1,
    });
    // The salon is not told of its own refusal (only the new booking's notice).
    expect(await mailsTo("desk-refuse@approval.example.jp")).toHaveLength(1);
    // The reminder job finds the booking cancelled.
    await runJobs(at("2026-12-02T14:00"));
    expect(await mailsTo(s.booking.customerEmail)).toHaveLength(2);

    // Another visitor books the very time.
    const other = await buildUser(database.db);
    const next = await book(s.salon.id, other.id, [s.menu.id], s.stylist.id, s.start, later(4));
    expect(next).toMatchObject({ status: "confirmed", approval: "pending" });
  });
});

describe("the visitor's pages and API while pending", () => {
  const routeEnv = () =>
    createRouteApp(database, [
      { path: "/salons/:id/confirm/thanks", module: thanksRoute },
      { path: "/salons/:id/confirm/thanks.ics", module: icsRoute },
      { path: "/account/history", module: historyRoute },
    ]);
  /** The pages read the real clock: two days from now, in Tokyo. */
  const soonAt = (time: string) =>
    new Date(
      `${toLocal(new Date(Date.now() + 2 * 86_400_000), "Asia/Tokyo").date}T${time}:00+09:00`,
    );

  it("thanks page, its .ics, the history and GET /api/bookings/{id} say 仮予約（サロンの承認待ち）", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { requiresApproval: true },
    });
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const env = routeEnv();
    const member = await signedInMember(database, env);
    const now = new Date();
    const booking = await book(
      salon.id,
      member.userId,
      [menu.id],
      stylist.id,
      soonAt("14:00"),
      now,
    );

    const thanks = await member.b.request(
      `/salons/${salon.slug}/confirm/thanks?booking=${booking.id}`,
    );
    expect(thanks.status).toBe(200);
    const { view } = ((await thanks.json()) as { loaderData: { view: Record<string, unknown> } })
      .loaderData;
    expect(view).toMatchObject({ pending: true, statusLabel: "仮予約（サロンの承認待ち）" });
    const ics = await member.b.request(
      `/salons/${salon.slug}/confirm/thanks.ics?booking=${booking.id}`,
    );
    expect(ics.status).toBe(200);
    expect(parseCalendar(await ics.text()).status).toBe("TENTATIVE");

    const history = (await (await member.b.request("/account/history")).json()) as {
      loaderData: { upcoming?: { id: string; statusLabel: string; cancellable: boolean }[] };
    };
    const listed = JSON.stringify(history.loaderData);
    expect(listed).toContain("仮予約（サロンの承認待ち）");
    const detail = await member.b.request(`/account/history?booking=${booking.id}`);
    const detailText = JSON.stringify(await detail.json());
    expect(detailText).toContain("仮予約（サロンの承認待ち）");
    expect(detailText).toContain('"cancellable":true');

    // Approved: the same pages say 予約確定.
    await approveBooking(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      salonActor(member.userId),
      new Date(),
    );
    const after = JSON.stringify(
      await (await member.b.request(`/account/history?booking=${booking.id}`)).json(),
    );
    expect(after).toContain('"statusLabel":"予約確定"');
    const ics2 = await member.b.request(
      `/salons/${salon.slug}/confirm/thanks.ics?booking=${booking.id}`,
    );
    expect(parseCalendar(await ics2.text()).status).toBe("CONFIRMED");
  });

  it("the booking API answers approval and statusLabel (contract-checked)", async () => {
    const server = createApiTestApp(database, { now: () => NOW });
    try {
      const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
        settings: { requiresApproval: true },
      });
      const stylist = stylists[0];
      if (!stylist) throw new Error("no stylist");
      const visitor = await apiUser(server.app);
      await database.db
        .update(users)
        .set({ emailVerified: true })
        .where(eq(users.id, visitor.userId));
      const booking = await book(
        salon.id,
        visitor.userId,
        [menu.id],
        stylist.id,
        at("2026-12-03T14:00"),
      );
      const one = await visitor.request(`/api/bookings/${booking.id}`);
      expect(one.status).toBe(200);
      expect(((await one.json()) as { data: unknown }).data).toMatchObject({
        status: "confirmed",
        approval: "pending",
        statusLabel: "仮予約（サロンの承認待ち）",
      });
      const list = await visitor.request("/api/bookings");
      expect(JSON.stringify(await list.json())).toContain("仮予約（サロンの承認待ち）");
    } finally {
      server.close();
    }
  });
});

describe("the ledger and 今日 show pending bookings as 仮予約", () => {
  it("the ledger marks it; 今日 lists it first in 要確認 with its link; the same in JSON", async () => {
    const s = await scene({ start: at("2026-12-01T14:00") });
    const salon = { id: s.salon.id, name: s.salon.name, timeZone: "Asia/Tokyo" };
    const ledger = (await buildLedger(database.db, salon, "2026-12-01", NOW)) as LedgerDay;
    const entry = ledger.columns.flatMap((c) => c.entries).find((e) => e.id === s.booking.id);
    expect(entry).toMatchObject({ pending: true, statusLabel: "仮予約（承認待ち）" });

    const view = await todayView(database.db, salon, NOW);
    expect(view.pendingApprovals).toEqual([
      expect.objectContaining({
        id: s.booking.id,
        startLabel: "12月1日(火) 14:00",
        customerName: "仮予 花子",
      }),
    ]);
    expect(view.upcoming.find((b) => b.id === s.booking.id)?.pending).toBe(true);
    const html = renderToString(
      createElement(MemoryRouter, null, createElement(OwnerToday, { data: { view } })),
    ).replaceAll("<!-- -->", "");
    expect(html).toContain("承認待ちの仮予約が1件あります。");
    expect(html).toContain(`href="/owner/salons/${s.salon.id}/bookings/${s.booking.id}"`);
    expect(html).toContain("仮予 花子様の仮予約を確認する");
    expect(html.indexOf("承認待ちの仮予約")).toBeLessThan(html.indexOf("まもなく来店"));

    const server = createApiTestApp(database, { now: () => NOW });
    try {
      const owner = await apiUser(server.app);
      await database.db
        .update(users)
        .set({ emailVerified: true, role: "owner" })
        .where(eq(users.id, owner.userId));
      await database.db.insert(salonOwners).values({ salonId: s.salon.id, userId: owner.userId });
      const today = await owner.request(`/api/owner/salons/${s.salon.id}/today`);
      expect(today.status).toBe(200);
      expect(
        ((await today.json()) as { data: { pendingApprovals: { id: string }[] } }).data
          .pendingApprovals,
      ).toEqual([expect.objectContaining({ id: s.booking.id })]);
      const day = await owner.request(`/api/owner/salons/${s.salon.id}/ledger?date=2026-12-01`);
      expect(day.status).toBe(200);
      expect(JSON.stringify(await day.json())).toContain("仮予約（承認待ち）");
    } finally {
      server.close();
    }

    // Answered: no longer pending anywhere.
    await approveBooking(
      database.db,
      { salonId: s.salon.id, bookingId: s.booking.id, version: s.booking.version },
      s.actor,
      later(1),
    );
    expect((await todayView(database.db, salon, later(2))).pendingApprovals).toEqual([]);
    const again = (await buildLedger(database.db, salon, "2026-12-01", later(2))) as LedgerDay;
    expect(
      again.columns.flatMap((c) => c.entries).find((e) => e.id === s.booking.id),
    ).toMatchObject({ pending: false, statusLabel: "予約確定" });
  });
});

describe("the page /owner/salons/:id/bookings/:bookingId", () => {
  const routeEnv = () =>
    createRouteApp(database, [
      { path: "/owner/salons/:id/bookings/:bookingId", module: detailRoute },
    ]);
  const soonAt = (time: string) =>
    new Date(
      `${toLocal(new Date(Date.now() + 2 * 86_400_000), "Asia/Tokyo").date}T${time}:00+09:00`,
    );

  async function pageScene() {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { requiresApproval: true },
    });
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const env = routeEnv();
    const member = await signedInMember(database, env, "owner");
    await database.db.update(users).set({ role: "owner" }).where(eq(users.id, member.userId));
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: member.userId });
    const visitor = await buildUser(database.db);
    const now = new Date();
    const first = await book(salon.id, visitor.id, [menu.id], stylist.id, soonAt("14:00"), now);
    const second = await book(salon.id, visitor.id, [menu.id], stylist.id, soonAt("16:00"), now);
    const path = (id: string) => `/owner/salons/${salon.id}/bookings/${id}`;
    return { salon, env, b: member.b, first, second, path };
  }

  type ActionBody = {
    actionData: { errors: Record<string, string>; values: Record<string, unknown> };
  };

  it("shows 仮予約（承認待ち） with 承認する / 承認しない; approves, refuses with a message, refuses stale and hostile posts", async () => {
    const s = await pageScene();
    const page = (await (await s.b.request(s.path(s.first.id))).json()) as {
      loaderData: BookingDetailPageData;
    };
    expect(page.loaderData.booking).toMatchObject({
      statusLabel: "仮予約（承認待ち）",
      pending: true,
      can: { approve: true, refuse: true },
    });
    expect(page.loaderData.booking.history[0]?.what).toBe(
      "予約を受付（ネット予約・仮予約（承認待ち））",
    );

    const stale = await s.b.request(
      s.path(s.first.id),
      postForm({ intent: "approve", version: String(s.first.version - 1) }),
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ActionBody).actionData.errors.form).toContain(
      "他の操作で変更されました",
    );

    const hostile: [Record<string, string>, string][] = [
      [{ intent: "approve", version: "abc" }, "version"],
      [
        { intent: "refuse", version: String(s.second.version), message: "あ".repeat(501) },
        "message",
      ],
      [{ intent: "refuse", version: String(s.second.version), message: "ベル\u0007" }, "message"],
      [{ intent: "approve" }, "version"],
    ];
    for (const [fields, key] of hostile) {
      const response = await s.b.request(s.path(s.second.id), postForm(fields));
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBe(400);
      const body = (await response.json()) as ActionBody;
      expect(body.actionData.errors[key]).toMatch(/[ぁ-んァ-ン一-龥]/);
      if (fields.message) expect(body.actionData.values.message).toBe(fields.message);
    }
    expect((await rowOf(s.second.id)).approval).toBe("pending");

    const approved = await s.b.request(
      s.path(s.first.id),
      postForm({ intent: "approve", version: String(s.first.version) }),
    );
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toBe(`${s.path(s.first.id)}?done=approve`);
    const done = (await (await s.b.request(`${s.path(s.first.id)}?done=approve`)).json()) as {
      loaderData: BookingDetailPageData;
    };
    expect(done.loaderData.done).toContain("承認しました");
    expect(done.loaderData.booking).toMatchObject({
      statusLabel: "予約確定",
      pending: false,
      can: { approve: false, refuse: false },
    });
    expect(done.loaderData.booking.history.at(-1)?.what).toBe("仮予約を承認（予約確定）");

    const refused = await s.b.request(
      s.path(s.second.id),
      postForm({ intent: "refuse", version: String(s.second.version), message: "満席のため" }),
    );
    expect(refused.status).toBe(302);
    const after = (await (await s.b.request(s.path(s.second.id))).json()) as {
      loaderData: BookingDetailPageData;
    };
    expect(after.loaderData.booking.statusLabel).toBe("サロンキャンセル");
    expect(after.loaderData.booking.history.at(-1)?.what).toBe(
      "仮予約を承認しない（お断り）　メッセージ：満席のため",
    );
    expect(await rowOf(s.second.id)).toMatchObject({
      status: "cancelled_by_salon",
      approval: "refused",
      cancelReason: "満席のため",
    });
  });
});

describe("POST /api/owner/salons/{id}/bookings/{bookingId}/approve and /refuse", () => {
  async function ownerClient(
    app: ReturnType<typeof createApiTestApp>["app"],
    salonId: string | null,
    role: "owner" | "admin" = "owner",
  ) {
    const user = await apiUser(app);
    await database.db
      .update(users)
      .set({ emailVerified: true, role })
      .where(eq(users.id, user.userId));
    if (salonId) await database.db.insert(salonOwners).values({ salonId, userId: user.userId });
    return user;
  }

  it("answers 200, 400, 401, 404, 409 and 422 — never 5xx; an administrator may act", async () => {
    const server = createApiTestApp(database, { now: () => later(1) });
    try {
      const s = await scene();
      const second = await book(
        s.salon.id,
        s.visitor.id,
        [s.menu.id],
        s.stylist.id,
        at("2026-12-03T17:00"),
      );
      const other = await scene();
      const owner = await ownerClient(server.app, s.salon.id);
      const stranger = await ownerClient(server.app, other.salon.id);
      const admin = await ownerClient(server.app, null, "admin");
      const base = `/api/owner/salons/${s.salon.id}/bookings`;
      const approve = `${base}/${s.booking.id}/approve`;
      const refuse = `${base}/${second.id}/refuse`;
      const post = (client: { request: typeof owner.request }, path: string, json: unknown) =>
        client.request(path, { method: "POST", json });

      expect((await post(apiClient(server.app), approve, { version: 1 })).status).toBe(401);
      expect((await post(stranger, approve, { version: s.booking.version })).status).toBe(404);
      expect(
        (await post(owner, `${base}/${other.booking.id}/approve`, { version: 1 })).status,
      ).toBe(404);
      expect((await post(owner, `${base}/not-a-uuid/approve`, { version: 1 })).status).toBe(400);

      const hostile: [string, unknown][] = [
        [approve, {}],
        [approve, { version: "1" }],
        [approve, { version: 1.5 }],
        [approve, []],
        [approve, "text"],
        [refuse, { version: second.version, message: "あ".repeat(501) }],
        [refuse, { version: second.version, message: 12 }],
        [refuse, { version: second.version, message: "ベル\u0007" }],
      ];
      for (const [path, body] of hostile) {
        const response = await post(owner, path, body);
        expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        const { error } = (await response.json()) as { error: { message: string } };
        expect(error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
      const malformed = await owner.request(approve, {
        method: "POST",
        body: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);

      const stale = await post(owner, approve, { version: s.booking.version + 1 });
      expect(stale.status).toBe(409);
      const ok = await post(owner, approve, { version: s.booking.version });
      expect(ok.status).toBe(200);
      const approved = ((await ok.json()) as { data: Record<string, unknown> }).data;
      expect(approved).toMatchObject({
        status: "confirmed",
        approval: "approved",
        version: s.booking.version + 1,
      });
      const twice = await post(owner, approve, { version: approved.version });
      expect(twice.status).toBe(422);
      expect(((await twice.json()) as { error: { code: string } }).error.code).toBe(
        "booking_not_pending",
      );

      // An administrator may answer for any salon.
      const byAdmin = await post(admin, refuse, { version: second.version, message: "満席のため" });
      expect(byAdmin.status).toBe(200);
      expect(((await byAdmin.json()) as { data: Record<string, unknown> }).data).toMatchObject({
        status: "cancelled_by_salon",
        approval: "refused",
        cancelCategory: "salon",
        cancelReason: "満席のため",
      });
      // The general actions endpoint takes the same actions.
      const viaActions = await owner.request(`${base}/${second.id}/actions`, {
        method: "POST",
        json: { action: "approve", version: second.version + 1 },
      });
      expect(viaActions.status).toBe(422);
      const [settings] = await database.db
        .select({ requiresApproval: salonBookingSettings.requiresApproval })
        .from(salonBookingSettings)
        .where(eq(salonBookingSettings.salonId, s.salon.id));
      expect(settings?.requiresApproval).toBe(true);
      const pendingJobs = await database.db
        .select({ kind: jobs.kind })
        .from(jobs)
        .where(and(eq(jobs.salonId, s.salon.id), eq(jobs.kind, "booking_approved")));
      expect(pendingJobs).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
