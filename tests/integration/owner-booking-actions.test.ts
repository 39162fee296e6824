import { and, asc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as detailRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId";
import * as moveRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.move";
import { toLocal } from "../../common/local-time";
import { staffBookingLabel } from "../../common/status-labels";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import {
  bookingJobHandlers,
  enqueueMovedJobs,
  movesSoFar,
} from "../../server/bookings/booking-jobs.server";
import {
  bookingEvents,
  bookingMenus,
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
  BookingActionRefusedError,
  BookingVersionConflictError,
  cancelBySalon,
  getOwnerBooking,
  markArrived,
  markCompleted,
  markNoShow,
  moveBooking,
  OutsideScheduleError,
  releaseBlock,
  saveSalonNote,
  undoableStatus,
  undoStatus,
} from "../../server/owner/booking-actions.server";
import {
  type BookingDetailPageData,
  bookingDetailPage,
  type MovePageData,
} from "../../server/owner/booking-detail-page.server";
import { buildLedger } from "../../server/owner/ledger.server";
import { OverlapError } from "../../server/owner/overlaps.server";
import { salonAccessFor } from "../../server/salon-access/salon-access.server";
import { browser, setRole } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import {
  buildBooking,
  buildMenu,
  buildSalonWithStaff,
  buildUser,
  restrictMenu,
} from "../support/builders";
import { readCalendar } from "../support/icalendar";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
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

/**
 * A salon (two stylists working 10:00–20:00, a 60-minute カット and a
 * 30-minute カラー), its owner, and a visitor's confirmed web booking.
 */
async function scene(
  start = "2026-12-03T14:00",
  settings?: { noticeEmail?: string; noticeMailEnabled?: boolean },
) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    staffCount: 2,
    ...(settings ? { settings } : {}),
  });
  const color = await buildMenu(database.db, salon.id, {
    name: "カラー",
    price: 4400,
    durationMinutes: 30,
  });
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const visitor = await buildUser(database.db);
  const first = stylists[0];
  const second = stylists[1];
  if (!first || !second) throw new Error("no stylists");
  const booking = await book(salon.id, visitor.id, [menu.id], first.id, at(start), "予約 花子");
  return {
    salon,
    menu,
    color,
    owner,
    visitor,
    first,
    second,
    booking,
    actor: salonActor(owner.id),
  };
}

async function book(
  salonId: string,
  userId: string,
  menuIds: string[],
  staffId: string,
  start: Date,
  name: string,
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
      name,
      kana: "よやく はなこ",
      phone: "090-1234-5678",
      email: `visitor-${counter}-${hold.id.slice(0, 6)}@example.jp`,
    },
    notes: "",
    idempotencyKey: null,
    now,
  });
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
  const calendar = readCalendar(file.content);
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT");
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.getFirstPropertyValue("uid"),
    sequence: Number(event.getFirstPropertyValue("sequence")),
    start: String(event.getFirstProperty("dtstart")?.getFirstValue()),
    status: event.getFirstPropertyValue("status"),
  };
}

/** The booking's page as the owner reads it at `now`. */
async function detailPage(
  salonId: string,
  owner: { id: string; email: string; name: string },
  bookingId: string,
  now: Date,
) {
  const access = await salonAccessFor(
    database.db,
    { ...owner, role: "owner", emailVerified: true, profile: null },
    salonId,
  );
  if (!access) throw new Error("no access");
  const page = await bookingDetailPage(
    database.db,
    access,
    bookingId,
    new URL("https://salon.example.jp/"),
    now,
  );
  if (!page) throw new Error("no page");
  return page;
}

