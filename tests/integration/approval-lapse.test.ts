import { and, asc, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { HoldStep } from "../../app/components/bookings/booking-hold-step";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import { addDays, calendarDay } from "../../common/local-time";
import { approvalLapseJobKind } from "../../server/bookings/approval.server";
import { approvalDeadline, formatApprovalDeadline } from "../../server/bookings/approval-deadline";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import type { HoldView } from "../../server/bookings/pages/confirm-page.server";
import {
  bookingEvents,
  bookings,
  jobs,
  mailOutbox,
  salonOwners,
  waitlistEntries,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { approvalLapseJobHandlers } from "../../server/owner/approval-lapse-jobs.server";
import {
  approveBooking,
  moveBooking,
  refuseBooking,
} from "../../server/owner/booking-actions.server";
import { waitlistJobKinds } from "../../server/waitlist/waitlist-trigger.server";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * A 仮予約 the salon leaves unanswered lapses at a bound (issue 38, §1.2;
 * decision 0071): the deadline rule, the request said as one on the confirm
 * step before the click, and the job that declines it through the salon's
 * decline path with a mail — and leaves alone a request already answered.
 */

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
const HOUR = 3_600_000;
const log = createLogger("silent");
const handlers = {
  ...bookingJobHandlers({
    mailFrom: "Salon Navi <no-reply@salon.example.jp>",
    publicUrl: "https://salon.example.jp",
  }),
  ...approvalLapseJobHandlers(),
};
const runJobs = (now: Date) =>
  createJobWorker({ db: database.db, handlers, log, now: () => now }).runOnce();

let counter = 0;

async function book(salonId: string, menuId: string, staffId: string, start: Date, now = NOW) {
  const visitor = await buildUser(database.db);
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds: [menuId],
    staffId,
    start,
    userId: visitor.id,
    now,
  });
  counter += 1;
  return confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer: {
      name: "期限 花子",
      kana: "きげん はなこ",
      phone: "090-1234-5678",
      email: `lapse-${counter}-${hold.id.slice(0, 6)}@example.jp`,
    },
    notes: "",
    idempotencyKey: null,
    now,
  });
}

async function scene(
  options: { requiresApproval?: boolean; approvalAnswerHours?: number; start?: Date } = {},
) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    staffCount: 1,
    settings: {
      requiresApproval: options.requiresApproval ?? true,
      approvalAnswerHours: options.approvalAnswerHours ?? 24,
    },
  });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const start = options.start ?? at("2026-12-03T14:00");
  const booking = await book(salon.id, menu.id, stylist.id, start);
  return { salon, stylist, menu, owner, booking, start };
}

const rowOf = async (id: string) => {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error("no booking");
  return row;
};

const lapseJobsOf = (bookingId: string) =>
  database.db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.kind, approvalLapseJobKind), eq(jobs.dedupeKey, `approval-lapse:${bookingId}`)),
    );

const mailsTo = (to: string) =>
  database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .orderBy(asc(mailOutbox.createdAt));

describe("the deadline of a 仮予約", () => {
  it("is the salon's answer window from the request, but an hour before the start at the latest", () => {
    // The window ends first.
    expect(approvalDeadline(NOW, at("2026-12-03T14:00"), 24)).toEqual(at("2026-12-02T09:00"));
    // The start comes first: an hour before it.
    expect(approvalDeadline(NOW, at("2026-12-01T15:00"), 24)).toEqual(at("2026-12-01T14:00"));
    expect(approvalDeadline(NOW, at("2026-12-01T15:00"), 2)).toEqual(at("2026-12-01T11:00"));
    // Less than that hour left: the start itself, never a lapse at once.
    expect(approvalDeadline(NOW, at("2026-12-01T09:30"), 24)).toEqual(at("2026-12-01T09:30"));
    expect(approvalDeadline(NOW, at("2026-12-01T10:00"), 24)).toEqual(at("2026-12-01T10:00"));
    expect(formatApprovalDeadline(at("2026-11-23T18:00"), "Asia/Tokyo")).toBe(
      "2026年11月23日(月) 18:00",
    );
  });

  it("is stored with the pending booking and its lapse job is due then; none without approval", async () => {
    const s = await scene({ approvalAnswerHours: 6 });
    expect(s.booking).toMatchObject({ approval: "pending" });
    expect(s.booking.approvalExpiresAt).toEqual(at("2026-12-01T15:00"));
    const [job] = await lapseJobsOf(s.booking.id);
    expect(job?.runAt).toEqual(at("2026-12-01T15:00"));
    // The 仮予約 mail says the deadline too.
    await runJobs(NOW);
    const [mail] = await mailsTo(s.booking.customerEmail);
    expect(mail?.text).toContain("サロンの回答期限：2026年12月1日(火) 15:00");

    const plain = await scene({ requiresApproval: false });
    expect(plain.booking).toMatchObject({ approval: null, approvalExpiresAt: null });
    expect(await lapseJobsOf(plain.booking.id)).toEqual([]);
  });
});

