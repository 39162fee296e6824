import { randomUUID } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as adminPaymentsRoute from "../../app/routes/admin.payments";
import { calendarDay } from "../../common/local-time";
import { applyPaymentEvent } from "../../server/bookings/booking-payments.server";
import {
  auditLog,
  jobs,
  mailOutbox,
  paymentDiscrepancies,
  paymentEvents,
  paymentReconciliations,
  payments,
} from "../../server/db/schema";
import { createJobWorker, enqueue } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { idempotencyKeys, type PaymentEvent } from "../../server/payments/provider.server";
import { reconcilePayments } from "../../server/payments/reconciliation.server";
import {
  reconcileJobKind,
  reconciliationJobHandlers,
  scheduleReconciliation,
} from "../../server/payments/reconciliation-jobs.server";
import { setRole } from "../support/accounts";
import { buildSalon, buildUser } from "../support/builders";
import { payOnHostedPage, startPaymentsHarness } from "../support/payments";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The daily reconciliation and the provider's events beyond checkout (issue
 * 40 §3, §5; decision 0081), against the fake Stripe: what the provider did
 * while we were not listening is found, the safe cases moved forward, each
 * difference written once; intent and refund events move rows only forward,
 * stored once, harmless out of order or twice.
 */
const database = withTestDatabase();
let harness: Awaited<ReturnType<typeof startPaymentsHarness>>;
let salonId: string;
let card: { customerId: string; paymentMethodId: string };
const log = createLogger("silent");

beforeAll(async () => {
  harness = await startPaymentsHarness();
  salonId = (await buildSalon(database.db)).id;
  // A card kept at the fake (カード登録のみ on its hosted page), for off-session charges.
  const bookingId = randomUUID();
  const session = await harness.provider.createCheckoutSession({
    bookingId,
    mode: "setup",
    description: "カード登録",
    successUrl: "http://localhost/ok?s={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost/back",
    idempotencyKey: idempotencyKeys.checkout(bookingId),
  });
  await payOnHostedPage(session.url ?? "", "4242424242424242");
  const kept = await harness.provider.retrieveCheckoutSession(session.id);
  card = { customerId: kept.customerId ?? "", paymentMethodId: kept.paymentMethodId ?? "" };
});

afterAll(async () => {
  await harness?.close();
});

const today = () => calendarDay(new Date(), "Asia/Tokyo");

/** A fee row as the fees slice saves it before the call: pending, its key, our id. */
async function pendingFee(amount = 3000) {
  const bookingId = randomUUID();
  const [row] = await database.db
    .insert(payments)
    .values({
      salonId,
      kind: "fee",
      amount,
      status: "pending",
      idempotencyKey: idempotencyKeys.fee(bookingId, "no_show"),
    })
    .returning();
  if (!row) throw new Error("no row");
  return { row, bookingId };
}

/** The charge as the fees slice makes it: the saved key, our row id in the metadata. */
function chargeFee(row: { id: string; amount: number; idempotencyKey: string }, bookingId: string) {
  return harness.provider.chargeOffSession({
    bookingId,
    ...card,
    amount: row.amount,
    description: "無断キャンセル料",
    metadata: { payment_row_id: row.id },
    idempotencyKey: row.idempotencyKey,
  });
}

async function rowOf(id: string) {
  const [row] = await database.db.select().from(payments).where(eq(payments.id, id));
  return row;
}

async function discrepanciesOf(providerId: string) {
  return database.db
    .select()
    .from(paymentDiscrepancies)
    .where(eq(paymentDiscrepancies.providerId, providerId));
}

function reconcile(now = new Date()) {
  return reconcilePayments(database.db, harness.provider, { day: today(), now, log });
}

