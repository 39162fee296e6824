import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as detailRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as paidRoute from "../../app/routes/salons.$id.confirm.paid";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import { addDays, calendarDay } from "../../common/local-time";
import { CHECKOUT_MINUTES } from "../../server/bookings/booking-payments.server";
import {
  bookingEvents,
  bookings,
  jobs,
  paymentDiscrepancies,
  paymentEvents,
  payments,
  salonOwners,
  salonPaymentPolicies,
} from "../../server/db/schema";
import { startFakePayments } from "../../server/payments/payments.server";
import { reconcilePayments } from "../../server/payments/reconciliation.server";
import { setRole } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { payOnHostedPage } from "../support/payments";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The deposit at booking (issue 40 §2; decision 0078), through the real
 * routes, the real webhook endpoint on a port and the fake Stripe's hosted
 * page: the booking is confirmed only from the provider's answer (its
 * webhook, or the session read back when the browser returns), once.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let fake: Awaited<ReturnType<typeof startFakePayments>>;
let server: ReturnType<typeof serve>;
let webhookUrl: string;

const GOOD = "4242424242424242";
const DECLINED = "4000000000000002";

beforeAll(async () => {
  fake = await startFakePayments();
  env = createRouteApp(
    database,
    [
      { path: "/salons/:id/confirm", module: confirmRoute },
      { path: "/salons/:id/confirm/thanks", module: thanksRoute },
      { path: "/salons/:id/confirm/paid", module: paidRoute },
      { path: "/owner/salons/:id/bookings/:bookingId", module: detailRoute },
    ],
    {},
    { payments: fake.provider },
  );
  server = serve({ fetch: env.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhook`;
  fake.fake.setWebhookUrl(webhookUrl);
});

afterAll(async () => {
  await fake?.fake.close();
  await new Promise((resolve) => server?.close(resolve));
});

type HoldView = {
  holdId: string;
  paymentProvider?: string | null;
  idempotencyKey: string;
  policy: { terms: { dueAtBooking: number }; digest: string } | null;
  times: { time: string; start: string }[];
};

/** A salon asking a 20 % deposit, its 5,500円 menu. */
async function depositSalon(mode: "deposit" | "card_only" = "deposit") {
  const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
  await database.db.insert(salonPaymentPolicies).values({
    salonId: built.salon.id,
    mode,
    ...(mode === "deposit" ? { depositKind: "percent" as const, depositValue: 20 } : {}),
    noShowPercent: 100,
  });
  return built;
}

/** A member holds the menu at `time`, reads the hold step and has the form filled in (consented). */
async function holdAt(slug: string, menuId: string, time: string, dayOffset = 3) {
  const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), dayOffset);
  const member = await signedInMember(database, env, "payer");
  const day = `/salons/${slug}/confirm?menu=${menuId}&date=${date}`;
  const pick = (await (await member.b.request(day)).json()).loaderData.view as HoldView;
  const slot = pick.times.find((t) => t.time === time);
  if (!slot) throw new Error(`${time} not offered on ${date}`);
  const held = await member.b.request(
    `/salons/${slug}/confirm`,
    postForm({ intent: "hold", menu: menuId, date, start: slot.start }),
  );
  const holdPath = held.headers.get("location") ?? "";
  const view = (await (await member.b.request(holdPath)).json()).loaderData.view as HoldView;
  const fields = {
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
  };
  return { ...member, holdPath, view, fields, date };
}

/** Confirm pressed: the answer must be a redirect to the fake's hosted page. */
async function toPayment(visitor: Awaited<ReturnType<typeof holdAt>>, extra = {}) {
  const answer = await visitor.b.request(
    visitor.holdPath,
    postForm({ ...visitor.fields, ...extra }),
  );
  expect(answer.status).toBe(302);
  const page = answer.headers.get("location") ?? "";
  expect(page.startsWith(fake.fake.url)).toBe(true);
  return page;
}

async function bookingRow(id: string) {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  return row;
}

async function paymentRows(bookingId: string) {
  return database.db.select().from(payments).where(eq(payments.bookingId, bookingId));
}

async function createdEvents(bookingId: string) {
  return database.db
    .select()
    .from(bookingEvents)
    .where(and(eq(bookingEvents.bookingId, bookingId), eq(bookingEvents.kind, "created")));
}

/** The webhook is asynchronous: read until `test` holds (bounded), no fixed sleep. */
async function until<T>(read: () => Promise<T>, test: (value: T) => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (test(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The path of the success URL the hosted page sent the browser to. */
function returnPath(paid: Response) {
  expect(paid.status).toBe(303);
  const url = new URL(paid.headers.get("location") ?? "");
  return `${url.pathname}${url.search}`;
}

describe("a deposit at booking", () => {
  it("saves the payment with its key before the call, holds the time meanwhile, ignores amounts from the browser, and the webhook confirms", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "10:00");
    expect(visitor.view.policy?.terms.dueAtBooking).toBe(1100);
    // The page knows the payment is our fake's, and says テスト決済 (payment-notice.tsx).
    expect(visitor.view.paymentProvider).toBe("fake");
    const before = Date.now();
    const page = await toPayment(visitor, { amount: "1", dueAtBooking: "1", totalPrice: "1" });

    const [row] = await paymentRows(visitor.view.holdId);
    expect(row).toMatchObject({
      kind: "deposit",
      amount: 1100,
      status: "open",
      idempotencyKey: `deposit:${visitor.view.holdId}`,
    });
    expect(row?.checkoutSessionId).toMatch(/^cs_/);
    const held = await bookingRow(visitor.view.holdId);
    expect(held?.status).toBe("held");
    // The hold covers the payment page's life, and not much more.
    const holdMs = (held?.holdExpiresAt?.getTime() ?? 0) - before;
    expect(holdMs).toBeGreaterThanOrEqual((CHECKOUT_MINUTES - 1) * 60_000);
    expect(holdMs).toBeLessThanOrEqual((CHECKOUT_MINUTES + 1) * 60_000);
    expect(held?.customerName).toBe("山田 花子");

    // The hosted page says テスト決済 and charges what the server asked.
    const html = await (await fetch(page)).text();
    expect(html).toContain("テスト決済");
    expect(html).toMatch(/1,100/);

    const paid = await payOnHostedPage(page, GOOD);
    const confirmed = await until(
      () => bookingRow(visitor.view.holdId),
      (b) => b?.status === "confirmed",
    );
    expect(confirmed?.holdExpiresAt).toBeNull();
    expect(confirmed?.paymentPolicy?.dueAtBooking).toBe(1100);
    const [settled] = await paymentRows(visitor.view.holdId);
    expect(settled).toMatchObject({ status: "succeeded", amount: 1100 });
    expect(settled?.paymentIntentId).toMatch(/^pi_/);
    expect(settled?.paymentMethodId).toMatch(/^pm_/);

    // The browser comes back: the booking was done already, so the thanks page, which lists the payment.
    const back = await visitor.b.request(returnPath(paid));
    expect(back.status).toBe(302);
    const thanksPath = back.headers.get("location") ?? "";
    expect(thanksPath).toBe(`/salons/${salon.slug}/confirm/thanks?booking=${visitor.view.holdId}`);
    const thanks = (await (await visitor.b.request(thanksPath)).json()).loaderData.view;
    expect(thanks.payments).toEqual([
      expect.objectContaining({
        kindLabel: "予約金",
        amount: 1100,
        amountLabel: "￥1,100",
        statusLabel: "完了",
        atLabel: expect.stringMatching(/^\d{4}年\d{1,2}月\d{1,2}日\(.\) \d{2}:\d{2}$/),
      }),
    ]);
    expect(await createdEvents(visitor.view.holdId)).toHaveLength(1);

    // The salon's booking detail lists it too.
    const owner = await signedInMember(database, env, "owner");
    await setRole(database.db, owner.email, "owner");
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const detail = await (
      await owner.b.request(`/owner/salons/${salon.id}/bookings/${visitor.view.holdId}`)
    ).json();
    expect(detail.loaderData.booking.payments).toEqual([
      expect.objectContaining({ kind: "deposit", amount: 1100, statusLabel: "完了" }),
    ]);
  });

  it("is confirmed by the return when the webhook is held back, and the late webhook finds it done", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "11:00");
    const page = await toPayment(visitor);
    fake.fake.holdWebhooks();
    try {
      const paid = await payOnHostedPage(page, GOOD);
      expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
      const back = await visitor.b.request(returnPath(paid));
      expect(back.headers.get("location")).toContain(`booking=${visitor.view.holdId}`);
      expect((await bookingRow(visitor.view.holdId))?.status).toBe("confirmed");
    } finally {
      // Delivered late, and out of order: harmless.
      fake.fake.releaseWebhooks("reverse");
    }
    await fake.fake.waitForDelivery((d) => d.ok && d.type === "checkout.session.completed");
    expect(await createdEvents(visitor.view.holdId)).toHaveLength(1);
    const [settled] = await paymentRows(visitor.view.holdId);
    expect(settled?.status).toBe("succeeded");
  });

  it("paid while neither the webhook nor the visitor came back: the reconciliation confirms it, once", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "12:00");
    const page = await toPayment(visitor);
    fake.fake.holdWebhooks();
    try {
      await payOnHostedPage(page, GOOD);
      expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
      const now = new Date();
      await reconcilePayments(database.db, fake.provider, {
        day: calendarDay(now, "Asia/Tokyo"),
        now,
      });
      expect((await bookingRow(visitor.view.holdId))?.status).toBe("confirmed");
      const [settled] = await paymentRows(visitor.view.holdId);
      expect(settled?.status).toBe("succeeded");
      const [noted] = await database.db
        .select()
        .from(paymentDiscrepancies)
        .where(eq(paymentDiscrepancies.paymentId, settled?.id ?? ""));
      expect(noted).toMatchObject({
        kind: "status_mismatch",
        ourStatus: "open",
        resolution: "auto",
      });
    } finally {
      // The events come after all, out of order: they find it done.
      fake.fake.releaseWebhooks("reverse");
    }
    await fake.fake.waitForDelivery((d) => d.ok && d.type === "checkout.session.completed");
    await fake.fake.waitForDelivery((d) => d.ok && d.type === "payment_intent.succeeded");
    expect(await createdEvents(visitor.view.holdId)).toHaveLength(1);
  });

  it("the webhook and the return arriving together confirm once", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "17:00");
    const page = await toPayment(visitor);
    fake.fake.holdWebhooks();
    let paid: Response;
    try {
      paid = await payOnHostedPage(page, GOOD);
    } finally {
      fake.fake.releaseWebhooks();
    }
    // Released and the return sent at once: on PostgreSQL the two transactions race for the row.
    const [back] = await Promise.all([
      visitor.b.request(returnPath(paid)),
      fake.fake.waitForDelivery((d) => d.ok && d.type === "checkout.session.completed"),
    ]);
    expect(back.headers.get("location")).toContain(`booking=${visitor.view.holdId}`);
    expect((await bookingRow(visitor.view.holdId))?.status).toBe("confirmed");
    expect(await createdEvents(visitor.view.holdId)).toHaveLength(1);
    const jobsOf = await database.db.select().from(jobs).where(eq(jobs.salonId, salon.id));
    expect(jobsOf.filter((job) => job.kind === "booking_confirmed")).toHaveLength(1);
  });

  it("never confirms from the browser alone: the return URL with an unpaid or foreign session changes nothing", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "12:00");
    await toPayment(visitor);
    const [row] = await paymentRows(visitor.view.holdId);
    // The session exists but is not paid: the page says so, the booking stays held.
    const early = await visitor.b.request(
      `/salons/${salon.slug}/confirm/paid?session_id=${row?.checkoutSessionId}`,
    );
    expect(early.status).toBe(200);
    expect((await early.json()).loaderData.kind).toBe("unpaid");
    expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
    // Someone else's session, or a made-up one: not found.
    const stranger = await signedInMember(database, env, "stranger");
    const foreign = await stranger.b.request(
      `/salons/${salon.slug}/confirm/paid?session_id=${row?.checkoutSessionId}`,
    );
    expect(foreign.status).toBe(404);
    const madeUp = await visitor.b.request(`/salons/${salon.slug}/confirm/paid?session_id=cs_nope`);
    expect(madeUp.status).toBe(404);
    expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
  });

  it("a declined card confirms nothing, and the visitor can try again, on the same page or from the confirm step", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "13:00");
    const page = await toPayment(visitor);
    const declined = await payOnHostedPage(page, DECLINED);
    expect(declined.status).toBe(422);
    expect(await declined.text()).toContain("カードが拒否されました");
    expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
    // 戻る, and 「お支払いへ進む」 again: the same page (same key), not a second payment.
    const again = await toPayment(visitor);
    expect(again).toBe(page);
    expect(await paymentRows(visitor.view.holdId)).toHaveLength(1);
    await payOnHostedPage(again, GOOD);
    await until(
      () => bookingRow(visitor.view.holdId),
      (b) => b?.status === "confirmed",
    );
  });

  it("refuses a forged or tampered webhook with 400, and a duplicate event has no second effect", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "14:00");
    await toPayment(visitor);
    const [row] = await paymentRows(visitor.view.holdId);
    const event = {
      id: "evt_forged_1",
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: row?.checkoutSessionId,
          object: "checkout.session",
          status: "complete",
          payment_status: "paid",
          mode: "payment",
          amount_total: 1100,
          metadata: { booking_id: visitor.view.holdId },
        },
      },
    };
    const body = JSON.stringify(event);
    const post = (payload: string, signature: string | null) =>
      fetch(webhookUrl, {
        method: "POST",
        body: payload,
        headers: {
          "content-type": "application/json",
          ...(signature ? { "stripe-signature": signature } : {}),
        },
      });
    // Signed with another secret, unsigned, or a signed body changed afterwards: 400.
    const wrongKey = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: "whsec_not_ours",
    });
    expect((await post(body, wrongKey)).status).toBe(400);
    expect((await post(body, null)).status).toBe(400);
    const signedOther = Stripe.webhooks.generateTestHeaderString({
      payload: body.replace("1100", "1"),
      secret: fake.webhookSecret,
    });
    expect((await post(body, signedOther)).status).toBe(400);
    expect((await bookingRow(visitor.view.holdId))?.status).toBe("held");
    expect((await paymentRows(visitor.view.holdId))[0]?.status).toBe("open");
    const stored = await database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, "evt_forged_1"));
    expect(stored).toHaveLength(0);

    // Every real webhook twice: one confirmation, one event row each.
    fake.fake.setDuplicateWebhooks(true);
    try {
      const page = await toPayment(visitor);
      await payOnHostedPage(page, GOOD);
      await until(
        () => fake.fake.waitForDelivery((d) => d.ok && d.type === "checkout.session.completed"),
        () => true,
      );
      await until(
        () => bookingRow(visitor.view.holdId),
        (b) => b?.status === "confirmed",
      );
    } finally {
      fake.fake.setDuplicateWebhooks(false);
    }
    expect(await createdEvents(visitor.view.holdId)).toHaveLength(1);
    expect(await paymentRows(visitor.view.holdId)).toHaveLength(1);
  });

  it("a payment for a hold that was cleared meanwhile is refunded automatically, with its own key; a lapsed hold still there is kept", async () => {
    const { salon, menu } = await depositSalon();
    const visitor = await holdAt(salon.slug, menu.id, "15:00");
    const page = await toPayment(visitor);
    fake.fake.holdWebhooks();
    let paid: Response;
    try {
      paid = await payOnHostedPage(page, GOOD);
      // The hold is cleared before the provider's answer arrives (another visitor took the lapsed time).
      await database.db.delete(bookings).where(eq(bookings.id, visitor.view.holdId));
      const back = await visitor.b.request(returnPath(paid));
      // The payment row lost its booking (kept, booking_id null): found by the session, not the visitor's.
      expect(back.status).toBe(404);
    } finally {
      fake.fake.releaseWebhooks();
    }
    const sessionRows = await until(
      () => database.db.select().from(payments).where(eq(payments.salonId, salon.id)),
      (rows) => rows.some((r) => r.kind === "refund" && r.status === "succeeded"),
    );
    const original = sessionRows.find((r) => r.kind === "deposit");
    const refund = sessionRows.find((r) => r.kind === "refund");
    expect(original).toMatchObject({ status: "refunded", bookingId: null });
    expect(refund).toMatchObject({
      amount: 1100,
      refundOf: original?.id,
      idempotencyKey: `refund:${original?.id}:1`,
    });
    expect(refund?.providerRefundId).toMatch(/^re_/);
    const provided = await fake.provider.retrievePayment(original?.paymentIntentId ?? "");
    expect(provided.status).toBe("succeeded");

    // A hold past its time whose row is still there: nobody could take the time, so it is kept.
    const late = await holdAt(salon.slug, menu.id, "16:00");
    const latePage = await toPayment(late);
    await database.db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(bookings.id, late.view.holdId));
    await payOnHostedPage(latePage, GOOD);
    await until(
      () => bookingRow(late.view.holdId),
      (b) => b?.status === "confirmed",
    );
    expect((await paymentRows(late.view.holdId))[0]?.status).toBe("succeeded");
  });

  it("カード登録のみ: a setup page, nothing charged, the card kept, then confirmed", async () => {
    const { salon, menu } = await depositSalon("card_only");
    const visitor = await holdAt(salon.slug, menu.id, "10:00");
    const page = await toPayment(visitor);
    const [row] = await paymentRows(visitor.view.holdId);
    expect(row).toMatchObject({ kind: "card", amount: 0 });
    await payOnHostedPage(page, GOOD);
    await until(
      () => bookingRow(visitor.view.holdId),
      (b) => b?.status === "confirmed",
    );
    const [settled] = await paymentRows(visitor.view.holdId);
    expect(settled?.status).toBe("succeeded");
    expect(settled?.paymentMethodId).toMatch(/^pm_/);
  });
});

describe("without a payment provider", () => {
  it("refuses a booking that needs payment with a Japanese message, and keeps what was typed", async () => {
    const offline = createRouteApp(database, [
      { path: "/salons/:id/confirm", module: confirmRoute },
    ]);
    const { salon, menu } = await depositSalon();
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 3);
    const member = await signedInMember(database, offline, "offline");
    const day = `/salons/${salon.slug}/confirm?menu=${menu.id}&date=${date}`;
    const pick = (await (await member.b.request(day)).json()).loaderData.view as HoldView;
    const slot = pick.times.find((t) => t.time === "10:00");
    const held = await member.b.request(
      `/salons/${salon.slug}/confirm`,
      postForm({ intent: "hold", menu: menu.id, date, start: slot?.start ?? "" }),
    );
    const holdPath = held.headers.get("location") ?? "";
    const view = (await (await member.b.request(holdPath)).json()).loaderData.view as HoldView;
    const refused = await member.b.request(
      holdPath,
      postForm({
        intent: "confirm",
        hold: view.holdId,
        idempotencyKey: view.idempotencyKey,
        name: "山田 花子",
        nameKana: "ヤマダ ハナコ",
        phone: "090-1234-5678",
        email: member.email,
        note: "前髪短め",
        policyConsent: "on",
        policyDigest: view.policy?.digest ?? "",
      }),
    );
    expect(refused.status).toBe(409);
    const body = (await refused.json()).actionData;
    expect(body.errors.form).toMatch(/オンライン決済をご利用いただけない/);
    expect(body.values.note).toBe("前髪短め");
    expect((await bookingRow(view.holdId))?.status).toBe("held");
  });
});
