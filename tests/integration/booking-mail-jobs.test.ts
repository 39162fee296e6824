import { once } from "node:events";
import { and, eq, like } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { bookingJobHandlers, bookingJobKinds } from "../../server/bookings/booking-jobs.server";
import { type DatabaseHandle, openDatabase } from "../../server/db/client";
import {
  bookings,
  couponMenus,
  coupons,
  jobs,
  mailOutbox,
  salonOwners,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { outboxSender } from "../../server/mail/mailer";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { readCalendar } from "../support/icalendar";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
/** On PostgreSQL, a second pool on the same database: another app server. */
let second: DatabaseHandle | null = null;
beforeAll(async () => {
  if (database.url) second = await openDatabase(database.url);
});
afterAll(async () => {
  await second?.close();
});

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
const HOUR = 3_600_000;
const log = createLogger("silent");
const handlers = bookingJobHandlers({
  mailFrom: "Salon Navi <no-reply@salon.example.jp>",
  publicUrl: "https://salon.example.jp",
});
const workerAt = (clock: () => Date, db = database.db, leaseMs?: number) =>
  createJobWorker({ db, handlers, log, now: clock, leaseMs });

/** A salon with an owner (and a plain user in salon_owners, who gets nothing) and a confirmed booking. */
async function confirmedBooking(
  start: string,
  options: { coupon?: string; studentOnly?: boolean } = {},
) {
  const { salon, menu } = await buildSalonWithStaff(database.db);
  let couponId: string | null = null;
  if (options.coupon) {
    const [coupon] = await database.db
      .insert(coupons)
      .values({
        salonId: salon.id,
        title: options.coupon,
        discountKind: "amount",
        discountValue: 1000,
        validFrom: "2026-11-01",
        studentOnly: options.studentOnly ?? false,
      })
      .returning();
    if (!coupon) throw new Error("coupon not inserted");
    await database.db.insert(couponMenus).values({ couponId: coupon.id, menuId: menu.id });
    couponId = coupon.id;
  }
  const owner = await buildUser(database.db, { role: "owner" });
  const notOwner = await buildUser(database.db);
  await database.db.insert(salonOwners).values([
    { salonId: salon.id, userId: owner.id },
    { salonId: salon.id, userId: notOwner.id },
  ]);
  const visitor = await buildUser(database.db);
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: salon.id,
    menuIds: [menu.id],
    staffId: null,
    start: at(start),
    userId: visitor.id,
    couponId,
    now: NOW,
  });
  const customer = {
    name: "予約 花子",
    kana: "よやく はなこ",
    phone: "090-1234-5678",
    email: `visitor-${hold.id.slice(0, 8)}@example.jp`,
  };
  const booking = await confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer,
    notes: "",
    idempotencyKey: null,
    studentDeclared: options.studentOnly ?? false,
    now: NOW,
  });
  return { salon, owner, notOwner, visitor, booking, customer };
}

const mailsTo = (to: string) =>
  database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.createdAt);

const reminderMailsTo = (to: string) =>
  database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), like(mailOutbox.subject, "%明日のご予約%")));

/** The .ics attached to a mail, parsed by ical.js (a second, independent implementation). */
function parsedCalendar(mail: typeof mailOutbox.$inferSelect) {
  expect(mail.attachments).toHaveLength(1);
  const [file] = mail.attachments;
  if (!file) throw new Error("no attachment");
  expect(file.contentType).toMatch(/^text\/calendar; charset=utf-8; method=(REQUEST|CANCEL)$/);
  const calendar = readCalendar(file.content);
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT");
  const dtstart = event.getFirstProperty("dtstart");
  return {
    method: calendar.getFirstPropertyValue("method"),
    timeZones: calendar
      .getAllSubcomponents("vtimezone")
      .map((zone) => zone.getFirstPropertyValue("tzid")),
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    status: event.getFirstPropertyValue("status"),
    tzid: dtstart?.getParameter("tzid"),
    start: String(dtstart?.getFirstValue()),
    organizer: String(event.getFirstPropertyValue("organizer")),
  };
}