const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describe("the salon's status actions", () => {
  it("arrived, then completed: each bumps the version and writes its history entry", async () => {
    const { salon, booking, actor, owner } = await scene();
    const arrived = await markArrived(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      actor,
      at("2026-12-03T13:50"),
    );
    expect(arrived.arrivedAt).toEqual(at("2026-12-03T13:50"));
    expect(arrived.version).toBe(booking.version + 1);
    // Arrived: completed even before the planned start.
    const done = await markCompleted(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: arrived.version },
      actor,
      at("2026-12-03T13:55"),
    );
    expect(done.status).toBe("completed");
    const events = await eventsOf(booking.id);
    expect(events.map((e) => [e.kind, e.actorKind, e.actorUserId])).toEqual([
      ["created", "customer", booking.userId],
      ["arrived", "salon", owner.id],
      ["completed", "salon", owner.id],
    ]);
    // Completed is not confirmed: arriving again is refused.
    await expect(
      markArrived(
        database.db,
        { salonId: salon.id, bookingId: booking.id, version: done.version },
        actor,
        at("2026-12-03T13:56"),
      ),
    ).rejects.toThrow("この予約はすでに施術完了になっています。");
  });

  it("来店 only from an hour before the start, 施術完了 only after arrival or the start (422 before, in Japanese)", async () => {
    const { salon, booking, actor, owner } = await scene();
    const target = { salonId: salon.id, bookingId: booking.id, version: booking.version };
    // 17 hours ahead (the receptionist's slip in issue 38): refused, nothing applied.
    const early = await outcome(markArrived(database.db, target, actor, at("2026-12-02T21:00")));
    expect(early.error).toMatchObject({
      status: 422,
      code: "arrival_too_early",
      message:
        "来店は予約の開始60分前（2026年12月3日(木) 13:00）から記録できます。予約の日時を確かめてください。",
    });
    const notYet = await outcome(markCompleted(database.db, target, actor, at("2026-12-03T13:59")));
    expect(notYet.error).toMatchObject({
      status: 422,
      message: "施術完了は、来店を記録してから、または予約の開始時刻を過ぎてから記録できます。",
    });
    expect(await rowOf(booking.id)).toMatchObject({ status: "confirmed", arrivedAt: null });
    expect((await eventsOf(booking.id)).map((e) => e.kind)).toEqual(["created"]);
    // One minute short of the hour is still early; the hour itself is taken.
    await expect(
      markArrived(database.db, target, actor, at("2026-12-03T12:59")),
    ).rejects.toMatchObject({ status: 422 });
    const page = await detailPage(salon.id, owner, booking.id, at("2026-12-03T12:59"));
    expect(page.booking.can).toMatchObject({ arrive: false, complete: false, undo: null });
    expect(page.booking.arriveFrom).toBe("13:00");
    const arrived = await markArrived(database.db, target, actor, at("2026-12-03T13:00"));
    expect(arrived.arrivedAt).toEqual(at("2026-12-03T13:00"));
    // Not arrived, but the start has passed: completed.
    const other = await scene("2026-12-03T16:00");
    const done = await markCompleted(
      database.db,
      { salonId: other.salon.id, bookingId: other.booking.id, version: other.booking.version },
      other.actor,
      at("2026-12-03T16:00"),
    );
    expect(done.status).toBe("completed");
  });

  it("each status action is undone the same day (salon's zone) with a history entry, not the next day; a walk-in's arrival is not offered", async () => {
    const { salon, booking, actor, owner } = await scene();
    const arrived = await markArrived(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      actor,
      at("2026-12-03T13:40"),
    );
    const done = await markCompleted(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: arrived.version },
      actor,
      at("2026-12-03T15:00"),
    );
    const page = await detailPage(salon.id, owner, booking.id, at("2026-12-03T15:01"));
    expect(page.booking.can.undo).toEqual({ action: "completed", label: "施術完了を取り消す" });
    // Only the last record: 来店 waits until 施術完了 is taken back.
    const wrong = await outcome(
      undoStatus(
        database.db,
        { salonId: salon.id, bookingId: booking.id, version: done.version, undo: "arrived" },
        actor,
        at("2026-12-03T15:01"),
      ),
    );
    expect(wrong.error).toMatchObject({ status: 422, code: "undo_not_allowed" });
    const reopened = await undoStatus(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: done.version, undo: "completed" },
      actor,
      at("2026-12-03T15:02"),
    );
    expect(reopened).toMatchObject({ status: "confirmed", arrivedAt: at("2026-12-03T13:40") });
    const notArrived = await undoStatus(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: reopened.version, undo: "arrived" },
      actor,
      at("2026-12-03T23:59"),
    );
    expect(notArrived).toMatchObject({ status: "confirmed", arrivedAt: null });
    const history = await detailPage(salon.id, owner, booking.id, at("2026-12-03T23:59"));
    expect(history.booking.history.map((h) => h.what).slice(-4)).toEqual([
      "来店",
      "施術完了",
      "施術完了を取り消し",
      "来店を取り消し",
    ]);
    expect((await eventsOf(booking.id)).at(-1)).toMatchObject({
      kind: "undone",
      actorKind: "salon",
      actorUserId: owner.id,
      details: { undid: "arrived" },
    });

    // A no-show recorded today is undone today (the time is taken again), not tomorrow.
    const late = await markNoShow(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: notArrived.version },
      actor,
      at("2026-12-03T14:30"),
    );
    const tomorrow = await outcome(
      undoStatus(
        database.db,
        { salonId: salon.id, bookingId: booking.id, version: late.version, undo: "no_show" },
        actor,
        at("2026-12-04T00:00"),
      ),
    );
    expect(tomorrow.error).toMatchObject({ status: 422, code: "undo_not_allowed" });
    expect(
      (await detailPage(salon.id, owner, booking.id, at("2026-12-04T00:00"))).booking.can.undo,
    ).toBeNull();
    const back = await undoStatus(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: late.version, undo: "no_show" },
      actor,
      at("2026-12-03T23:00"),
    );
    expect(back.status).toBe("confirmed");

    // A walk-in came in: its arrival is not taken back (it would offer 無断キャンセル to someone who came).
    const walkIn = undoableStatus(
      {
        kind: "booking",
        status: "confirmed",
        arrivedAt: at("2026-12-03T13:00"),
        source: "walk_in",
      },
      [],
      at("2026-12-03T13:05"),
      "Asia/Tokyo",
    );
    expect(walkIn).toBeNull();
  });

  it("a no-show only after the start time (422 before), then recorded", async () => {
    const { salon, booking, actor } = await scene("2026-12-01T11:00");
    const early = await outcome(
      markNoShow(
        database.db,
        { salonId: salon.id, bookingId: booking.id, version: booking.version },
        actor,
        at("2026-12-01T10:59"),
      ),
    );
    expect(early.error).toBeInstanceOf(BookingActionRefusedError);
    expect((early.error as BookingActionRefusedError).status).toBe(422);
    expect((early.error as Error).message).toBe(
      "無断キャンセルは、予約の開始時刻を過ぎてから記録できます。",
    );
    expect((await rowOf(booking.id)).status).toBe("confirmed");
    const noShow = await markNoShow(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      actor,
      at("2026-12-01T11:20"),
    );
    expect(noShow.status).toBe("no_show");
    expect((await eventsOf(booking.id)).at(-1)?.kind).toBe("no_show");
  });

  it("a stale version is refused with 409 and nothing is applied", async () => {
    const { salon, booking, actor } = await scene();
    await markArrived(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      actor,
      at("2026-12-03T13:50"),
    );
    const stale = await outcome(
      cancelBySalon(
        database.db,
        {
          salonId: salon.id,
          bookingId: booking.id,
          version: booking.version,
          category: "salon",
          message: "",
        },
        actor,
        later(2),
      ),
    );
    expect(stale.error).toBeInstanceOf(BookingVersionConflictError);
    expect((stale.error as BookingVersionConflictError).status).toBe(409);
    expect((stale.error as Error).message).toBe(
      "この予約は他の操作で変更されました。最新の内容を確認してください。",
    );
    const row = await rowOf(booking.id);
    expect(row.status).toBe("confirmed");
    expect((await eventsOf(booking.id)).map((e) => e.kind)).toEqual(["created", "arrived"]);
  });

  it("another salon's booking is not found through this salon", async () => {
    const a = await scene();
    const b = await scene();
    const crossed = await outcome(
      markArrived(
        database.db,
        { salonId: a.salon.id, bookingId: b.booking.id, version: b.booking.version },
        a.actor,
        later(1),
      ),
    );
    expect((crossed.error as { status?: number }).status).toBe(404);
    expect((await rowOf(b.booking.id)).arrivedAt).toBeNull();
    await expect(
      getOwnerBooking(database.db, { salonId: a.salon.id, bookingId: b.booking.id }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      getOwnerBooking(database.db, { salonId: a.salon.id, bookingId: "nope" }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("the salon's note: saved with its history entry, no version needed, not bumping it", async () => {
    const { salon, booking, actor } = await scene();
    const saved = await saveSalonNote(
      database.db,
      { salonId: salon.id, bookingId: booking.id, note: "前回より短めを希望" },
      actor,
      later(1),
    );
    expect(saved.salonNote).toBe("前回より短めを希望");
    expect(saved.version).toBe(booking.version);
    expect((await eventsOf(booking.id)).at(-1)?.kind).toBe("note_changed");
    const detail = await getOwnerBooking(database.db, { salonId: salon.id, bookingId: booking.id });
    expect(detail.salonNote).toBe("前回より短めを希望");
    expect(detail.history.map((e) => e.kind)).toEqual(["created", "note_changed"]);
  });

  it("a block is released (cancelled, history kept); a booking cannot be 'released'", async () => {
    const { salon, first, booking, actor } = await scene();
    const block = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: first.id,
      kind: "block",
      startsAt: at("2026-12-03T12:00"),
      endsAt: at("2026-12-03T13:00"),
      totalPrice: 0,
      source: "phone",
      salonNote: "休憩",
    });
    const released = await releaseBlock(
      database.db,
      { salonId: salon.id, bookingId: block.id, version: block.version },
      actor,
      later(1),
    );
    expect(released.status).toBe("cancelled_by_salon");
    expect((await eventsOf(block.id)).map((e) => [e.kind, e.details])).toEqual([
      ["cancelled", { block: true, label: "休憩" }],
    ]);
    await expect(
      releaseBlock(
        database.db,
        { salonId: salon.id, bookingId: booking.id, version: booking.version },
        actor,
        later(2),
      ),
    ).rejects.toBeInstanceOf(BookingActionRefusedError);
  });
});

describe("cancel by the salon", () => {
  it("cancels with the category and message, and mails the customer a CANCEL .ics with the same UID and a higher SEQUENCE; no notice to the salon", async () => {
    const { salon, booking, actor, owner } = await scene();
    await runJobs();
    const cancelled = await cancelBySalon(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: booking.version,
        category: "salon",
        message: "担当者の急病のため、誠に申し訳ございません。",
      },
      actor,
      later(5),
    );
    expect(cancelled).toMatchObject({
      status: "cancelled_by_salon",
      cancelledBy: "salon",
      cancelCategory: "salon",
      cancelReason: "担当者の急病のため、誠に申し訳ございません。",
    });
    expect((await eventsOf(booking.id)).at(-1)).toMatchObject({
      kind: "cancelled",
      actorKind: "salon",
      details: { category: "salon", categoryLabel: "サロン都合" },
    });
    await runJobs(later(5));
    // Found by subject: two mails of one test can carry the same created_at.
    const mails = await mailsTo(booking.customerEmail);
    expect(mails).toHaveLength(2);
    const confirmation = mails.find((mail) => mail.subject.includes("ご予約が確定しました"));
    const cancellation = mails.find((mail) => mail !== confirmation);
    expect(cancellation?.subject).toBe(
      `【Salon Navi】サロンがご予約をキャンセルしました（${salon.name}）`,
    );
    expect(cancellation?.text).toContain("担当者の急病のため、誠に申し訳ございません。");
    const before = calendarOf(confirmation);
    const after = calendarOf(cancellation);
    expect(after).toMatchObject({ method: "CANCEL", uid: before.uid, status: "CANCELLED" });
    expect(after.sequence).toBeGreaterThan(before.sequence);
    // The owner had the new-booking notice, and nothing for the salon's own cancellation.
    expect((await mailsTo(owner.email)).map((m) => m.subject)).toEqual([
      expect.stringContaining("新しいご予約"),
    ]);
  });

  it("a customer who phoned ahead is the customer's cancellation, not the salon's: status, history, ledger, CSV label, mail, no notice", async () => {
    const { salon, booking, actor, owner } = await scene();
    await runJobs();
    const cancelled = await cancelBySalon(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: booking.version,
        category: "customer_advance",
        message: "またのご来店をお待ちしております。",
      },
      actor,
      later(5),
    );
    expect(cancelled).toMatchObject({
      status: "cancelled_by_user",
      cancelledBy: "salon",
      cancelCategory: "customer_advance",
    });
    expect(staffBookingLabel(cancelled)).toBe("お客様キャンセル（事前連絡）");
    const ledger = await buildLedger(database.db, salon, "2026-12-03", later(6));
    expect(ledger.view === "day" ? ledger.cancelled.map((e) => e.statusLabel) : []).toEqual([
      "お客様キャンセル（事前連絡）",
    ]);
    const page = await detailPage(salon.id, owner, booking.id, later(6));
    expect(page.booking.statusLabel).toBe("お客様キャンセル（事前連絡）");
    expect(page.booking.history.at(-1)?.what).toBe(
      "お客様のキャンセルを受付（お客様都合（事前連絡））　メッセージ：またのご来店をお待ちしております。",
    );
    expect(page.cancelCategories.map((c) => c.label)).toEqual([
      "お客様都合（事前連絡）",
      "お客様都合（当日連絡）",
      "無断キャンセル",
      "サロン都合",
    ]);
    await runJobs(later(5));
    const [, mail, ...more] = await mailsTo(booking.customerEmail);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe(`【Salon Navi】ご予約をキャンセルしました（${salon.name}）`);
    expect(mail?.text).toContain(`${salon.name} で、以下のご予約のキャンセルを承りました。`);
    expect(mail?.text).toContain("またのご来店をお待ちしております。");
    // The salon entered it itself: no notice of a customer's cancellation.
    expect((await mailsTo(owner.email)).map((m) => m.subject)).toEqual([
      expect.stringContaining("新しいご予約"),
    ]);
  });

  it("only a confirmed booking can be cancelled", async () => {
    const { salon, booking, actor } = await scene();
    const done = await markCompleted(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version },
      actor,
      at("2026-12-03T15:00"),
    );
    await expect(
      cancelBySalon(
        database.db,
        {
          salonId: salon.id,
          bookingId: booking.id,
          version: done.version,
          category: "no_contact",
          message: "",
        },
        actor,
        later(2),
      ),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe("moving a booking", () => {
  it("moves to another time and stylist: history, next SEQUENCE REQUEST with the same UID; a cancel after moves is higher still", async () => {
    const { salon, booking, actor, second, menu, owner } = await scene();
    await runJobs();
    const moved = await moveBooking(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: booking.version,
        date: "2026-12-03",
        time: "16:30",
        staffId: second.id,
        menuIds: [menu.id],
        confirmOutsideSchedule: false,
      },
      actor,
      later(1),
    );
    expect(moved.startsAt).toEqual(at("2026-12-03T16:30"));
    expect(moved.endsAt).toEqual(at("2026-12-03T17:30"));
    expect(moved.staffId).toBe(second.id);
    expect(moved.version).toBe(booking.version + 1);
    const event = (await eventsOf(booking.id)).at(-1);
    expect(event).toMatchObject({ kind: "moved", actorKind: "salon" });
    expect(event?.details).toMatchObject({
      from: { startsAt: at("2026-12-03T14:00").toISOString(), staffName: "スタイリスト1" },
      to: { startsAt: at("2026-12-03T16:30").toISOString(), staffName: "スタイリスト2" },
    });
    await runJobs(later(1));
    const second2 = await moveBooking(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: moved.version,
        date: "2026-12-04",
        time: "10:00",
        staffId: second.id,
        menuIds: [menu.id],
        confirmOutsideSchedule: false,
      },
      actor,
      later(2),
    );
    // The day-before reminder follows the booking to its new day.
    const [reminder] = await database.db
      .select({ runAt: jobs.runAt, doneAt: jobs.doneAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `reminder:${booking.id}`));
    expect(reminder).toEqual({ runAt: at("2026-12-03T10:00"), doneAt: null });
    await runJobs(later(2));
    const mails = await mailsTo(booking.customerEmail);
    expect(mails.map((m) => m.subject)).toEqual([
      `【Salon Navi】ご予約が確定しました（${salon.name}）`,
      `【Salon Navi】サロンがご予約の内容を変更しました（${salon.name}）`,
      `【Salon Navi】サロンがご予約の内容を変更しました（${salon.name}）`,
    ]);
    expect(mails[1]?.text).toContain("日時：2026年12月3日(木) 16:30〜17:30");
    expect(mails[1]?.text).toContain("変更前の日時：2026年12月3日(木) 14:00〜15:00");
    const [c0, c1, c2] = mails.map(calendarOf);
    expect(c0).toMatchObject({ method: "REQUEST", sequence: 0 });
    expect(c1).toMatchObject({
      method: "REQUEST",
      uid: c0?.uid,
      sequence: 1,
      start: "2026-12-03T16:30:00",
    });
    expect(c2).toMatchObject({
      method: "REQUEST",
      uid: c0?.uid,
      sequence: 2,
      start: "2026-12-04T10:00:00",
    });
    // The salon moved it itself: no notice to the salon.
    expect(await mailsTo(owner.email)).toHaveLength(1);

    await cancelBySalon(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: second2.version,
        category: "customer_same_day",
        message: "",
      },
      actor,
      later(3),
    );
    await runJobs(later(3));
    const cancel = calendarOf((await mailsTo(booking.customerEmail)).at(-1));
    expect(cancel).toMatchObject({ method: "CANCEL", uid: c0?.uid, sequence: 3 });
  });

  it("changes the menus: new duration and price, menus_changed in the history", async () => {
    const { salon, booking, actor, first, menu, color } = await scene();
    const changed = await moveBooking(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: booking.version,
        date: "2026-12-03",
        time: "14:00",
        staffId: first.id,
        menuIds: [menu.id, color.id],
        confirmOutsideSchedule: false,
      },
      actor,
      later(1),
    );
    expect(changed.endsAt).toEqual(at("2026-12-03T15:30"));
    expect(changed.totalPrice).toBe(5500 + 4400);
    const menusNow = await database.db
      .select({ name: bookingMenus.name })
      .from(bookingMenus)
      .where(eq(bookingMenus.bookingId, booking.id))
      .orderBy(asc(bookingMenus.position));
    expect(menusNow.map((m) => m.name)).toEqual(["カット", "カラー"]);
    expect((await eventsOf(booking.id)).at(-1)?.kind).toBe("menus_changed");
  });

  it("refuses a stylist who does not do the menus", async () => {
    const { salon, booking, actor, first, second, color } = await scene();
    await restrictMenu(database.db, color.id, [first.id]);
    const refused = await outcome(
      moveBooking(
        database.db,
        {
          salonId: salon.id,
          bookingId: booking.id,
          version: booking.version,
          date: "2026-12-03",
          time: "14:00",
          staffId: second.id,
          menuIds: [color.id],
          confirmOutsideSchedule: false,
        },
        actor,
        later(1),
      ),
    );
    expect((refused.error as BookingActionRefusedError).status).toBe(422);
    expect((refused.error as Error).message).toContain("「カラー」を担当していません");
  });

  it("a move onto another booking is refused, naming it; onto a block, naming the block", async () => {
    const { salon, booking, actor, second, menu, visitor } = await scene();
    await book(salon.id, visitor.id, [menu.id], second.id, at("2026-12-03T16:00"), "山田 花子");
    const refused = await outcome(
      moveBooking(
        database.db,
        {
          salonId: salon.id,
          bookingId: booking.id,
          version: booking.version,
          date: "2026-12-03",
          time: "15:30",
          staffId: second.id,
          menuIds: [menu.id],
          confirmOutsideSchedule: false,
        },
        actor,
        later(1),
      ),
    );
    expect(refused.error).toBeInstanceOf(OverlapError);
    expect((refused.error as OverlapError).status).toBe(409);
    expect((refused.error as Error).message).toContain(
      "16:00〜17:00の山田 花子様の予約（カット）と重なっています",
    );
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-03T14:00"));

    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: second.id,
      kind: "block",
      startsAt: at("2026-12-03T12:00"),
      endsAt: at("2026-12-03T13:00"),
      totalPrice: 0,
      source: "phone",
      salonNote: "研修",
    });
    const onBlock = await outcome(
      moveBooking(
        database.db,
        {
          salonId: salon.id,
          bookingId: booking.id,
          version: booking.version,
          date: "2026-12-03",
          time: "11:30",
          staffId: second.id,
          menuIds: [menu.id],
          confirmOutsideSchedule: false,
        },
        actor,
        later(2),
      ),
    );
    expect((onBlock.error as Error).message).toContain(
      "12:00〜13:00のブロック「研修」と重なっています",
    );
    expect((await eventsOf(booking.id)).map((e) => e.kind)).toEqual(["created"]);
  });

  it("outside the stylist's schedule only with the confirmation", async () => {
    const { salon, booking, actor, first, menu } = await scene();
    const input = {
      salonId: salon.id,
      bookingId: booking.id,
      version: booking.version,
      date: "2026-12-03",
      time: "19:30",
      staffId: first.id,
      menuIds: [menu.id],
      confirmOutsideSchedule: false,
    };
    const warned = await outcome(moveBooking(database.db, input, actor, later(1)));
    expect(warned.error).toBeInstanceOf(OutsideScheduleError);
    expect((warned.error as OutsideScheduleError).status).toBe(422);
    expect((warned.error as Error).message).toContain("勤務時間外");
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-03T14:00"));
    const moved = await moveBooking(
      database.db,
      { ...input, confirmOutsideSchedule: true },
      actor,
      later(2),
    );
    expect(moved.endsAt).toEqual(at("2026-12-03T20:30"));
    expect((await eventsOf(booking.id)).at(-1)?.details).toMatchObject({ outsideSchedule: true });
  });

  // PGlite runs transactions one after another: there is no race to lose.
  it.skipIf(transactionsTakeTurns)(
    "two moves of the same booking at once: one wins, the other is told (409)",
    async () => {
      for (let round = 0; round < 4; round++) {
        const { salon, booking, actor, first, second, menu } = await scene();
        const move = (staffId: string, time: string) =>
          outcome(
            moveBooking(
              database.db,
              {
                salonId: salon.id,
                bookingId: booking.id,
                version: booking.version,
                date: "2026-12-03",
                time,
                staffId,
                menuIds: [menu.id],
                confirmOutsideSchedule: false,
              },
              actor,
              later(1),
            ),
          );
        const results = await Promise.all([move(first.id, "11:00"), move(second.id, "17:00")]);
        const winners = results.filter((r) => r.value);
        expect(winners).toHaveLength(1);
        const loser = results.find((r) => r.error)?.error;
        expect(loser).toBeInstanceOf(BookingVersionConflictError);
        const row = await rowOf(booking.id);
        expect(row.version).toBe(booking.version + 1);
        expect((await eventsOf(booking.id)).filter((e) => e.kind === "moved")).toHaveLength(1);
      }
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "two bookings moved onto the same free time at once: one wins, the other is told what is in the way",
    async () => {
      for (let round = 0; round < 4; round++) {
        const { salon, booking, actor, second, menu, visitor } = await scene();
        const other = await book(
          salon.id,
          visitor.id,
          [menu.id],
          second.id,
          at("2026-12-03T10:00"),
          "山田 花子",
        );
        const move = (b: typeof booking) =>
          outcome(
            moveBooking(
              database.db,
              {
                salonId: salon.id,
                bookingId: b.id,
                version: b.version,
                date: "2026-12-03",
                time: "18:00",
                staffId: second.id,
                menuIds: [menu.id],
                confirmOutsideSchedule: false,
              },
              actor,
              later(1),
            ),
          );
        const [a, b] = await Promise.all([move(booking), move(other)]);
        expect([a.value, b.value].filter(Boolean)).toHaveLength(1);
        const loser = (a.error ?? b.error) as Error;
        expect(loser).toBeInstanceOf(OverlapError);
        expect(loser.message).toMatch(
          /18:00〜19:00の(予約 花子|山田 花子)様の予約（カット）と重なっています/,
        );
        const atSix = await database.db
          .select()
          .from(bookings)
          .where(
            and(eq(bookings.staffId, second.id), eq(bookings.startsAt, at("2026-12-03T18:00"))),
          );
        expect(atSix).toHaveLength(1);
      }
    },
  );
});