describe("a 仮予約 moved by the salon", () => {
  it("brings its deadline and lapse job forward when the new start is earlier, and keeps them when later", async () => {
    // Requested at 09:00 for 12/3 14:00 with 24 hours: the deadline is 12/2 09:00.
    const s = await scene();
    expect(s.booking.approvalExpiresAt).toEqual(at("2026-12-02T09:00"));
    const move = async (date: string, time: string, version: number) =>
      moveBooking(
        database.db,
        {
          salonId: s.salon.id,
          bookingId: s.booking.id,
          version,
          date,
          time,
          staffId: s.stylist.id,
          menuIds: [s.menu.id],
          confirmOutsideSchedule: true,
        },
        salonActor(s.owner.id),
        NOW,
      );
    // Later: the visitor was told 12/2 09:00, and that stays.
    const later = await move("2026-12-04", "14:00", s.booking.version);
    expect(later.approvalExpiresAt).toEqual(at("2026-12-02T09:00"));
    expect((await lapseJobsOf(s.booking.id))[0]?.runAt).toEqual(at("2026-12-02T09:00"));
    // Earlier, to today 13:00: an hour before the new start, the job with it.
    const earlier = await move("2026-12-01", "13:00", later.version);
    expect(earlier.approvalExpiresAt).toEqual(at("2026-12-01T12:00"));
    expect((await rowOf(s.booking.id)).approvalExpiresAt).toEqual(at("2026-12-01T12:00"));
    expect((await lapseJobsOf(s.booking.id))[0]?.runAt).toEqual(at("2026-12-01T12:00"));
    // Unanswered then, it lapses then (not at the old deadline, after the visit).
    await runJobs(at("2026-12-01T12:00"));
    expect(await rowOf(s.booking.id)).toMatchObject({ status: "cancelled_by_salon" });
  });
});

describe("the lapse job", () => {
  it("declines a request still pending at its deadline as the system: history, the time freed, the waiting list told, a mail", async () => {
    const s = await scene({ approvalAnswerHours: 24 });
    const deadline = at("2026-12-02T09:00");
    // Someone waits for a time that day (10:00–18:00, in minutes).
    const waiting = await buildUser(database.db);
    await database.db.insert(waitlistEntries).values({
      salonId: s.salon.id,
      userId: waiting.id,
      menuIds: [s.menu.id],
      date: "2026-12-03",
      windowStart: 600,
      windowEnd: 1080,
    });

    // Before the deadline nothing happens.
    await runJobs(new Date(deadline.getTime() - 60_000));
    expect(await rowOf(s.booking.id)).toMatchObject({ status: "confirmed", approval: "pending" });

    await runJobs(deadline);
    const lapsed = await rowOf(s.booking.id);
    expect(lapsed).toMatchObject({
      status: "cancelled_by_salon",
      approval: "refused",
      cancelledBy: "system",
      cancelCategory: "salon",
      cancelReason: "",
    });
    const events = await database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, s.booking.id))
      .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: "cancelled", actorKind: "system", actorUserId: null });
    expect(last?.details).toMatchObject({ approval: "refused", lapsed: true });

    // The freed time goes to the waiting list as a salon's decline's does (the slot notice).
    const matches = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, waitlistJobKinds.match), eq(jobs.salonId, s.salon.id)));
    expect(matches.length).toBeGreaterThan(0);

    // The visitor's mail says the request lapsed, not that the salon refused it.
    await runJobs(deadline);
    const mails = await mailsTo(s.booking.customerEmail);
    const mail = mails.at(-1);
    expect(mail?.subject).toContain("仮予約の期限が過ぎたため");
    expect(mail?.text).toContain("回答期限までに");
    expect(mail?.text).not.toContain("サロンからのメッセージ");

    // The time is free for another visitor.
    const again = await book(s.salon.id, s.menu.id, s.stylist.id, s.start, deadline);
    expect(again.status).toBe("confirmed");
  });

  it("does nothing when the salon approved or declined first", async () => {
    const approved = await scene();
    await approveBooking(
      database.db,
      {
        salonId: approved.salon.id,
        bookingId: approved.booking.id,
        version: approved.booking.version,
      },
      salonActor(approved.owner.id),
      new Date(NOW.getTime() + HOUR),
    );
    const refused = await scene({ start: at("2026-12-03T16:00") });
    await refuseBooking(
      database.db,
      {
        salonId: refused.salon.id,
        bookingId: refused.booking.id,
        version: refused.booking.version,
        message: "その日は研修です。",
      },
      salonActor(refused.owner.id),
      new Date(NOW.getTime() + HOUR),
    );
    const beforeApproved = await rowOf(approved.booking.id);
    const beforeRefused = await rowOf(refused.booking.id);

    await runJobs(at("2026-12-02T09:00"));
    expect((await lapseJobsOf(approved.booking.id))[0]?.doneAt).not.toBeNull();
    expect(await rowOf(approved.booking.id)).toEqual(beforeApproved);
    expect(await rowOf(refused.booking.id)).toEqual(beforeRefused);
    expect((await rowOf(refused.booking.id)).cancelledBy).toBe("salon");
    const subjects = (await mailsTo(approved.booking.customerEmail)).map((m) => m.subject);
    expect(subjects.some((subject) => subject.includes("期限が過ぎた"))).toBe(false);
    const refusedSubjects = (await mailsTo(refused.booking.customerEmail)).map((m) => m.subject);
    expect(
      refusedSubjects.filter((subject) => subject.includes("お受けできませんでした")),
    ).toHaveLength(1);
    expect(refusedSubjects.some((subject) => subject.includes("期限が過ぎた"))).toBe(false);
  });
});

