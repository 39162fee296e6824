import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import {
  bookingPolicyTerms,
  noPolicy,
  type PaymentPolicy,
  type PolicySnapshot,
  paymentAtBooking,
  policyInForce,
} from "../../common/payment-policy";
import type { Database } from "../db/client";
import { bookingMenus, coupons, menus, salonPaymentPolicies } from "../db/schema";
import { DomainError } from "../errors/domain-error";

/**
 * The salon's payment and cancellation policy applied to a booking (issue
 * 40, §2; decision 0075): computed by the server from the database for the
 * confirm step, and again inside the confirming transaction, whose result is
 * stored on the booking. Nothing the browser sends enters the amounts.
 */

type Reader = Pick<Database, "select">;

/** The salon's policy; a salon without a row has none. */
export async function paymentPolicyOf(db: Reader, salonId: string): Promise<PaymentPolicy> {
  const [row] = await db
    .select()
    .from(salonPaymentPolicies)
    .where(eq(salonPaymentPolicies.salonId, salonId));
  if (!row) return noPolicy;
  return {
    mode: row.mode,
    deposit:
      row.mode === "deposit" && row.depositKind && row.depositValue !== null
        ? { kind: row.depositKind, value: row.depositValue }
        : null,
    sameDayPercent: row.sameDayPercent,
    dayBeforePercent: row.dayBeforePercent,
    noShowPercent: row.noShowPercent,
    note: row.note,
  };
}

/**
 * A short fingerprint of the policy's numbers and note: the confirm form
 * carries the one the visitor read, so a policy changed between reading and
 * agreeing is shown again rather than agreed to unseen.
 */
export function policyDigest(policy: PaymentPolicy): string {
  return createHash("sha256").update(JSON.stringify(policy)).digest("base64url").slice(0, 16);
}

/**
 * Online payment is asked for unless a booked menu or the coupon is exempt
 * (prepayment_exempt): one exempt part makes the whole booking paid at the
 * salon, the simple rule an owner can predict.
 */
async function paymentRequiredFor(
  db: Reader,
  salonId: string,
  bookingId: string,
  couponId: string | null,
): Promise<boolean> {
  const exemptMenus = await db
    .select({ id: menus.id })
    .from(bookingMenus)
    .innerJoin(menus, eq(menus.id, bookingMenus.menuId))
    .where(
      and(
        eq(bookingMenus.salonId, salonId),
        eq(bookingMenus.bookingId, bookingId),
        eq(menus.prepaymentExempt, true),
      ),
    )
    .limit(1);
  if (exemptMenus.length > 0) return false;
  if (!couponId) return true;
  const [coupon] = await db
    .select({ exempt: coupons.prepaymentExempt })
    .from(coupons)
    .where(and(eq(coupons.id, couponId), eq(coupons.salonId, salonId)));
  return !coupon?.exempt;
}

export type PolicyBooking = {
  id: string;
  salonId: string;
  couponId: string | null;
  startsAt: Date;
  totalPrice: number;
};

/** The policy of this (held) booking as it would be agreed now, and its digest; null terms: none in force. */
export async function bookingPolicyFor(
  db: Reader,
  booking: PolicyBooking,
  timeZone: string,
  now: Date,
): Promise<{ terms: PolicySnapshot | null; digest: string }> {
  const policy = await paymentPolicyOf(db, booking.salonId);
  const digest = policyDigest(policy);
  if (!policyInForce(policy)) return { terms: null, digest };
  const paymentRequired =
    policy.mode === "none"
      ? false
      : await paymentRequiredFor(db, booking.salonId, booking.id, booking.couponId);
  const terms = bookingPolicyTerms(policy, {
    amount: booking.totalPrice,
    startsAt: booking.startsAt,
    timeZone,
    paymentRequired,
    now,
  });
  return { terms, digest };
}

export const policyConsentMessage =
  "キャンセルポリシーをご確認のうえ、「キャンセルポリシーに同意する」にチェックを入れてください。";

/** A booking at a salon with a policy needs the visitor's consent to it. */
export class PolicyConsentRequiredError extends DomainError {
  constructor() {
    super("policy_consent_required", policyConsentMessage, 400);
  }
}

/** The salon changed its policy after the visitor read it: shown again, agreed again. */
export class PolicyChangedError extends DomainError {
  constructor() {
    super(
      "policy_changed",
      "サロンのお支払い・キャンセルポリシーが変更されました。新しい内容をご確認のうえ、もう一度同意してください。",
      409,
    );
  }
}

/** What the visitor sent: the box ticked, and (from the page) the digest of the policy read. */
export type PolicyConsent = { agreed: boolean; digest: string | null };

/**
 * The confirming transaction's check: no policy, nothing to agree to (null);
 * a policy, the visitor's consent to this one, and its terms to store.
 */
export async function agreedPolicy(
  tx: Reader,
  booking: PolicyBooking,
  timeZone: string,
  consent: PolicyConsent | undefined,
  now: Date,
): Promise<PolicySnapshot | null> {
  const { terms, digest } = await bookingPolicyFor(tx, booking, timeZone, now);
  if (!terms) return null;
  if (!consent?.agreed) throw new PolicyConsentRequiredError();
  if (consent.digest !== null && consent.digest !== digest) throw new PolicyChangedError();
  return terms;
}

/** Whether these terms ask for a payment (or a card) online before the booking is made. */
export function needsOnlinePayment(terms: PolicySnapshot): boolean {
  return paymentAtBooking(terms) !== null;
}

/**
 * A booking whose salon asks for payment at booking, confirmed by a path
 * that takes none (the JSON API, or a server without a payment provider):
 * refused, never booked unpaid (decision 0078).
 */
export class PaymentRequiredError extends DomainError {
  constructor() {
    super(
      "payment_required",
      "このサロンのご予約には、ご予約時のオンライン決済が必要です。サロンの予約ページからお手続きください。",
      409,
    );
  }
}

/** The server offers no online payment (production without a Stripe key): the salon cannot be booked online now. */
export class PaymentUnavailableError extends DomainError {
  constructor() {
    super(
      "payment_unavailable",
      "ただいまオンライン決済をご利用いただけないため、このサロンはネット予約を受け付けられません。お手数ですが、サロンへ直接お問い合わせください。",
      409,
    );
  }
}

/** Sent to pay where nothing is due (the policy changed meanwhile): the page again. */
export class PaymentNotDueError extends DomainError {
  constructor() {
    super(
      "payment_not_due",
      "お支払いの内容が変わりました。内容をご確認のうえ、もう一度お進みください。",
      409,
    );
  }
}