describe("the salon's notice mails", () => {
  const customerMove = async (s: Awaited<ReturnType<typeof scene>>) => {
    // What the customer's 予約変更 does after its change: record the move, enqueue the jobs.
    await database.db.transaction(async (tx) => {
      await tx
        .update(bookings)
        .set({
          startsAt: at("2026-12-03T17:00"),
          endsAt: at("2026-12-03T18:00"),
          occupiedUntil: at("2026-12-03T18:00"),
        })
        .where(eq(bookings.id, s.booking.id));
      await tx.insert(bookingEvents).values({
        salonId: s.salon.id,
        bookingId: s.booking.id,
        kind: "moved",
        actorKind: "customer",
        actorUserId: s.visitor.id,
        createdAt: later(1),
      });
      await enqueueMovedJobs(tx, s.booking, {
        by: "customer",
        previous: {
          startsAt: s.booking.startsAt,
          endsAt: s.booking.endsAt,
          staffName: "スタイリスト1",
          menuNames: ["カット"],
        },
        now: later(1),
      });
      // The same move enqueued twice (a retried request) is still one job.
      await enqueueMovedJobs(tx, s.booking, {
        by: "customer",
        previous: {
          startsAt: s.booking.startsAt,
          endsAt: s.booking.endsAt,
          staffName: "スタイリスト1",
          menuNames: ["カット"],
        },
        now: later(1),
      });
    });
    expect(await movesSoFar(database.db, s.booking.id)).toBe(1);
  };

  it("new booking and the customer's move go to notice_email, once each", async () => {
    const s = await scene("2026-12-03T14:00", { noticeEmail: "yoyaku@salon.example.jp" });
    await runJobs();
    await customerMove(s);
    await runJobs(later(1));
    await runJobs(later(2));
    const notices = await mailsTo("yoyaku@salon.example.jp");
    expect(notices.map((m) => m.subject)).toEqual([
      expect.stringContaining("【Salon Navi】新しいご予約"),
      expect.stringContaining("【Salon Navi】お客様がご予約を変更しました"),
    ]);
    expect(notices[1]?.text).toContain("変更前の日時：2026年12月3日(木) 14:00〜15:00");
    expect(await mailsTo(s.owner.email)).toEqual([]);
    const customerMails = await mailsTo(s.booking.customerEmail);
    expect(customerMails.map((m) => m.subject)).toEqual([
      expect.stringContaining("ご予約が確定しました"),
      expect.stringContaining("ご予約の変更を承りました"),
    ]);
    expect(calendarOf(customerMails[1])).toMatchObject({ method: "REQUEST", sequence: 1 });
  });

  it("without notice_email the owners are told; with notices off nobody", async () => {
    const s = await scene();
    await runJobs();
    await customerMove(s);
    await runJobs(later(1));
    expect((await mailsTo(s.owner.email)).map((m) => m.subject)).toEqual([
      expect.stringContaining("新しいご予約"),
      expect.stringContaining("お客様がご予約を変更しました"),
    ]);

    const off = await scene("2026-12-03T14:00", {
      noticeMailEnabled: false,
      noticeEmail: "off@salon.example.jp",
    });
    await runJobs();
    await customerMove(off);
    await runJobs(later(1));
    expect(await mailsTo(off.owner.email)).toEqual([]);
    expect(await mailsTo("off@salon.example.jp")).toEqual([]);
    // The customer still has their mails.
    expect(await mailsTo(off.booking.customerEmail)).toHaveLength(2);
    const [settings] = await database.db
      .select()
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, off.salon.id));
    expect(settings?.noticeMailEnabled).toBe(false);
  });

  it("the customer's own cancellation is told to the salon once", async () => {
    const s = await scene("2026-12-05T14:00", { noticeEmail: "yoyaku@salon.example.jp" });
    const { cancelBooking } = await import("../../server/bookings/booking.server");
    await cancelBooking(database.db, {
      bookingId: s.booking.id,
      userId: s.visitor.id,
      reason: "",
      now: later(1),
    });
    await runJobs(later(1));
    await runJobs(later(2));
    const cancels = await database.db
      .select()
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.to, "yoyaku@salon.example.jp"), like(mailOutbox.subject, "%キャンセル%")),
      );
    expect(cancels).toHaveLength(1);
  });
});

