import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminHome } from "../../server/admin/admin-home.server";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import { loadConfig } from "../../server/config";
import {
  authAccounts,
  jobs,
  lineFollows,
  lineMessages,
  mailOutbox,
  messageChannels,
} from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createJobWorker } from "../../server/jobs/queue.server";
import type { FakeLine } from "../../server/line/fake/fake-line.server";
import { type LineChannel, startFakeLine } from "../../server/line/line-channel.server";
import {
  lineMonthUsage,
  linePushKind,
  sendVisitorMessage,
} from "../../server/line/line-messages.server";
import { LINE_PUSH_ATTEMPTS, linePushJobHandlers } from "../../server/line/line-push-jobs.server";
import { createLogger } from "../../server/logger";
import { createMailer } from "../../server/mail/mailer";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const log = createLogger("silent");
const MAIL_FROM = "Salon Navi <no-reply@salon.example.jp>";
const PUBLIC_URL = "https://salon.example.jp";
/** Tuesday 1 December 2026, 09:00 in Tokyo: outside the quiet hours. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);

let fake: FakeLine;
let channel: LineChannel;
beforeAll(async () => {
  ({ fake, channel } = await startFakeLine({ timeoutMs: 2_000 }));
});
afterAll(async () => {
  await channel.close();
});
beforeEach(() => fake.reset());

function workerAt(clock: () => Date, { quota = 1000 }: { quota?: number } = {}) {
  return createJobWorker({
    db: database.db,
    handlers: {
      ...bookingJobHandlers({
        mailFrom: MAIL_FROM,
        publicUrl: PUBLIC_URL,
        line: true,
        quietHours: true,
      }),
      ...linePushJobHandlers({ channel, monthlyQuota: quota, mailFrom: MAIL_FROM, log }),
    },
    log,
    now: clock,
  });
}

/** Passes until nothing due is left to do (a failed job waits for its backoff). */
async function drain(clock: Date, options: { quota?: number } = {}) {
  const worker = workerAt(() => clock, options);
  for (let i = 0; i < 10; i++) if ((await worker.runOnce()) === 0) return;
}

const newLineUserId = () => `U${randomBytes(16).toString("hex")}`;

/** The account signed in with LINE (or linked it) and follows the official account. */
async function linkLine(userId: string, following = true) {
  const lineUserId = newLineUserId();
  await database.db.insert(authAccounts).values({
    id: randomUUID(),
    userId,
    accountId: lineUserId,
    providerId: "line",
  });
  await database.db
    .insert(lineFollows)
    .values({ lineUserId, following, changedAt: new Date("2026-11-01T00:00:00Z") });
  return lineUserId;
}

async function booked(options: { line?: boolean; following?: boolean } = {}) {
  const { salon, menu } = await buildSalonWithStaff(database.db);
  const visitor = await buildUser(database.db);
  const lineUserId =
    options.line === false ? null : await linkLine(visitor.id, options.following ?? true);
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: salon.id,
    menuIds: [menu.id],
    staffId: null,
    start: at("2026-12-03T10:00"),
    userId: visitor.id,
    now: NOW,
  });
  const email = `line-${hold.id.slice(0, 8)}@example.jp`;
  const booking = await confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer: { name: "線 花子", kana: "せん はなこ", phone: "090-1234-5678", email },
    notes: "",
    idempotencyKey: null,
    studentDeclared: false,
    now: NOW,
  });
  return { salon, menu, visitor, lineUserId, booking, email };
}