/** The verified events the fake sent for an object, as the webhook endpoint received them. */
async function eventsAbout(id: string, count: number): Promise<PaymentEvent[]> {
  const about = (e: PaymentEvent) =>
    (e.kind === "payment_succeeded" || e.kind === "payment_failed"
      ? e.payment.id
      : e.kind === "refund"
        ? e.refund.paymentIntentId
        : e.kind === "charge_refunded"
          ? e.paymentIntentId
          : null) === id;
  await harness.receiver.waitFor((events) => events.filter(about).length >= count);
  return harness.receiver.received.filter(about);
}

describe("the daily reconciliation", () => {
  it("finds a charge the provider made that we have no row of, once however often the day runs", async () => {
    const stray = await harness.provider.chargeOffSession({
      bookingId: randomUUID(),
      ...card,
      amount: 1200,
      description: "どこにも記録のない決済",
      idempotencyKey: `stray:${randomUUID()}`,
    });
    if (stray.outcome !== "succeeded") throw new Error(stray.outcome);

    const first = await reconcile();
    expect(first.paymentsChecked).toBeGreaterThanOrEqual(1);
    const found = await discrepanciesOf(stray.payment.id);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      kind: "missing_here",
      providerObject: "payment",
      paymentId: null,
      providerAmount: 1200,
      providerStatus: "succeeded",
      foundOn: today(),
      resolvedAt: null,
    });
    expect(found[0]?.note).toContain("記録がありません");

    // The same day again (the job retried, the admin's button): no second row.
    await reconcile(new Date(Date.now() + 1000));
    const again = await discrepanciesOf(stray.payment.id);
    expect(again).toHaveLength(1);
    expect(again[0]?.lastSeenAt.getTime()).toBeGreaterThan(found[0]?.lastSeenAt.getTime() ?? 0);
    const runs = await database.db
      .select()
      .from(paymentReconciliations)
      .where(eq(paymentReconciliations.day, today()));
    expect(runs).toHaveLength(1);
  });

  it("after a crash between the charge and our commit: finds it, moves our row forward, and a retry with the key charges nothing new", async () => {
    const { row, bookingId } = await pendingFee(3300);
    // The provider charged; our process died before writing the answer (the row stays pending).
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    expect((await rowOf(row.id))?.status).toBe("pending");
    const intents = harness.fake.paymentIntents.size;
    const charges = harness.fake.charges.size;

    const result = await reconcile();
    expect(result.fixed).toBeGreaterThanOrEqual(1);
    expect(await rowOf(row.id)).toMatchObject({
      status: "succeeded",
      paymentIntentId: charged.payment.id,
    });
    const [noted] = await discrepanciesOf(charged.payment.id);
    expect(noted).toMatchObject({
      kind: "status_mismatch",
      paymentId: row.id,
      ourStatus: "pending",
      providerStatus: "succeeded",
      resolution: "auto",
    });
    expect(noted?.resolvedAt).not.toBeNull();

    // After the restart the fees code retries with the saved key: the first charge answers.
    const retried = await chargeFee(row, bookingId);
    expect(retried).toMatchObject({ outcome: "succeeded", payment: { id: charged.payment.id } });
    expect(harness.fake.paymentIntents.size).toBe(intents);
    expect(harness.fake.charges.size).toBe(charges);
    // And the next run has nothing new to say about it.
    await reconcile(new Date(Date.now() + 1000));
    expect(await discrepanciesOf(charged.payment.id)).toHaveLength(1);
  });

  it("lists a row we call paid that the provider does not know, and an amount that differs", async () => {
    const ghost = `pi_ghost${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const [ours] = await database.db
      .insert(payments)
      .values({
        salonId,
        kind: "fee",
        amount: 2000,
        status: "succeeded",
        idempotencyKey: `fee:${randomUUID()}:late_cancel`,
        paymentIntentId: ghost,
        settledAt: new Date(),
      })
      .returning();
    const { row, bookingId } = await pendingFee(5000);
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    // Our row says another amount than the one charged.
    await database.db
      .update(payments)
      .set({ status: "succeeded", paymentIntentId: charged.payment.id, amount: 4000 })
      .where(eq(payments.id, row.id));

    await reconcile();
    expect(await discrepanciesOf(ghost)).toMatchObject([
      { kind: "missing_there", paymentId: ours?.id, ourAmount: 2000, providerAmount: null },
    ]);
    expect(await discrepanciesOf(charged.payment.id)).toMatchObject([
      { kind: "amount_mismatch", paymentId: row.id, ourAmount: 4000, providerAmount: 5000 },
    ]);
  });

  it("moves a pending refund forward when the provider made it, and lists a refund we never asked for", async () => {
    const { row, bookingId } = await pendingFee(4000);
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    await database.db
      .update(payments)
      .set({ status: "succeeded", paymentIntentId: charged.payment.id, settledAt: new Date() })
      .where(eq(payments.id, row.id));
    const [refundRow] = await database.db
      .insert(payments)
      .values({
        salonId,
        kind: "refund",
        amount: 1000,
        status: "pending",
        idempotencyKey: idempotencyKeys.refund(row.id, 1),
        refundOf: row.id,
      })
      .returning();
    if (!refundRow) throw new Error("no refund row");
    const made = await harness.provider.refund({
      paymentIntentId: charged.payment.id,
      amount: 1000,
      metadata: { payment_row_id: refundRow.id },
      idempotencyKey: refundRow.idempotencyKey,
    });
    // A refund from the provider's dashboard: no row, no key of ours.
    const stray = await harness.provider.refund({
      paymentIntentId: charged.payment.id,
      amount: 500,
      idempotencyKey: `dashboard:${randomUUID()}`,
    });

    await reconcile();
    expect(await rowOf(refundRow.id)).toMatchObject({
      status: "succeeded",
      providerRefundId: made.id,
    });
    expect((await rowOf(row.id))?.status).toBe("refunded");
    expect(await discrepanciesOf(made.id)).toMatchObject([
      { kind: "status_mismatch", resolution: "auto", paymentId: refundRow.id },
    ]);
    expect(await discrepanciesOf(stray.id)).toMatchObject([
      { kind: "missing_here", providerObject: "refund", providerAmount: 500, resolvedAt: null },
    ]);
  });

  it("runs once a day from the job queue, and schedules the next day in the same transaction", async () => {
    const runAt = new Date("2026-12-02T04:30:00+09:00");
    expect(await scheduleReconciliation(database.db, runAt)).toBe(true);
    expect(await scheduleReconciliation(database.db, runAt)).toBe(false);
    const worker = createJobWorker({
      db: database.db,
      handlers: reconciliationJobHandlers(harness.provider, log),
      log,
      now: () => runAt,
    });
    expect(await worker.runOnce()).toBe(1);
    const [run] = await database.db
      .select()
      .from(paymentReconciliations)
      .where(eq(paymentReconciliations.day, "2026-12-01"));
    expect(run?.rangeFrom.toISOString()).toBe("2026-11-28T15:00:00.000Z");
    expect(run?.rangeBefore.toISOString()).toBe("2026-12-01T15:00:00.000Z");
    const queued = await database.db.select().from(jobs).where(eq(jobs.kind, reconcileJobKind));
    expect(queued.map((j) => j.dedupeKey).sort()).toEqual([
      `${reconcileJobKind}:2026-12-01`,
      `${reconcileJobKind}:2026-12-02`,
    ]);
  });
});

describe("the administrators' mail", () => {
  it("mails each administrator once per run that records new differences, never for differences seen before", async () => {
    const admins = [await buildUser(database.db), await buildUser(database.db)];
    for (const admin of admins) await setRole(database.db, admin.email, "admin");
    const banned = await buildUser(database.db, { banned: true });
    await setRole(database.db, banned.email, "admin");
    const owner = await buildUser(database.db);
    await setRole(database.db, owner.email, "owner");
    // A charge the provider made that we have no row of.
    const stray = randomUUID();
    const charged = await harness.provider.chargeOffSession({
      bookingId: randomUUID(),
      ...card,
      amount: 2200,
      description: "無断キャンセル料",
      metadata: { payment_row_id: stray },
      idempotencyKey: `stray:${stray}`,
    });
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    const worker = createJobWorker({
      db: database.db,
      handlers: reconciliationJobHandlers(harness.provider, log, {
        mailFrom: "noreply@salon-navi.test",
        publicUrl: "https://salon-navi.test",
      }),
      log,
    });
    const runAgain = async (n: number) => {
      await enqueue(database.db, {
        kind: reconcileJobKind,
        payload: { day: today() },
        runAt: new Date(),
        dedupeKey: `mail-test-${n}:${stray}`,
      });
      expect(await worker.runOnce()).toBe(1);
    };
    const mailsToAdmins = () =>
      database.db
        .select()
        .from(mailOutbox)
        .then((all) => all.filter((m) => [...admins, banned, owner].some((u) => u.email === m.to)));

    await runAgain(1);
    const mails = await mailsToAdmins();
    expect(mails.map((m) => m.to).sort()).toEqual(admins.map((a) => a.email).sort());
    expect(mails[0]?.subject).toMatch(/^【Salon Navi】決済の照合で差異が\d+件見つかりました/);
    expect(mails[0]?.text).toContain("https://salon-navi.test/admin/payments");
    expect(mails[0]?.text).toMatch(/確認が必要なもの：[1-9]\d*件/);
    expect(mails[0]?.text).not.toContain("2,200");

    // The same differences seen again the next run: no second mail.
    await runAgain(2);
    expect(await mailsToAdmins()).toHaveLength(admins.length);
  });
});

describe("intent and refund events", () => {
  it("a fee's success arriving before our row recorded the intent moves it forward, once", async () => {
    const { row, bookingId } = await pendingFee(2500);
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    const [succeeded] = await eventsAbout(charged.payment.id, 1);
    if (!succeeded) throw new Error("no event");
    expect(succeeded.kind).toBe("payment_succeeded");
    const now = new Date();
    await applyPaymentEvent(database.db, harness.provider, succeeded, { now, log });
    await applyPaymentEvent(database.db, harness.provider, succeeded, {
      now: new Date(now.getTime() + 5000),
      log,
    });
    const after = await rowOf(row.id);
    expect(after).toMatchObject({ status: "succeeded", paymentIntentId: charged.payment.id });
    expect(after?.settledAt?.getTime()).toBe(now.getTime());
    const stored = await database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, succeeded.id));
    expect(stored).toHaveLength(1);
  });

  it("the webhook and the reconciliation racing for one row: it moves forward once, no error", async () => {
    const { row, bookingId } = await pendingFee(2700);
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    const [succeeded] = await eventsAbout(charged.payment.id, 1);
    if (!succeeded) throw new Error("no event");
    const now = new Date();
    // On PostgreSQL the two transactions meet at the row's lock; on PGlite they take turns.
    await Promise.all([
      applyPaymentEvent(database.db, harness.provider, succeeded, { now, log }),
      reconcile(now),
    ]);
    expect(await rowOf(row.id)).toMatchObject({
      status: "succeeded",
      paymentIntentId: charged.payment.id,
      settledAt: now,
    });
    // Whichever came second found it done; at most one auto-resolved note, never an open one.
    const notes = await discrepanciesOf(charged.payment.id);
    expect(notes.filter((n) => n.resolvedAt === null)).toEqual([]);
    expect(notes.length).toBeLessThanOrEqual(1);
  });

  it("refund events out of order and twice, before our row recorded the refund id: the row moves forward once, never back", async () => {
    const { row, bookingId } = await pendingFee(6000);
    const charged = await chargeFee(row, bookingId);
    if (charged.outcome !== "succeeded") throw new Error(charged.outcome);
    await database.db
      .update(payments)
      .set({ status: "succeeded", paymentIntentId: charged.payment.id, settledAt: new Date() })
      .where(eq(payments.id, row.id));
    const [refundRow] = await database.db
      .insert(payments)
      .values({
        salonId,
        kind: "refund",
        amount: 6000,
        status: "pending",
        idempotencyKey: idempotencyKeys.refund(row.id, 1),
        refundOf: row.id,
      })
      .returning();
    if (!refundRow) throw new Error("no refund row");
    const made = await harness.provider.refund({
      paymentIntentId: charged.payment.id,
      metadata: { payment_row_id: refundRow.id },
      idempotencyKey: refundRow.idempotencyKey,
    });
    // payment_intent.succeeded, refund.created, charge.refunded: delivered newest first, twice.
    const events = await eventsAbout(charged.payment.id, 3);
    expect(events.map((e) => e.type)).toEqual([
      "payment_intent.succeeded",
      "refund.created",
      "charge.refunded",
    ]);
    const now = new Date();
    for (const event of [...events].reverse().concat(events)) {
      await applyPaymentEvent(database.db, harness.provider, event, { now, log });
    }
    expect(await rowOf(refundRow.id)).toMatchObject({
      status: "succeeded",
      providerRefundId: made.id,
    });
    // The late payment_intent.succeeded did not take the refunded payment back to succeeded.
    expect((await rowOf(row.id))?.status).toBe("refunded");
    const stored = await database.db.select().from(paymentEvents);
    for (const event of events) {
      expect(stored.filter((s) => s.eventId === event.id)).toHaveLength(1);
    }
  });

  it("a declined fee's failure moves a pending row to failed", async () => {
    const { row, bookingId } = await pendingFee(1800);
    const declinedCard = await (async () => {
      const id = randomUUID();
      const session = await harness.provider.createCheckoutSession({
        bookingId: id,
        mode: "setup",
        description: "カード登録",
        successUrl: "http://localhost/ok?s={CHECKOUT_SESSION_ID}",
        cancelUrl: "http://localhost/back",
        idempotencyKey: idempotencyKeys.checkout(id),
      });
      await payOnHostedPage(session.url ?? "", "4242424242424242");
      const kept = await harness.provider.retrieveCheckoutSession(session.id);
      harness.fake.setPaymentMethodBehaviour(kept.paymentMethodId ?? "", "4000000000000002");
      return { customerId: kept.customerId ?? "", paymentMethodId: kept.paymentMethodId ?? "" };
    })();
    const result = await harness.provider.chargeOffSession({
      bookingId,
      ...declinedCard,
      amount: row.amount,
      description: "無断キャンセル料",
      metadata: { payment_row_id: row.id },
      idempotencyKey: row.idempotencyKey,
    });
    expect(result.outcome).toBe("declined");
    const intentId = result.outcome === "declined" ? (result.paymentIntentId ?? "") : "";
    const [failed] = await eventsAbout(intentId, 1);
    if (!failed) throw new Error("no event");
    expect(failed.kind).toBe("payment_failed");
    await applyPaymentEvent(database.db, harness.provider, failed, { now: new Date(), log });
    expect(await rowOf(row.id)).toMatchObject({ status: "failed", paymentIntentId: intentId });
  });
});

describe("/admin/payments", () => {
  type PageData = {
    view: string;
    openCount: number;
    lines: { id: string; providerId: string; kindLabel: string; resolved: unknown }[];
    lastRun: { found: number } | null;
  };
  let env: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    env = createRouteApp(
      database,
      [{ path: "/admin/payments", module: adminPaymentsRoute }],
      {},
      {
        payments: harness.provider,
      },
    );
  });

  async function as(role: "user" | "owner" | "admin") {
    const member = await signedInMember(database, env, role);
    if (role !== "user") await setRole(database.db, member.email, role);
    return member;
  }

  it("is the administrator's only: others get the 404 screen and cannot resolve or run", async () => {
    const [open] = await database.db
      .select()
      .from(paymentDiscrepancies)
      .where(isNull(paymentDiscrepancies.resolvedAt))
      .limit(1);
    if (!open) throw new Error("no open difference to try on");
    for (const role of ["user", "owner"] as const) {
      const { b } = await as(role);
      expect((await b.request("/admin/payments")).status).toBe(404);
      const resolve = await b.request(
        "/admin/payments",
        postForm({ intent: "resolve", discrepancyId: open.id, note: "確認しました" }),
      );
      expect(resolve.status).toBe(404);
      const run = await b.request("/admin/payments", postForm({ intent: "run" }));
      expect(run.status).toBe(404);
    }
    const [still] = await database.db
      .select()
      .from(paymentDiscrepancies)
      .where(eq(paymentDiscrepancies.id, open.id));
    expect(still?.resolvedAt).toBeNull();
  });

  it("lists the open differences, refuses a resolution without a note, and marks one resolved with an audit entry", async () => {
    const { b, userId } = await as("admin");
    const page = (await (await b.request("/admin/payments")).json()) as { loaderData: PageData };
    expect(page.loaderData.view).toBe("open");
    expect(page.loaderData.openCount).toBeGreaterThanOrEqual(1);
    const line = page.loaderData.lines[0];
    if (!line) throw new Error("no line");
    expect(line.resolved).toBeNull();

    const empty = await b.request(
      "/admin/payments",
      postForm({ intent: "resolve", discrepancyId: line.id, note: "  " }),
    );
    expect(empty.status).toBe(400);
    const refused = (await empty.json()) as { actionData: { errors: Record<string, string> } };
    expect(refused.actionData.errors.note).toBe("対応内容を入力してください。");

    const done = await b.request(
      "/admin/payments",
      postForm({
        intent: "resolve",
        discrepancyId: line.id,
        note: "Stripe の管理画面で返金済みを確認",
      }),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin/payments?view=open&done=resolved");
    const [resolved] = await database.db
      .select()
      .from(paymentDiscrepancies)
      .where(eq(paymentDiscrepancies.id, line.id));
    expect(resolved).toMatchObject({
      resolution: "admin",
      resolvedBy: userId,
      resolutionNote: "Stripe の管理画面で返金済みを確認",
    });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.targetId, line.id));
    expect(audit).toMatchObject([
      {
        action: "payment_discrepancy.resolve",
        actorUserId: userId,
        targetType: "payment_discrepancy",
      },
    ]);
    // Twice (another tab): refused with a message, not a second entry.
    const again = await b.request(
      "/admin/payments",
      postForm({ intent: "resolve", discrepancyId: line.id, note: "再度" }),
    );
    expect(again.status).toBe(409);
    const bad = await b.request(
      "/admin/payments",
      postForm({ intent: "resolve", discrepancyId: "not-an-id", note: "x" }),
    );
    expect(bad.status).toBe(400);

    const resolvedView = (await (await b.request("/admin/payments?view=resolved")).json()) as {
      loaderData: PageData;
    };
    expect(resolvedView.loaderData.lines.map((l) => l.id)).toContain(line.id);
  });

  it("runs today's reconciliation from the button, audited, and says 差異はありません when all is resolved", async () => {
    const { b, userId } = await as("admin");
    await database.db
      .update(paymentDiscrepancies)
      .set({
        resolvedAt: new Date(),
        resolution: "admin",
        resolvedBy: userId,
        resolutionNote: "確認",
      })
      .where(isNull(paymentDiscrepancies.resolvedAt));
    const run = await b.request("/admin/payments", postForm({ intent: "run" }));
    expect(run.status).toBe(302);
    expect(run.headers.get("location")).toBe("/admin/payments?view=open&done=run");
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "payments.reconcile"));
    expect(audit).toHaveLength(1);
    const page = (await (await b.request("/admin/payments")).json()) as { loaderData: PageData };
    // Everything the fake knows was listed before and is resolved now: nothing new is open.
    expect(page.loaderData.openCount).toBe(0);
    expect(page.loaderData.lines).toEqual([]);
    expect(page.loaderData.lastRun).not.toBeNull();
  });
});
