import { eq } from "drizzle-orm";
import type { PaymentPolicy } from "../../common/payment-policy";
import { bookingPolicyTerms } from "../../common/payment-policy";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import type { Database } from "../../server/db/client";
import { bookings, payments } from "../../server/db/schema";
import { idempotencyKeys, type PaymentProvider } from "../../server/payments/provider.server";
import { bookingClient } from "./booking-client";
import { payOnHostedPage } from "./payments";

/**
 * Bookings with money on them for the fee and refund tests (decision 0080):
 * a real booking (a hold confirmed by its customer), the policy the customer
 * agreed to written on it, and what was paid ahead through the fake
 * Stripe's hosted page, so the card kept is a real one at the fake.
 */

export const GOOD_CARD = "4242424242424242";

/** 予約金 20 %, 前日 30 %, 当日 50 %, 無断 100 %, unless told. */
export const feePolicy = (overrides: Partial<PaymentPolicy> = {}): PaymentPolicy => ({
  mode: "deposit",
  deposit: { kind: "percent", value: 20 },
  dayBeforePercent: 30,
  sameDayPercent: 50,
  noShowPercent: 100,
  note: "",
  ...overrides,
});

export async function bookWithPolicy(
  db: Database,
  input: {
    salonId: string;
    menuId: string;
    staffId: string;
    userId: string;
    start: Date;
    now: Date;
    policy: PaymentPolicy;
  },
) {
  const hold = await holdSlot(db, {
    ...bookingClient(db),
    salonId: input.salonId,
    menuIds: [input.menuId],
    staffId: input.staffId,
    start: input.start,
    userId: input.userId,
    now: input.now,
  });
  const booking = await confirmBooking(db, {
    ...bookingClient(db),
    holdId: hold.id,
    userId: input.userId,
    customer: {
      name: "予約 花子",
      kana: "よやく はなこ",
      phone: "090-1234-5678",
      email: "hanako@example.jp",
    },
    notes: "",
    idempotencyKey: null,
    now: input.now,
  });
  const snapshot = bookingPolicyTerms(input.policy, {
    amount: booking.totalPrice,
    startsAt: booking.startsAt,
    timeZone: "Asia/Tokyo",
    paymentRequired: true,
    now: input.now,
  });
  const [updated] = await db
    .update(bookings)
    .set({ paymentPolicy: snapshot })
    .where(eq(bookings.id, booking.id))
    .returning();
  if (!updated) throw new Error("booking gone");
  return updated;
}

/** What the customer paid at booking on the hosted page (or the card kept, for "card"). */
export async function payAhead(
  db: Database,
  provider: PaymentProvider,
  booking: { id: string; salonId: string },
  kind: "deposit" | "full" | "card",
  amount: number,
) {
  const idempotencyKey = idempotencyKeys.checkout(booking.id);
  const session = await provider.createCheckoutSession({
    bookingId: booking.id,
    mode: kind === "card" ? "setup" : "payment",
    ...(kind === "card" ? {} : { amount }),
    description: "予約金",
    successUrl: "http://127.0.0.1/ok?session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://127.0.0.1/back",
    idempotencyKey,
  });
  await payOnHostedPage(session.url ?? "", GOOD_CARD);
  const paid = await provider.retrieveCheckoutSession(session.id);
  const [row] = await db
    .insert(payments)
    .values({
      bookingId: booking.id,
      salonId: booking.salonId,
      kind,
      amount: kind === "card" ? 0 : amount,
      status: "succeeded",
      idempotencyKey,
      checkoutSessionId: paid.id,
      paymentIntentId: paid.paymentIntentId,
      setupIntentId: paid.setupIntentId,
      providerCustomerId: paid.customerId,
      paymentMethodId: paid.paymentMethodId,
      settledAt: new Date(),
    })
    .returning();
  if (!row?.paymentMethodId) throw new Error("no card kept");
  return row;
}