describe("the pages /owner/salons/:id/bookings/:bookingId and …/move", () => {
  const routeEnv = () =>
    createRouteApp(database, [
      { path: "/owner/salons/:id/bookings/:bookingId", module: detailRoute },
      { path: "/owner/salons/:id/bookings/:bookingId/move", module: moveRoute },
    ]);
  /** The pages read the real clock: two days from now, in Tokyo. */
  const soon = () => toLocal(new Date(Date.now() + 2 * 86_400_000), "Asia/Tokyo").date;
  const soonAt = (time: string) => new Date(`${soon()}T${time}:00+09:00`);

  async function pageScene() {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const [first, second] = stylists;
    if (!first || !second) throw new Error("no stylists");
    const env = routeEnv();
    const member = await signedInMember(database, env, "owner");
    await setRole(database.db, member.email, "owner");
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: member.userId });
    const visitor = await buildUser(database.db);
    const booking = await book(
      salon.id,
      visitor.id,
      [menu.id],
      first.id,
      soonAt("14:00"),
      "予約 花子",
      new Date(),
    );
    const base = `/owner/salons/${salon.id}/bookings/${booking.id}`;
    return { salon, first, second, menu, env, b: member.b, visitor, booking, base };
  }

  type ActionBody = {
    actionData: {
      errors: Record<string, string>;
      values: Record<string, unknown>;
      needsConfirmation: boolean;
    };
  };

  it("shows the booking with its history; another salon's booking, a bad id and a guest do not get in", async () => {
    const s = await pageScene();
    const response = await s.b.request(s.base);
    expect(response.status).toBe(200);
    const { loaderData } = (await response.json()) as { loaderData: BookingDetailPageData };
    expect(loaderData.booking).toMatchObject({
      bookingNumber: s.booking.bookingNumber,
      version: s.booking.version,
      statusLabel: "予約確定",
      sourceLabel: "ネット予約",
      timeLabel: "14:00〜15:00",
      staffName: "スタイリスト1",
      staffRequested: true,
      customer: { name: "予約 花子", kana: "よやく はなこ", phone: "090-1234-5678" },
      menus: [{ name: "カット", priceLabel: "￥5,500", durationMinutes: 60 }],
      totalLabel: "￥5,500",
      can: {
        arrive: false,
        complete: false,
        noShow: false,
        cancel: true,
        move: true,
        release: false,
      },
    });
    expect(loaderData.booking.dateLabel).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日\(.\)$/);
    expect(loaderData.booking.history).toEqual([
      expect.objectContaining({ what: "予約を受付（ネット予約）", who: "お客様" }),
    ]);

    const other = await scene();
    expect(
      (await s.b.request(`/owner/salons/${s.salon.id}/bookings/${other.booking.id}`)).status,
    ).toBe(404);
    expect(
      (await s.b.request(`/owner/salons/${other.salon.id}/bookings/${other.booking.id}`)).status,
    ).toBe(404);
    expect((await s.b.request(`/owner/salons/${s.salon.id}/bookings/not-a-uuid`)).status).toBe(404);
    expect((await s.b.request(`${s.base}/move`)).status).toBe(200);
    expect(
      (await s.b.request(`/owner/salons/${s.salon.id}/bookings/${other.booking.id}/move`)).status,
    ).toBe(404);
    const guest = await browser(s.env.app).request(s.base);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toContain("/signin?redirect=");
  });

  it("records arrival and redirects with the success message; a stale form is refused (409) and not applied", async () => {
    const s = await pageScene();
    // Two days ahead: refused, in Japanese, nothing applied (issue 38, §1.1).
    const tooEarly = await s.b.request(
      s.base,
      postForm({ intent: "arrived", version: String(s.booking.version) }),
    );
    expect(tooEarly.status).toBe(422);
    expect(((await tooEarly.json()) as ActionBody).actionData.errors.form).toMatch(
      /^来店は予約の開始60分前（.+）から記録できます。/,
    );
    expect((await rowOf(s.booking.id)).arrivedAt).toBeNull();
    // The pages read the real clock: the booking starts in 30 minutes.
    const startsAt = new Date(Date.now() + 30 * 60_000);
    const endsAt = new Date(startsAt.getTime() + 60 * 60_000);
    await database.db
      .update(bookings)
      .set({ startsAt, endsAt, occupiedFrom: null, occupiedUntil: endsAt })
      .where(eq(bookings.id, s.booking.id));
    const arrived = await s.b.request(
      s.base,
      postForm({ intent: "arrived", version: String(s.booking.version) }),
    );
    expect(arrived.status).toBe(302);
    expect(arrived.headers.get("location")).toBe(`${s.base}?done=arrived`);
    const page = (await (await s.b.request(`${s.base}?done=arrived`)).json()) as {
      loaderData: BookingDetailPageData;
    };
    expect(page.loaderData.done).toBe("来店を記録しました。");
    expect(page.loaderData.booking.history.at(-1)).toMatchObject({
      what: "来店",
      who: "山田 花子",
    });

    const stale = await s.b.request(
      s.base,
      postForm({
        intent: "cancel",
        version: String(s.booking.version),
        category: "salon",
        message: "急病のため",
      }),
    );
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as ActionBody;
    expect(body.actionData.errors.form).toBe(
      "この予約は他の操作で変更されました。最新の内容を確認してください。",
    );
    expect(body.actionData.values).toMatchObject({ category: "salon", message: "急病のため" });
    expect((await rowOf(s.booking.id)).status).toBe("confirmed");
  });

  it("refuses hostile input with Japanese 4xx messages, keeping what was typed", async () => {
    const s = await pageScene();
    const version = String(s.booking.version);
    const cases: [Record<string, string | string[]>, string, RegExp][] = [
      [{ intent: "explode", version }, "form", /操作の種類/],
      [{ intent: "arrived", version: "abc" }, "version", /version/],
      [{ intent: "arrived", version: "-1" }, "version", /version/],
      [
        { intent: "cancel", version, category: "whim", message: "x" },
        "category",
        /キャンセルの理由/,
      ],
      [
        { intent: "cancel", version, category: "salon", message: "あ".repeat(501) },
        "message",
        /500文字以内/,
      ],
      [{ intent: "note", note: "メ".repeat(1001) }, "note", /1000文字以内/],
      [{ intent: "note", note: "ベル\u0007" }, "note", /制御文字/],
    ];
    for (const [fields, field, message] of cases) {
      const response = await s.b.request(s.base, postForm(fields));
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const body = (await response.json()) as ActionBody;
      expect(body.actionData.errors[field], field).toMatch(message);
      if (typeof fields.message === "string")
        expect(body.actionData.values.message).toBe(fields.message);
      if (typeof fields.note === "string") expect(body.actionData.values.note).toBe(fields.note);
    }
    // No-show before the start: refused with its reason.
    const early = await s.b.request(s.base, postForm({ intent: "no_show", version }));
    expect(early.status).toBe(422);
    expect(((await early.json()) as ActionBody).actionData.errors.form).toMatch(
      /開始時刻を過ぎてから/,
    );
    expect((await eventsOf(s.booking.id)).map((e) => e.kind)).toEqual(["created"]);
  });

  it("moves through the form: bad times and menus refused with values kept, outside the schedule after confirming, a conflict named", async () => {
    const s = await pageScene();
    const move = `${s.base}/move`;
    const typed = {
      intent: "move",
      version: String(s.booking.version),
      date: soon(),
      time: "16:00",
      staffId: s.second.id,
      menuIds: [s.menu.id],
    };
    const post = async (fields: Record<string, string | string[]>) => {
      const response = await s.b.request(move, postForm(fields));
      return {
        response,
        body: response.status === 302 ? null : ((await response.json()) as ActionBody),
      };
    };
    const hostile: [Record<string, string | string[]>, string, RegExp][] = [
      [{ time: "25:00" }, "time", /HH:MM/],
      [{ time: "" }, "time", /HH:MM/],
      [{ date: "2026-13-45" }, "date", /YYYY-MM-DD/],
      [{ staffId: "nobody" }, "staffId", /スタイリスト/],
      [{ menuIds: [] }, "menuIds", /メニュー/],
      [{ menuIds: ["not-a-uuid"] }, "menuIds", /メニュー/],
      [{ intent: "arrived" }, "form", /操作の種類/],
    ];
    for (const [change, field, message] of hostile) {
      const { response, body } = await post({ ...typed, ...change });
      expect(response.status, field).toBeGreaterThanOrEqual(400);
      expect(response.status, field).toBeLessThan(500);
      expect(body?.actionData.errors[field], field).toMatch(message);
      if (field !== "form") {
        expect(body?.actionData.values).toMatchObject({
          date: change.date ?? soon(),
          staffId: change.staffId ?? s.second.id,
        });
      }
    }

    const outside = await post({ ...typed, time: "19:30" });
    expect(outside.response.status).toBe(422);
    expect(outside.body?.actionData.needsConfirmation).toBe(true);
    expect(outside.body?.actionData.errors.confirmOutsideSchedule).toMatch(/勤務時間外/);
    expect(outside.body?.actionData.values).toMatchObject({ time: "19:30", menuIds: [s.menu.id] });

    await book(
      s.salon.id,
      s.visitor.id,
      [s.menu.id],
      s.second.id,
      soonAt("17:00"),
      "山田 花子",
      new Date(),
    );
    const conflict = await post({ ...typed, time: "16:30" });
    expect(conflict.response.status).toBe(409);
    expect(conflict.body?.actionData.errors.form).toContain(
      "17:00〜18:00の山田 花子様の予約（カット）と重なっています",
    );

    const confirmed = await post({ ...typed, time: "19:30", confirmOutsideSchedule: "on" });
    expect(confirmed.response.status).toBe(302);
    expect(confirmed.response.headers.get("location")).toBe(`${s.base}?done=move`);
    const row = await rowOf(s.booking.id);
    expect(row.startsAt).toEqual(soonAt("19:30"));
    expect(row.staffId).toBe(s.second.id);

    const page = (await (await s.b.request(move)).json()) as { loaderData: MovePageData };
    expect(page.loaderData.values).toMatchObject({
      time: "19:30",
      staffId: s.second.id,
      menuIds: [s.menu.id],
    });
  });

  it("shows a block with its label and releases it", async () => {
    const s = await pageScene();
    const block = await buildBooking(database.db, {
      salonId: s.salon.id,
      staffId: s.first.id,
      kind: "block",
      startsAt: soonAt("12:00"),
      endsAt: soonAt("13:00"),
      totalPrice: 0,
      source: "phone",
      salonNote: "打ち合わせ",
    });
    const path = `/owner/salons/${s.salon.id}/bookings/${block.id}`;
    const page = (await (await s.b.request(path)).json()) as { loaderData: BookingDetailPageData };
    expect(page.loaderData.booking).toMatchObject({
      kind: "block",
      salonNote: "打ち合わせ",
      statusLabel: "ブロック中",
      can: { release: true, cancel: false, move: false, arrive: false },
    });
    const released = await s.b.request(
      path,
      postForm({ intent: "release", version: String(block.version) }),
    );
    expect(released.status).toBe(302);
    expect(released.headers.get("location")).toBe(`${path}?done=release`);
    expect((await rowOf(block.id)).status).toBe("cancelled_by_salon");
  });
});

