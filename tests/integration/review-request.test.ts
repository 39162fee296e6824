import { once } from "node:events";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import { salonActor } from "../../server/bookings/booking-history.server";
import { historyDetail } from "../../server/bookings/pages/history-page.server";
import { bookings, jobs, mailOutbox, salonOwners } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { outboxSender } from "../../server/mail/mailer";
import { markCompleted, undoStatus } from "../../server/owner/booking-actions.server";
import {
  enqueueReviewRequest,
  reviewRequestJobHandlers,
  reviewRequestKind,
  reviewRequestTime,
} from "../../server/reviews/review-request-jobs.server";
import { buildBooking, buildReview, buildSalonWithStaff, buildUser } from "../support/builders";
import { parseMail } from "../support/mail-message";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** The visit: Tuesday 1 December 2026, 14:00 in Tokyo; the salon marks it completed at 15:10. */
const VISIT = new Date("2026-12-01T14:00:00+09:00");
const COMPLETED_AT = new Date("2026-12-01T15:10:00+09:00");
const NEXT_MORNING = new Date("2026-12-02T10:00:00+09:00");
const PUBLIC_URL = "https://salon.example.jp";
const handlers = reviewRequestJobHandlers({
  mailFrom: "Salon Navi <no-reply@salon.example.jp>",
  publicUrl: PUBLIC_URL,
});
const runJobs = (now: Date) =>
  createJobWorker({
    db: database.db,
    handlers,
    log: createLogger("silent"),
    now: () => now,
  }).runOnce();

/** A visitor's confirmed booking at a salon with an owner, marked completed by the owner. */
async function completedVisit(options: { customerEmail?: string; withAccount?: boolean } = {}) {
  const { db } = database;
  const { salon, stylists } = await buildSalonWithStaff(db);
  const owner = await buildUser(db, { role: "owner" });
  await db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const visitor = await buildUser(db);
  const booking = await buildBooking(db, {
    salonId: salon.id,
    staffId: stylists[0]?.id ?? "",
    startsAt: VISIT,
    endsAt: new Date(VISIT.getTime() + 3_600_000),
    userId: options.withAccount === false ? null : visitor.id,
    customerName: "口コミ 花子",
    customerEmail: options.customerEmail ?? "",
  });
  const done = await markCompleted(
    db,
    { salonId: salon.id, bookingId: booking.id, version: booking.version },
    salonActor(owner.id),
    COMPLETED_AT,
  );
  return { salon, visitor, booking: done };
}

const requestJobs = (bookingId: string) =>
  database.db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.kind, reviewRequestKind), eq(jobs.dedupeKey, `review-request:${bookingId}`)),
    );

const requestMails = (to: string) =>
  database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