/** The hold step as the route draws it, for the view last loaded (a data router for its form). */
let drawn: HoldView | null = null;
function DrawnHoldStep() {
  if (!drawn) throw new Error("no view");
  return createElement(HoldStep, { view: drawn, signInHref: "/signin", result: null });
}

describe("the confirm step says a request before the click", () => {
  const env = () =>
    createRouteApp(database, [
      { path: "/salons/:id/confirm", module: confirmRoute },
      { path: "/salons/:id/confirm/thanks", module: thanksRoute },
    ]);
  const tomorrow = () => addDays(calendarDay(new Date(), "Asia/Tokyo"), 2);

  /** The hold step's loader data and its HTML, for a member who picked 13:00. */
  async function holdStep(requiresApproval: boolean) {
    const e = env();
    const { salon, menu } = await buildSalonWithStaff(database.db, {
      staffCount: 1,
      settings: { requiresApproval, approvalAnswerHours: 24 },
    });
    const member = await signedInMember(database, e, requiresApproval ? "asks" : "books");
    const pickPath = `/salons/${salon.slug}/confirm?menu=${menu.id}&date=${tomorrow()}`;
    const pick = (await (await member.b.request(pickPath)).json()) as {
      loaderData: { view: { times: { time: string; start: string }[] } };
    };
    const slot = pick.loaderData.view.times.find((time) => time.time === "13:00");
    if (!slot) throw new Error("13:00 not offered");
    const held = await member.b.request(
      `/salons/${salon.slug}/confirm`,
      postForm({ intent: "hold", menu: menu.id, date: tomorrow(), start: slot.start }),
    );
    const holdPath = held.headers.get("location") ?? "";
    const body = (await (await member.b.request(holdPath)).json()) as {
      loaderData: { view: HoldView };
    };
    const view = body.loaderData.view;
    drawn = view;
    const Stub = createRoutesStub([{ path: "/", Component: DrawnHoldStep }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll(
      "<!-- -->",
      "",
    );
    return { view, html, salon, member, holdPath };
  }

  it("with approval on: 予約をリクエストする, 仮予約 until approved, the salon's answer deadline and the lapse", async () => {
    const { view, html } = await holdStep(true);
    expect(view.kind).toBe("hold");
    expect(view.approval?.deadlineLabel).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日\(.\) \d\d:\d\d$/);
    // The deadline as the rule gives it for a request sent now.
    const deadline = new Date(view.approval?.deadline ?? "");
    const rule = approvalDeadline(new Date(view.now), new Date(view.summary.start), 24);
    expect(deadline).toEqual(rule);
    expect(html).toContain("内容を確認して予約をリクエストする");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>予約をリクエストする<\/button>/);
    expect(html).not.toContain("予約を確定する");
    expect(html).toContain("仮予約");
    expect(html).toContain(view.approval?.deadlineLabel ?? "none");
    expect(html).toContain("自動的に取り消され");
  });

  it("with approval off: 予約を確定する as before, no request wording", async () => {
    const { view, html } = await holdStep(false);
    expect(view.approval).toBeNull();
    expect(html).toContain("内容を確認して予約を確定する");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>予約を確定する<\/button>/);
    expect(html).not.toContain("リクエスト");
  });

  it("the thanks page after a request says 仮予約 and the deadline", async () => {
    const { view, member, salon, holdPath } = await holdStep(true);
    const sent = await member.b.request(
      holdPath,
      postForm({
        intent: "confirm",
        hold: view.holdId,
        idempotencyKey: view.idempotencyKey,
        name: "山田 花子",
        nameKana: "ヤマダ ハナコ",
        phone: "09012345678",
        email: "asks@example.jp",
      }),
    );
    const thanksPath = sent.headers.get("location") ?? "";
    expect(thanksPath).toContain(`/salons/${salon.slug}/confirm/thanks`);
    const thanks = (await (await member.b.request(thanksPath)).json()) as {
      loaderData: { view: { pending: boolean; approvalDeadlineLabel: string | null } };
    };
    expect(thanks.loaderData.view.pending).toBe(true);
    expect(thanks.loaderData.view.approvalDeadlineLabel).toMatch(
      /^\d{4}年\d{1,2}月\d{1,2}日\(.\) \d\d:\d\d$/,
    );
  });
});