describe("booking mails through the job queue", () => {
  it("enqueues the mails and the reminder in the confirmation, and sends nothing inline", async () => {
    const { booking, customer } = await confirmedBooking("2026-12-03T14:00");
    const queued = await database.db
      .select({ kind: jobs.kind, runAt: jobs.runAt, dedupeKey: jobs.dedupeKey })
      .from(jobs)
      .where(eq(jobs.salonId, booking.salonId))
      .orderBy(jobs.runAt);
    expect(queued).toEqual([
      { kind: bookingJobKinds.confirmed, runAt: NOW, dedupeKey: `confirmed:${booking.id}` },
      {
        kind: bookingJobKinds.reminder,
        runAt: at("2026-12-02T14:00"),
        dedupeKey: `reminder:${booking.id}`,
      },
    ]);
    expect(await mailsTo(customer.email)).toEqual([]);
  });

  it("mails the visitor and the salon's owners a confirmation with a parsable REQUEST .ics", async () => {
    const { booking, owner, notOwner, customer, salon } =
      await confirmedBooking("2026-12-03T14:00");
    expect(await workerAt(() => NOW).runOnce()).toBeGreaterThanOrEqual(1);

    const [visitorMail, ...more] = await mailsTo(customer.email);
    expect(more).toEqual([]);
    if (!visitorMail) throw new Error("no mail to the visitor");
    expect(visitorMail.subject).toBe(`【Salon Navi】ご予約が確定しました（${salon.name}）`);
    expect(visitorMail.text).toContain(`予約番号：${booking.bookingNumber}`);
    expect(visitorMail.text).toContain("日時：2026年12月3日(木) 14:00〜15:00");
    expect(visitorMail.text).toContain(`住所：${salon.address}`);
    expect(visitorMail.text).toContain("メニュー：カット（5,500円）");
    expect(visitorMail.text).toContain("スタッフ：指名なし（担当：スタイリスト1）");
    expect(visitorMail.text).toContain("合計金額：5,500円");
    expect(visitorMail.text).toContain("24時間前まで");
    expect(visitorMail.text).toContain("https://salon.example.jp/account/history");

    const ics = parsedCalendar(visitorMail);
    expect(ics).toMatchObject({
      method: "REQUEST",
      uid: `${booking.id}@salon.example.jp`,
      sequence: 0,
      status: "CONFIRMED",
      tzid: "Asia/Tokyo",
      start: "2026-12-03T14:00:00",
      organizer: "mailto:no-reply@salon.example.jp",
    });
    expect(ics.timeZones).toEqual(["Asia/Tokyo"]);

    const [ownerMail, ...moreOwner] = await mailsTo(owner.email);
    expect(moreOwner).toEqual([]);
    expect(ownerMail?.subject).toBe(
      "【Salon Navi】新しいご予約（Hair Salon TEST・2026年12月3日(木) 14:00〜15:00）",
    );
    expect(ownerMail?.text).toContain(`お客様：${customer.name}`);
    expect(ownerMail?.text).toContain(`電話番号：${customer.phone}`);
    expect(await mailsTo(notOwner.email)).toEqual([]);

    // Running again sends nothing more: the job is done.
    await workerAt(() => NOW).runOnce();
    expect(await mailsTo(customer.email)).toHaveLength(1);
  });

  it("names the coupon the total was priced with", async () => {
    const { customer } = await confirmedBooking("2026-12-03T16:00", {
      coupon: "カット1,000円オフ",
    });
    await workerAt(() => NOW).runOnce();
    const [mail] = await mailsTo(customer.email);
    expect(mail?.text).toContain("クーポン：カット1,000円オフ\n合計金額：4,500円（税込）");
  });

  it("reminds a visitor who booked a 学割 coupon to bring their student card; others not", async () => {
    const { customer } = await confirmedBooking("2026-12-03T17:00", {
      coupon: "学割カット",
      studentOnly: true,
    });
    const plain = await confirmedBooking("2026-12-03T18:00", { coupon: "カット割" });
    await workerAt(() => NOW).runOnce();
    const [mail] = await mailsTo(customer.email);
    expect(mail?.text).toContain("クーポン：学割カット（学割：ご来店時に学生証をご提示ください）");
    const [other] = await mailsTo(plain.customer.email);
    expect(other?.text).toContain("クーポン：カット割\n");
    expect(other?.text).not.toContain("学生証");
  });

  it("sends a CANCEL .ics with the same UID and a higher SEQUENCE on cancellation", async () => {
    const { booking, visitor, owner, customer } = await confirmedBooking("2026-12-04T11:00");
    await workerAt(() => NOW).runOnce();
    await cancelBooking(database.db, {
      bookingId: booking.id,
      userId: visitor.id,
      reason: "予定が変わったため",
      now: new Date(NOW.getTime() + HOUR),
    });
    await workerAt(() => new Date(NOW.getTime() + HOUR)).runOnce();

    const [confirmation, cancellation] = await mailsTo(customer.email);
    if (!confirmation || !cancellation) throw new Error("expected two mails");
    expect(cancellation.subject).toContain("ご予約をキャンセルしました");
    const before = parsedCalendar(confirmation);
    const after = parsedCalendar(cancellation);
    expect(after.method).toBe("CANCEL");
    expect(after.status).toBe("CANCELLED");
    expect(after.uid).toBe(before.uid);
    expect(Number(after.sequence)).toBeGreaterThan(Number(before.sequence));
    expect(after.tzid).toBe("Asia/Tokyo");

    const ownerMails = await mailsTo(owner.email);
    expect(ownerMails.map((mail) => mail.subject)).toEqual([
      "【Salon Navi】新しいご予約（Hair Salon TEST・2026年12月4日(金) 11:00〜12:00）",
      "【Salon Navi】ご予約のキャンセル（Hair Salon TEST・2026年12月4日(金) 11:00〜12:00）",
    ]);
    expect(ownerMails[1]?.text).toContain("キャンセル理由：予定が変わったため");
  });
});