const mailsTo = (to: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
const rowsOf = (bookingId: string) =>
  database.db.select().from(lineMessages).where(eq(lineMessages.bookingId, bookingId));
const textsTo = (lineUserId: string) =>
  fake.receivedBy(lineUserId).flatMap((push) => push.messages.map((m) => String(m.text)));
const pushJobOf = async (bookingId: string) => {
  const [row] = await rowsOf(bookingId);
  const [job] = await database.db
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `${linePushKind}:${row?.id}`));
  return job;
};
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe("LINE messages (issue 41 §1)", () => {
  it("sends a LINE-linked visitor's confirmation by LINE, not by mail, with the row's id as retry key", async () => {
    const { lineUserId, booking, email, menu } = await booked();
    await drain(NOW);
    const [row] = await rowsOf(booking.id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, kind: "booking" });
    expect(row?.sentAt?.toISOString()).toBe(NOW.toISOString());
    const pushes = fake.receivedBy(lineUserId ?? "");
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.retryKey).toBe(row?.id);
    const [text] = textsTo(lineUserId ?? "");
    expect(text).toContain("ご予約が確定しました");
    expect(text).toContain("日時：2026年12月3日(木) 10:00〜11:00");
    expect(text).toContain(`メニュー：${menu.name}`);
    expect(text).toMatch(/合計金額：[\d,]+円（税込）/);
    expect(text).toContain(`${PUBLIC_URL}/account/history`);
    // The mail stays as the row's fallback, and is not sent.
    expect(row?.fallbackMail?.to).toBe(email);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("counts LINE's 409 for a retry key it already accepted as sent, and delivers once", async () => {
    const { lineUserId, booking } = await booked();
    // The confirmation job writes the row; the push job has not run yet.
    const worker = workerAt(() => NOW);
    await worker.runOnce();
    const [row] = await rowsOf(booking.id);
    if (!row || !lineUserId) throw new Error("no LINE message");
    // An earlier attempt reached LINE, and its answer was lost.
    expect(
      await channel.push({ to: lineUserId, messages: row.messages as never, retryKey: row.id }),
    ).toEqual({ kind: "sent" });
    await drain(NOW);
    expect((await rowsOf(booking.id))[0]?.status).toBe("sent");
    expect(fake.receivedBy(lineUserId)).toHaveLength(1);
    expect(fake.requests.at(-1)).toMatchObject({ status: 409, retryKey: row.id });
  });

  it("retries 429 and 500 with the queue's backoff, the same retry key each time, then sends", async () => {
    const { lineUserId, booking } = await booked();
    fake.failNext(1, 429);
    fake.failNext(1, 500);
    await drain(NOW);
    expect(fake.receivedBy(lineUserId ?? "")).toHaveLength(0);
    const job = await pushJobOf(booking.id);
    // The queue's backoff: 30 s after the first failure, 60 s after the second.
    expect(job?.runAt.toISOString()).toBe(later(30).toISOString());
    await drain(later(30));
    expect(fake.receivedBy(lineUserId ?? "")).toHaveLength(0);
    await drain(later(90));
    const [row] = await rowsOf(booking.id);
    expect(row).toMatchObject({ status: "sent", attempts: 3 });
    const pushes = fake.requests.filter((r) => r.path === "/v2/bot/message/push");
    expect(pushes.map((r) => r.status)).toEqual([429, 500, 200]);
    expect(new Set(pushes.map((r) => r.retryKey))).toEqual(new Set([row?.id]));
  });

  it("sends the mail instead when LINE keeps failing past its retries", async () => {
    const { lineUserId, booking, email } = await booked();
    fake.failNext(100, 500);
    let clock = NOW;
    for (let attempt = 0; attempt < LINE_PUSH_ATTEMPTS; attempt++) {
      await drain(clock);
      clock = (await pushJobOf(booking.id))?.runAt ?? clock;
    }
    const [row] = await rowsOf(booking.id);
    expect(row).toMatchObject({ status: "fell_back", attempts: LINE_PUSH_ATTEMPTS });
    expect(row?.lastError).toContain("500");
    expect(fake.receivedBy(lineUserId ?? "")).toHaveLength(0);
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining("ご予約が確定しました")]);
    // The mail keeps its calendar file.
    expect(mails[0]?.attachments[0]?.filename).toBe("booking.ics");
  });

  it("does not retry another 4xx: the mail goes at once", async () => {
    const { booking, email } = await booked();
    await workerAt(() => NOW).runOnce();
    const [row] = await rowsOf(booking.id);
    if (!row) throw new Error("no LINE message");
    // LINE refuses the push with 400 (here: a user id it does not know the form of).
    await database.db
      .update(lineMessages)
      .set({ lineUserId: "not-a-line-user" })
      .where(eq(lineMessages.id, row.id));
    await database.db
      .insert(lineFollows)
      .values({ lineUserId: "not-a-line-user", following: true, changedAt: NOW });
    await drain(NOW);
    const [after] = await rowsOf(booking.id);
    expect(after).toMatchObject({ status: "fell_back", attempts: 1 });
    expect(after?.lastError).toContain("400");
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("sends the mail once the month's LINE quota is spent", async () => {
    const { lineUserId, booking, email } = await booked();
    const used = await lineMonthUsage(database.db, NOW);
    await drain(NOW, { quota: used.sent });
    const [row] = await rowsOf(booking.id);
    expect(row).toMatchObject({ status: "fell_back", lastError: "monthly quota spent" });
    expect(fake.receivedBy(lineUserId ?? "")).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(1);
    const after = await lineMonthUsage(database.db, NOW);
    expect(after).toEqual({ sent: used.sent, fellBack: used.fellBack + 1 });
    // The administrator's home shows the month's use against the quota.
    const home = await adminHome(database.db, {}, NOW, 5000);
    expect(home.line).toEqual({ sent: used.sent, fellBack: used.fellBack + 1, quota: 5000 });
    // Another month starts from nothing.
    expect(await lineMonthUsage(database.db, new Date("2027-01-01T00:00:00+09:00"))).toEqual({
      sent: 0,
      fellBack: 0,
    });
  });

  it("sends by mail to an account that unfollowed the official account, or unfollows before the push", async () => {
    const never = await booked({ following: false });
    await drain(NOW);
    expect(await rowsOf(never.booking.id)).toHaveLength(0);
    expect(await mailsTo(never.email)).toHaveLength(1);

    const meanwhile = await booked();
    await workerAt(() => NOW).runOnce();
    await database.db
      .update(lineFollows)
      .set({ following: false, changedAt: NOW })
      .where(eq(lineFollows.lineUserId, meanwhile.lineUserId ?? ""));
    await drain(NOW);
    expect((await rowsOf(meanwhile.booking.id))[0]).toMatchObject({
      status: "fell_back",
      lastError: "unfollowed",
    });
    expect(fake.receivedBy(meanwhile.lineUserId ?? "")).toHaveLength(0);
    expect(await mailsTo(meanwhile.email)).toHaveLength(1);
  });

  it("sends both when the visitor chose 'both', with no mail kept to fall back to", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db);
    const visitor = await buildUser(database.db);
    const lineUserId = await linkLine(visitor.id);
    await database.db
      .insert(messageChannels)
      .values({ userId: visitor.id, kind: "booking", channel: "both" });
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: at("2026-12-03T11:00"),
      userId: visitor.id,
      now: NOW,
    });
    const email = `both-${hold.id.slice(0, 8)}@example.jp`;
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: visitor.id,
      customer: { name: "両方 花子", kana: "りょうほう はなこ", phone: "090-1234-5678", email },
      notes: "",
      idempotencyKey: null,
      studentDeclared: false,
      now: NOW,
    });
    await drain(NOW);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(textsTo(lineUserId)).toEqual([expect.stringContaining("ご予約が確定しました")]);
    expect((await rowsOf(booking.id))[0]).toMatchObject({ status: "sent", fallbackMail: null });
  });

  it("keeps the quiet hours for what the customer did not ask for, not for what answers them", async () => {
    const visitor = await buildUser(database.db);
    const lineUserId = await linkLine(visitor.id);
    const night = new Date("2026-12-01T23:30:00+09:00");
    const morning = new Date("2026-12-02T08:00:00+09:00");
    const send = (text: string, ownAction: boolean) =>
      database.db.transaction((tx) =>
        sendVisitorMessage(
          tx,
          createMailer(tx, { from: MAIL_FROM }),
          {
            userId: visitor.id,
            kind: "reminder",
            mail: { to: "night@example.jp", subject: text, text, html: text },
            line: () => [{ type: "text", text }],
            salonId: null,
            bookingId: null,
            timeZone: "Asia/Tokyo",
            ownAction,
            now: night,
          },
          { line: true, quietHours: true },
        ),
      );
    await send("お知らせ（夜）", false);
    await send("ご予約の変更を承りました", true);
    await drain(night);
    expect(textsTo(lineUserId)).toEqual(["ご予約の変更を承りました"]);
    await drain(new Date(morning.getTime() - 60_000));
    expect(textsTo(lineUserId)).toHaveLength(1);
    await drain(morning);
    expect(textsTo(lineUserId)).toEqual(["ご予約の変更を承りました", "お知らせ（夜）"]);
  });

  it("holds a push whose retry falls in the quiet hours until they end", async () => {
    const visitor = await buildUser(database.db);
    const lineUserId = await linkLine(visitor.id);
    const evening = new Date("2026-12-01T21:59:50+09:00");
    await database.db.transaction((tx) =>
      sendVisitorMessage(
        tx,
        createMailer(tx, { from: MAIL_FROM }),
        {
          userId: visitor.id,
          kind: "review",
          mail: { to: "", subject: "口コミ", text: "口コミ", html: "口コミ" },
          line: () => [{ type: "text", text: "口コミのお願い" }],
          salonId: null,
          bookingId: null,
          timeZone: "Asia/Tokyo",
          ownAction: false,
          now: evening,
        },
        { line: true, quietHours: true },
      ),
    );
    fake.failNext(1, 500);
    await drain(evening);
    // The retry, 30 s later, is past 22:00: it waits for 08:00.
    await drain(new Date(evening.getTime() + 30_000));
    expect(textsTo(lineUserId)).toEqual([]);
    await drain(new Date("2026-12-02T08:00:00+09:00"));
    expect(textsTo(lineUserId)).toEqual(["口コミのお願い"]);
    const pushes = fake.requests.filter((r) => r.path === "/v2/bot/message/push");
    expect(pushes.map((r) => r.status)).toEqual([500, 200]);
  });

  it("sends by mail only when the server has no LINE channel", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db);
    const visitor = await buildUser(database.db);
    const lineUserId = await linkLine(visitor.id);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: at("2026-12-03T12:00"),
      userId: visitor.id,
      now: NOW,
    });
    const email = `noline-${hold.id.slice(0, 8)}@example.jp`;
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: visitor.id,
      customer: { name: "線 無し", kana: "せん なし", phone: "090-1234-5678", email },
      notes: "",
      idempotencyKey: null,
      studentDeclared: false,
      now: NOW,
    });
    const worker = createJobWorker({
      db: database.db,
      handlers: bookingJobHandlers({ mailFrom: MAIL_FROM, publicUrl: PUBLIC_URL }),
      log,
      now: () => NOW,
    });
    await worker.runOnce();
    expect(await mailsTo(email)).toHaveLength(1);
    expect(fake.receivedBy(lineUserId)).toHaveLength(0);
  });
});

