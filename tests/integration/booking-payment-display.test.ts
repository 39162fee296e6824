import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "../../app/routes/account.history";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as paidRoute from "../../app/routes/salons.$id.confirm.paid";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import * as icsRoute from "../../app/routes/salons.$id.confirm.thanks.ics";
import { addDays, calendarDay } from "../../common/local-time";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import { bookings, salonOwners, salonPaymentPolicies } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { outboxSender } from "../../server/mail/mailer";
import { startFakePayments } from "../../server/payments/payments.server";
import { setRole } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { firstEvent, readCalendar } from "../support/icalendar";
import { parseMail } from "../support/mail-message";
import { payOnHostedPage } from "../support/payments";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * What was paid, shown everywhere a booking is (issue 40 §2; decision
 * 0083): a 20 % deposit paid on the fake provider's page, then the
 * confirmation mail as delivered over SMTP, its .ics, the thanks page's
 * .ics, the visitor's history, and both JSON APIs.
 */
const database = withTestDatabase();
const log = createLogger("silent");
let env: ReturnType<typeof createRouteApp>;
let fake: Awaited<ReturnType<typeof startFakePayments>>;
let server: ReturnType<typeof serve>;

beforeAll(async () => {
  fake = await startFakePayments();
  env = createRouteApp(
    database,
    [
      { path: "/salons/:id/confirm", module: confirmRoute },
      { path: "/salons/:id/confirm/thanks", module: thanksRoute },
      { path: "/salons/:id/confirm/thanks.ics", module: icsRoute },
      { path: "/salons/:id/confirm/paid", module: paidRoute },
      { path: "/account/history", module: historyRoute },
    ],
    {},
    { payments: fake.provider },
  );
  server = serve({ fetch: env.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  fake.fake.setWebhookUrl(`http://127.0.0.1:${port}/api/payments/webhook`);
});

afterAll(async () => {
  await fake?.fake.close();
  await new Promise((resolve) => server?.close(resolve));
});

type HoldView = {
  holdId: string;
  idempotencyKey: string;
  policy: { digest: string } | null;
  times: { time: string; start: string }[];
};

/** A member books the 5,500円 menu of a salon asking 20 % and pays 1,100円 on the fake's page. */
async function paidDepositBooking() {
  const { salon, menu } = await buildSalonWithStaff(database.db, { staffCount: 1 });
  await database.db.insert(salonPaymentPolicies).values({
    salonId: salon.id,
    mode: "deposit",
    depositKind: "percent",
    depositValue: 20,
    noShowPercent: 100,
  });
  const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 3);
  const member = await signedInMember(database, env, "payer");
  const day = `/salons/${salon.slug}/confirm?menu=${menu.id}&date=${date}`;
  const pick = (await (await member.b.request(day)).json()).loaderData.view as HoldView;
  const slot = pick.times.find((t) => t.time === "10:00");
  if (!slot) throw new Error(`10:00 not offered on ${date}`);
  const held = await member.b.request(
    `/salons/${salon.slug}/confirm`,
    postForm({ intent: "hold", menu: menu.id, date, start: slot.start }),
  );
  const holdPath = held.headers.get("location") ?? "";
  const view = (await (await member.b.request(holdPath)).json()).loaderData.view as HoldView;
  const toPay = await member.b.request(
    holdPath,
    postForm({
      intent: "confirm",
      hold: view.holdId,
      idempotencyKey: view.idempotencyKey,
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "090-1234-5678",
      email: member.email,
      note: "",
      policyConsent: "on",
      policyDigest: view.policy?.digest ?? "",
    }),
  );
  expect(toPay.status).toBe(302);
  fake.fake.holdWebhooks();
  try {
    const paid = await payOnHostedPage(toPay.headers.get("location") ?? "", "4242424242424242");
    const back = new URL(paid.headers.get("location") ?? "");
    // The return reads the session from the provider and confirms.
    await member.b.request(`${back.pathname}${back.search}`);
  } finally {
    fake.fake.releaseWebhooks();
  }
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, view.holdId));
  expect(row?.status).toBe("confirmed");
  return { salon, member, bookingId: view.holdId };
}