describe("the day-before reminder", () => {
  it("is not due before the day before, and goes out once when it is", async () => {
    const { booking, customer } = await confirmedBooking("2026-12-05T15:00");
    await workerAt(() => NOW).runOnce();
    await workerAt(() => at("2026-12-04T14:59")).runOnce();
    expect(await reminderMailsTo(customer.email)).toEqual([]);

    await workerAt(() => at("2026-12-04T15:00")).runOnce();
    const [reminder, ...more] = await reminderMailsTo(customer.email);
    expect(more).toEqual([]);
    expect(reminder?.subject).toBe("【Salon Navi】明日のご予約のお知らせ（Hair Salon TEST）");
    expect(reminder?.text).toContain("日時：2026年12月5日(土) 15:00〜16:00");
    expect(parsedCalendar(reminder as typeof mailOutbox.$inferSelect).uid).toBe(
      `${booking.id}@salon.example.jp`,
    );
    const [row] = await database.db
      .select({ sentAt: bookings.reminderSentAt })
      .from(bookings)
      .where(eq(bookings.id, booking.id));
    expect(row?.sentAt).toEqual(at("2026-12-04T15:00"));
  });

  it("is sent exactly once by two workers running concurrently over the same database", async () => {
    const { customer } = await confirmedBooking("2026-12-06T12:00");
    const clock = () => at("2026-12-05T18:00");
    // On PostgreSQL the second worker has its own pool, as a second app server would.
    const workers = [workerAt(clock), workerAt(clock, second?.db ?? database.db)];
    const passes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => workers[i % 2]?.runOnce() ?? 0),
    );
    expect(passes.reduce((sum, done) => sum + done, 0)).toBeGreaterThanOrEqual(2);
    expect(await reminderMailsTo(customer.email)).toHaveLength(1);
  });

  it("is sent exactly once even when every lease runs out at once (each worker takes over the others)", async () => {
    const { booking, customer } = await confirmedBooking("2026-12-06T17:00");
    const clock = () => at("2026-12-05T18:00");
    // A lease of 0: every claim may be taken over at once, the worst case of slow workers.
    const workers = [
      workerAt(clock, database.db, 0),
      workerAt(clock, second?.db ?? database.db, 0),
    ];
    await Promise.all(Array.from({ length: 20 }, (_, i) => workers[i % 2]?.runOnce()));
    expect(await reminderMailsTo(customer.email)).toHaveLength(1);
    const [row] = await database.db
      .select({ doneAt: jobs.doneAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `reminder:${booking.id}`));
    expect(row?.doneAt).toEqual(clock());
  });

  it("is sent once after a restart: a job whose lease ran out mid-run is taken over, the old run loses", async () => {
    const { booking, customer } = await confirmedBooking("2026-12-07T13:00");
    await workerAt(() => NOW).runOnce();
    const due = at("2026-12-06T13:00");

    // Worker A claims the reminder, then its process "dies" before running it.
    const workerA = workerAt(() => due);
    const claimed = (await workerA.claim()).filter(
      (job) => job.dedupeKey === `reminder:${booking.id}`,
    );
    expect(claimed).toHaveLength(1);

    // A new worker after the restart: nothing while A's lease runs, the job once it has passed.
    expect(await workerAt(() => new Date(due.getTime() + 60_000)).runOnce()).toBe(0);
    expect(await workerAt(() => new Date(due.getTime() + 6 * 60_000)).runOnce()).toBe(1);
    expect(await reminderMailsTo(customer.email)).toHaveLength(1);

    // Worker A comes back and runs what it had claimed: no longer its job, nothing sent.
    const [job] = claimed;
    if (!job) throw new Error("no claimed job");
    expect(await workerA.run(job)).toBe(false);
    expect(await reminderMailsTo(customer.email)).toHaveLength(1);
  });

  it("is not sent for a booking cancelled before it was due", async () => {
    const { booking, visitor, customer } = await confirmedBooking("2026-12-08T16:00");
    await cancelBooking(database.db, {
      bookingId: booking.id,
      userId: visitor.id,
      reason: "",
      now: NOW,
    });
    await workerAt(() => at("2026-12-07T16:00")).runOnce();
    expect(await reminderMailsTo(customer.email)).toEqual([]);
    const [reminderJob] = await database.db
      .select({ doneAt: jobs.doneAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `reminder:${booking.id}`));
    expect(reminderJob?.doneAt).toEqual(at("2026-12-07T16:00"));
  });
});

