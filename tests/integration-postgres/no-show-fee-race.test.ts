import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookingMoney } from "../../server/bookings/booking-fees.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import type { DatabaseHandle } from "../../server/db/client";
import { payments } from "../../server/db/schema";
import { applyBookingAction } from "../../server/owner/booking-actions.server";
import { refundPayment } from "../../server/owner/booking-money.server";
import { startFakePayments } from "../../server/payments/payments.server";
import type { SalonAccess } from "../../server/salon-access/salon-access.server";
import { bookWithPolicy, feePolicy, payAhead } from "../support/booking-money";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Two staff pressing the same money button at once, each on an app server
 * of their own (a pool each) on PostgreSQL (issue 40 §5; decision 0080):
 * the provider is asked for one charge (the fake's PaymentIntents counted),
 * and two refunds of all that is left give back the payment once.
 */
let database: TestDatabase;
let other: DatabaseHandle;
let fake: Awaited<ReturnType<typeof startFakePayments>>;

const NOW = new Date("2026-12-01T09:00:00+09:00");
const START = new Date("2026-12-03T11:00:00+09:00");

beforeAll(async () => {
  database = await createTestDatabase();
  other = await database.openAnother();
  fake = await startFakePayments({ maxNetworkRetries: 0 });
});
afterAll(async () => {
  await fake?.fake.close();
  await other?.close();
  await database?.drop();
});

async function scene(policy = feePolicy({ mode: "card_only", deposit: null })) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
  const customer = await buildUser(database.db);
  const staffA = await buildUser(database.db);
  const staffB = await buildUser(database.db);
  const booking = await bookWithPolicy(database.db, {
    salonId: salon.id,
    menuId: menu.id,
    staffId: stylists[0]?.id ?? "",
    userId: customer.id,
    start: START,
    now: NOW,
    policy,
  });
  return { salon, booking, staffA, staffB };
}

const money = () => ({ provider: fake.provider, publicUrl: "http://127.0.0.1:3000" });
const feeIntents = (bookingId: string) =>
  [...fake.fake.paymentIntents.values()].filter(
    (pi) =>
      (pi.metadata as Record<string, string>).booking_id === bookingId &&
      (pi.metadata as Record<string, string>).purpose === "fee",
  );

describe("two staff, one no-show", () => {
  it("charges the fee once when both record the no-show at the same moment", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    const at = new Date(START.getTime() + 1_800_000);
    const press = (db: typeof database.db, userId: string) =>
      applyBookingAction(
        db,
        { salonId: s.salon.id, bookingId: s.booking.id },
        { action: "no_show", version: s.booking.version },
        salonActor(userId),
        at,
        money(),
      ).then(
        () => "done",
        (error: { status?: number }) => error.status,
      );
    const outcomes = await Promise.all([
      press(database.db, s.staffA.id),
      press(other.db, s.staffB.id),
    ]);
    expect(outcomes.sort()).toEqual([409, "done"].sort());
    const fees = (
      await database.db.select().from(payments).where(eq(payments.bookingId, s.booking.id))
    ).filter((r) => r.kind === "fee");
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ status: "succeeded", amount: 5500 });
    expect(feeIntents(s.booking.id)).toHaveLength(1);
  });

  it("charges once when two retries of a pending fee run at once", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    // Recorded while the provider was away: the fee waits, pending, with its key.
    await applyBookingAction(
      database.db,
      { salonId: s.salon.id, bookingId: s.booking.id },
      { action: "no_show", version: s.booking.version },
      salonActor(s.staffA.id),
      new Date(START.getTime() + 1_800_000),
    );
    await Promise.all([
      sendBookingMoney(database.db, fake.provider, s.booking.id, { ...money(), now: new Date() }),
      sendBookingMoney(other.db, fake.provider, s.booking.id, { ...money(), now: new Date() }),
    ]);
    expect(feeIntents(s.booking.id)).toHaveLength(1);
    const [fee] = (
      await database.db.select().from(payments).where(eq(payments.bookingId, s.booking.id))
    ).filter((r) => r.kind === "fee");
    expect(fee?.status).toBe("succeeded");
  });

  it("gives a payment back once when two staff refund all that is left at once", async () => {
    const s = await scene(feePolicy({ mode: "full", deposit: null }));
    const full = await payAhead(database.db, fake.provider, s.booking, "full", 5500);
    const access = (userId: string): SalonAccess => ({
      user: { id: userId, email: "", emailVerified: true, name: "", role: "user", profile: null },
      salon: {
        id: s.salon.id,
        slug: s.salon.slug,
        name: s.salon.name,
        timeZone: "Asia/Tokyo",
        status: s.salon.status,
      },
      role: "owner",
      staffId: null,
    });
    const refund = (db: typeof database.db, userId: string) =>
      refundPayment(
        db,
        access(userId),
        { bookingId: s.booking.id, paymentId: full.id, amount: null },
        new Date(),
        money(),
      ).then(
        () => "done",
        (error: { status?: number }) => error.status,
      );
    const outcomes = await Promise.all([
      refund(database.db, s.staffA.id),
      refund(other.db, s.staffB.id),
    ]);
    expect(outcomes.sort()).toEqual([422, "done"].sort());
    const refunds = [...fake.fake.refunds.values()].filter(
      (r) => r.payment_intent === full.paymentIntentId,
    );
    expect(refunds.map((r) => r.amount)).toEqual([5500]);
  });
});