describe("POST /api/line/webhook", () => {
  const config = loadConfig({ LOG_LEVEL: "silent", PAGE_CACHE_ENTRIES: "0" });
  const app = () =>
    createHttpApp({
      config,
      database,
      log,
      line: channel,
      handleRequest: async () => new Response("page"),
    });
  const sign = (body: string, secret = channel.channelSecret) =>
    createHmac("sha256", secret).update(body).digest("base64");
  const post = (body: string, signature: string | null) =>
    app().request("/api/line/webhook", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(signature === null ? {} : { "x-line-signature": signature }),
      },
      body,
    });
  const event = (type: "follow" | "unfollow", userId: string, timestamp: number) => ({
    type,
    timestamp,
    mode: "active",
    webhookEventId: randomUUID(),
    deliveryContext: { isRedelivery: false },
    source: { type: "user", userId },
    ...(type === "follow" ? { replyToken: "r", follow: { isUnblocked: false } } : {}),
  });
  const followOf = async (lineUserId: string) =>
    (await database.db.select().from(lineFollows).where(eq(lineFollows.lineUserId, lineUserId)))[0];

  it("refuses a bad or missing signature with 401 and records nothing", async () => {
    const userId = newLineUserId();
    const body = JSON.stringify({ destination: "Ubot", events: [event("follow", userId, 1)] });
    const forged = await post(body, sign(body, "someone-else's-secret"));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("bad_signature");
    expect((await post(body, null)).status).toBe(401);
    expect((await post(body, "not base64 at all!")).status).toBe(401);
    // Signed, then changed: the signature is over the raw bytes.
    expect((await post(`${body} `, sign(body))).status).toBe(401);
    expect(await followOf(userId)).toBeUndefined();
  });

  it("answers 400 to a signed body that is not JSON or not a LINE callback", async () => {
    const notJson = "{events:";
    expect((await post(notJson, sign(notJson))).status).toBe(400);
    const notCallback = JSON.stringify({ events: "none" });
    expect((await post(notCallback, sign(notCallback))).status).toBe(400);
  });

  it("records follow and unfollow by the event's time: an older event never overrides a newer one", async () => {
    const userId = newLineUserId();
    const t = Date.parse("2026-12-01T00:00:00Z");
    const send = async (events: unknown[]) => {
      const body = JSON.stringify({ destination: "Ubot", events });
      const response = await post(body, sign(body));
      expect(response.status).toBe(200);
    };
    await send([event("follow", userId, t)]);
    expect(await followOf(userId)).toMatchObject({ following: true });
    await send([event("unfollow", userId, t + 2000)]);
    expect(await followOf(userId)).toMatchObject({ following: false });
    // A redelivered follow from before the unfollow changes nothing.
    await send([event("follow", userId, t + 1000)]);
    expect(await followOf(userId)).toMatchObject({
      following: false,
      changedAt: new Date(t + 2000),
    });
    // Out of order within one delivery too; other events are ignored.
    await send([
      event("follow", userId, t + 4000),
      { ...event("unfollow", userId, t + 3000) },
      { type: "message", timestamp: t + 5000, source: { type: "user", userId } },
    ]);
    expect(await followOf(userId)).toMatchObject({
      following: true,
      changedAt: new Date(t + 4000),
    });
  });

  it("limits requests from one address, as other public endpoints are limited", async () => {
    const site = app();
    let limited: Response | null = null;
    let sent = 0;
    while (!limited && sent < 700) {
      const response = await site.request("/api/line/webhook", { method: "POST", body: "{}" });
      sent++;
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(401);
    }
    // 600 a minute from one address (this file's earlier requests counted too).
    expect(sent).toBeGreaterThan(580);
    expect(sent).toBeLessThanOrEqual(601);
    expect(limited?.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