describe("delivery of a booking mail over SMTP", () => {
  it("sends the .ics as a text/calendar part with its method", async () => {
    const { customer, booking } = await confirmedBooking("2026-12-09T10:00");
    await workerAt(() => NOW).runOnce();
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
    const sender = outboxSender({ database, smtpUrl: `smtp://127.0.0.1:${port}`, log });
    try {
      // Other tests' mails are in the outbox too; one pass sends a batch, so loop until ours went.
      while (!messages.some((m) => m.to === customer.email)) {
        if ((await sender.deliverPending()) === 0) break;
      }
    } finally {
      sender.close();
      server.close();
    }
    const raw = messages.find((m) => m.to === customer.email)?.raw ?? "";
    const unfolded = raw.replace(/\r\n[ \t]+/g, " ");
    expect(unfolded).toMatch(
      /Content-Type: text\/calendar; charset=utf-8; method=REQUEST; name=booking\.ics/i,
    );
    expect(unfolded).toMatch(/Content-Disposition: attachment; filename=booking\.ics/i);
    // nodemailer writes the file base64-encoded; decoded, it is the calendar the outbox kept.
    expect(unfolded).toMatch(/name=booking\.ics\r\nContent-Transfer-Encoding: base64/i);
    const encoded = raw.split(/filename=booking\.ics\r\n\r\n/)[1]?.split(/\r\n(\r\n|--)/)[0] ?? "";
    const decoded = Buffer.from(encoded.replace(/\s+/g, ""), "base64").toString("utf8");
    expect(readCalendar(decoded).getFirstPropertyValue("method")).toBe("REQUEST");
    expect(decoded.replace(/\r\n[ \t]/g, "")).toContain(`UID:${booking.id}@salon.example.jp`);
  });
});