describe("the API /api/owner/salons/{id}/bookings/{bookingId}", () => {
  async function ownerClient(app: ReturnType<typeof createApiTestApp>["app"], salonId: string) {
    const user = await apiUser(app);
    await database.db
      .update(users)
      .set({ emailVerified: true, role: "owner" })
      .where(eq(users.id, user.userId));
    await database.db.insert(salonOwners).values({ salonId, userId: user.userId });
    return user;
  }

  it("answers the detail and the actions: 200, 400, 401, 404, 409, 422 — never 5xx", async () => {
    let clock = later(1);
    const server = createApiTestApp(database, { now: () => clock });
    try {
      const s = await scene();
      const other = await scene();
      const owner = await ownerClient(server.app, s.salon.id);
      const stranger = await ownerClient(server.app, other.salon.id);
      const path = `/api/owner/salons/${s.salon.id}/bookings/${s.booking.id}`;

      expect((await apiClient(server.app).request(path)).status).toBe(401);
      expect((await stranger.request(path)).status).toBe(404);
      expect(
        (await owner.request(`/api/owner/salons/${s.salon.id}/bookings/${other.booking.id}`))
          .status,
      ).toBe(404);

      const detail = await owner.request(path);
      expect(detail.status).toBe(200);
      const { data } = (await detail.json()) as {
        data: { version: number; startTime: string; history: { kind: string }[] };
      };
      expect(data).toMatchObject({ startTime: "14:00", history: [{ kind: "created" }] });

      const act = (json: unknown) => owner.request(`${path}/actions`, { method: "POST", json });
      // Two days ahead: 422 in Japanese (issue 38, §1.1); an hour before the start it is taken.
      const tooEarly = await act({ action: "arrived", version: data.version });
      expect(tooEarly.status).toBe(422);
      expect(((await tooEarly.json()) as { error: { message: string } }).error.message).toBe(
        "来店は予約の開始60分前（2026年12月3日(木) 13:00）から記録できます。予約の日時を確かめてください。",
      );
      clock = at("2026-12-03T13:00");
      const arrived = await act({ action: "arrived", version: data.version });
      expect(arrived.status).toBe(200);
      const after = (await arrived.json()) as {
        data: { version: number; arrivedAt: string | null };
      };
      expect(after.data.arrivedAt).not.toBeNull();
      expect(after.data.version).toBe(data.version + 1);

      const stale = await act({ action: "completed", version: data.version });
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { error: { message: string } }).error.message).toBe(
        "この予約は他の操作で変更されました。最新の内容を確認してください。",
      );
      const early = await act({ action: "no_show", version: after.data.version });
      expect(early.status).toBe(422);

      const hostile: unknown[] = [
        { action: "explode", version: 1 },
        { action: "arrived" },
        { action: "arrived", version: "1" },
        {
          action: "cancel",
          version: after.data.version,
          category: "salon",
          message: "あ".repeat(501),
        },
        {
          action: "move",
          version: after.data.version,
          date: "2026-12-03",
          time: "24:00",
          staffId: s.second.id,
          menuIds: [s.menu.id],
        },
        {
          action: "move",
          version: after.data.version,
          date: "2026-12-03",
          time: "15:00",
          staffId: "x",
          menuIds: [s.menu.id],
        },
        { action: "note", note: "x".repeat(1001) },
        [],
        "text",
      ];
      for (const body of hostile) {
        const response = await act(body);
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        const { error } = (await response.json()) as { error: { message: string } };
        expect(error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
      const malformed = await owner.request(`${path}/actions`, {
        method: "POST",
        body: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.status).toBe(400);
      expect(
        (await owner.request(`/api/owner/salons/${s.salon.id}/bookings/not-a-uuid`)).status,
      ).toBe(400);

      const moved = await act({
        action: "move",
        version: after.data.version,
        date: "2026-12-03",
        time: "16:00",
        staffId: s.second.id,
        menuIds: [s.menu.id],
      });
      expect(moved.status).toBe(200);
      const note = await act({ action: "note", note: "アレルギーあり" });
      expect(note.status).toBe(200);
      expect(((await note.json()) as { data: { salonNote: string } }).data.salonNote).toBe(
        "アレルギーあり",
      );
      // 取り消し through the API: the arrival the same day; what was not recorded, 422.
      const notDone = await act({
        action: "undo",
        version: after.data.version + 1,
        undo: "completed",
      });
      expect(notDone.status).toBe(422);
      expect(
        (await act({ action: "undo", version: after.data.version + 1, undo: "x" })).status,
      ).toBe(400);
      const undone = await act({
        action: "undo",
        version: after.data.version + 1,
        undo: "arrived",
      });
      expect(undone.status).toBe(200);
      expect(((await undone.json()) as { data: { arrivedAt: string | null } }).data.arrivedAt).toBe(
        null,
      );
      // Moved to 16:00: arrived again from 15:00.
      clock = at("2026-12-03T15:30");
      const again = await act({ action: "arrived", version: after.data.version + 2 });
      expect(again.status).toBe(200);
    } finally {
      server.close();
    }
  });
});