/** The mails in the outbox, delivered to an SMTP server on a port, as received. */
async function deliverOverSmtp(to: string) {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (session.envelope.rcptTo.some((r) => r.address === to)) {
          received.push(Buffer.concat(chunks).toString("latin1"));
        }
        callback();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  const { port } = smtp.server.address() as AddressInfo;
  const sender = outboxSender({ database, smtpUrl: `smtp://127.0.0.1:${port}`, log });
  try {
    while ((await sender.deliverPending()) > 0) {}
  } finally {
    sender.close();
    smtp.close();
  }
  return received.map((raw) => parseMail(raw));
}

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

describe("a paid deposit is shown", () => {
  it("in the confirmation mail and its .ics, the thanks page's .ics, the history and both APIs", async () => {
    const { salon, member, bookingId } = await paidDepositBooking();

    // The confirmation mail, sent by its job and delivered over SMTP.
    const handlers = bookingJobHandlers({
      mailFrom: "Salon Navi <no-reply@salon.example.jp>",
      publicUrl: "https://salon.example.jp",
    });
    await createJobWorker({ db: database.db, handlers, log }).runOnce();
    const mail = (await deliverOverSmtp(member.email)).find((m) =>
      m.subject.includes("ご予約が確定しました"),
    );
    expect(mail?.text).toContain("■ お支払い");
    expect(mail?.text).toMatch(
      /・予約金 1,100円（完了・\d{4}年\d{1,2}月\d{1,2}日\(.\) \d{2}:\d{2}）/,
    );
    expect(mail?.text).toContain("・お支払い済み：1,100円");
    expect(mail?.text).toContain("・ご来店時のお支払い（予定）：4,400円");
    expect(mail?.html).toContain("<li>お支払い済み：1,100円</li>");
    const attached = mail?.attachments.find((a) => a.contentType === "text/calendar");
    const mailEvent = firstEvent(readCalendar(attached?.content ?? ""));
    const mailDescription = String(mailEvent.getFirstPropertyValue("description"));
    expect(mailDescription).toContain("予約金 1,100円（完了・");
    expect(mailDescription).toContain("お支払い済み：1,100円");
    // The agreed policy is in the description too.
    expect(mailDescription).toContain(
      "ご連絡のないキャンセル（無断キャンセル）：ご予約金額の100%（5,500円）",
    );

    // The thanks page's calendar file.
    const ics = await member.b.request(
      `/salons/${salon.slug}/confirm/thanks.ics?booking=${bookingId}`,
    );
    expect(ics.status).toBe(200);
    const event = firstEvent(readCalendar(unfold(await ics.text())));
    const description = String(event.getFirstPropertyValue("description"));
    expect(description).toContain("■ お支払い");
    expect(description).toContain("お支払い済み：1,100円");
    expect(description).toContain("ご来店時のお支払い（予定）：4,400円");

    // The visitor's history, the booking's detail.
    const history = await (await member.b.request(`/account/history?booking=${bookingId}`)).json();
    expect(history.loaderData.detail.booking.payments).toEqual([
      expect.objectContaining({
        kind: "deposit",
        kindLabel: "予約金",
        amountLabel: "￥1,100",
        statusLabel: "完了",
      }),
    ]);
    expect(history.loaderData.detail.testPayments).toBe(true);

    // The visitor's API.
    const api = await member.b.request(`/api/bookings/${bookingId}`);
    expect(api.status).toBe(200);
    const { data } = await api.json();
    expect(data.payments).toEqual([
      {
        id: expect.any(String),
        kind: "deposit",
        amount: 1100,
        status: "succeeded",
        at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
    const list = await (await member.b.request("/api/bookings")).json();
    expect(list.data.upcoming[0].payments).toEqual(data.payments);

    // The salon's API.
    const owner = await signedInMember(database, env, "owner");
    await setRole(database.db, owner.email, "owner");
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const detail = await owner.b.request(`/api/owner/salons/${salon.id}/bookings/${bookingId}`);
    expect(detail.status).toBe(200);
    expect((await detail.json()).data.payments).toEqual(data.payments);
  });

  it("is documented as the payments array of Booking and OwnerBooking", async () => {
    const doc = (await (await env.app.request("/api/openapi.json")).json()) as {
      components: {
        schemas: Record<string, { required?: string[]; properties: Record<string, unknown> }>;
      };
    };
    for (const name of ["Booking", "OwnerBooking"]) {
      expect(doc.components.schemas[name]?.required).toContain("payments");
    }
    expect(doc.components.schemas.BookingPayment?.required).toEqual([
      "id",
      "kind",
      "amount",
      "status",
      "at",
    ]);
  });
});