describe("the review request", () => {
  it("is due at 10:00 the next day in the salon's zone, whatever the hour of completion", () => {
    expect(reviewRequestTime(COMPLETED_AT, "Asia/Tokyo")).toEqual(NEXT_MORNING);
    // Completed at 23:30 or just after midnight: still the next local day's morning.
    expect(reviewRequestTime(new Date("2026-12-01T23:30:00+09:00"), "Asia/Tokyo")).toEqual(
      NEXT_MORNING,
    );
    expect(reviewRequestTime(new Date("2026-12-01T00:10:00+09:00"), "Asia/Tokyo")).toEqual(
      NEXT_MORNING,
    );
    // Another zone's morning: 10:00 in New York (EST, UTC−5).
    expect(reviewRequestTime(new Date("2026-12-01T20:00:00Z"), "America/New_York")).toEqual(
      new Date("2026-12-02T15:00:00Z"),
    );
  });

  it("completing a visit enqueues one job for the next morning, in the same transaction", async () => {
    const { booking } = await completedVisit();
    const queued = await requestJobs(booking.id);
    expect(queued).toHaveLength(1);
    expect(queued[0]?.runAt).toEqual(NEXT_MORNING);
    expect(queued[0]?.payload).toEqual({ bookingId: booking.id });
  });

  it("mails the customer once, the next morning, with the link to the review form", async () => {
    const { visitor, booking, salon } = await completedVisit();
    // Not before 10:00.
    await runJobs(new Date(NEXT_MORNING.getTime() - 60_000));
    expect(await requestMails(visitor.email)).toEqual([]);

    await runJobs(NEXT_MORNING);
    await runJobs(new Date(NEXT_MORNING.getTime() + 3_600_000));
    const mails = await requestMails(visitor.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe(
      `【Salon Navi】ご来店ありがとうございました・口コミのお願い（${salon.name}）`,
    );
    expect(mail?.text).toContain(`${PUBLIC_URL}/account/reviews/${booking.id}`);
    expect(mail?.text).toContain("ご来店日時：2026年12月1日(火) 14:00〜15:00");
    expect(mail?.text).toContain("口コミは2026年12月31日(木)まで投稿でき");
    expect(mail?.text).toContain("口コミ 花子 様");
  });

  it("sends nothing when the customer has already reviewed the visit", async () => {
    const { visitor, booking, salon } = await completedVisit();
    await buildReview(database.db, salon.id, { bookingId: booking.id, userId: visitor.id });
    await runJobs(NEXT_MORNING);
    expect(await requestMails(visitor.email)).toEqual([]);
    const [job] = await requestJobs(booking.id);
    expect(job?.doneAt).not.toBeNull();
  });

  it("sends nothing when the visit is no longer completed, or the write window closed", async () => {
    const reopened = await completedVisit();
    await database.db
      .update(bookings)
      .set({ status: "no_show" })
      .where(eq(bookings.id, reopened.booking.id));
    await runJobs(NEXT_MORNING);
    expect(await requestMails(reopened.visitor.email)).toEqual([]);

    const late = await completedVisit();
    await runJobs(new Date("2027-01-01T10:00:00+09:00"));
    expect(await requestMails(late.visitor.email)).toEqual([]);
  });

  it("an undone completion is never asked, and the visitor's history no longer offers 口コミを書く (issue 38, §1.1)", async () => {
    const { visitor, booking, salon } = await completedVisit();
    const before = await historyDetail(database.db, visitor.id, booking.id, COMPLETED_AT);
    expect(before.booking).toMatchObject({ status: "completed", reviewHref: expect.any(String) });
    const undone = await undoStatus(
      database.db,
      { salonId: salon.id, bookingId: booking.id, version: booking.version, undo: "completed" },
      salonActor(visitor.id),
      new Date("2026-12-01T15:20:00+09:00"),
    );
    expect(undone.status).toBe("confirmed");
    // The pending request is gone with it…
    expect(await requestJobs(booking.id)).toEqual([]);
    await runJobs(NEXT_MORNING);
    expect(await requestMails(visitor.email)).toEqual([]);
    const after = await historyDetail(database.db, visitor.id, booking.id, NEXT_MORNING);
    expect(after.booking).toMatchObject({ status: "confirmed", review: null, reviewHref: null });
    // …and a request left by any other path is checked at send time (still not completed).
    await enqueueReviewRequest(database.db, booking, salon.timeZone, COMPLETED_AT);
    await runJobs(NEXT_MORNING);
    expect(await requestMails(visitor.email)).toEqual([]);
  });

  it("a booking the salon entered without an account is not asked (no one could write the review)", async () => {
    const { booking } = await completedVisit({
      withAccount: false,
      customerEmail: "walk-in@example.jp",
    });
    expect(await requestJobs(booking.id)).toEqual([]);
    await runJobs(NEXT_MORNING);
    expect(await requestMails("walk-in@example.jp")).toEqual([]);
  });
});

describe("delivery of the review request over SMTP", () => {
  it("arrives once, in Japanese, with the form's link in the text and the HTML", async () => {
    const { visitor, booking, salon } = await completedVisit();
    await runJobs(NEXT_MORNING);
    const messages: { to: string; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address).join(","),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as { port: number };
    const sender = outboxSender({
      database,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      log: createLogger("silent"),
    });
    try {
      // Other tests' mails are in the outbox too; one pass sends a batch, so loop until none is left.
      while ((await sender.deliverPending()) > 0) {}
    } finally {
      sender.close();
      server.close();
    }
    const ours = messages.filter((m) => m.to === visitor.email);
    expect(ours).toHaveLength(1);
    const mail = parseMail(ours[0]?.raw ?? "");
    const link = `${PUBLIC_URL}/account/reviews/${booking.id}`;
    expect(mail.subject).toBe(
      `【Salon Navi】ご来店ありがとうございました・口コミのお願い（${salon.name}）`,
    );
    expect(mail.text).toContain(link);
    expect(mail.links).toContain(link);
    expect(mail.text).toContain("口コミは2026年12月31日(木)まで投稿でき");
  });
});
