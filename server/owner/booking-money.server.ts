import { and, asc, eq } from "drizzle-orm";
import { formatDate, formatYen } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { type FeeWindow, feeWindowLabels } from "../../common/payment-policy";
import { recordAudit } from "../audit/audit";
import {
  type BookingMoney,
  insertRefund,
  lockedPayments,
  refundableLeft,
  sendBookingMoney,
} from "../bookings/booking-fees.server";
import {
  paymentKindLabels,
  paymentStatusLabels,
  sendPendingRefunds,
} from "../bookings/booking-payments.server";
import type { Database } from "../db/client";
import { bookings, type PaymentKind, type PaymentRowStatus, payments, users } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { describeError } from "../logger";
import { can, type SalonAccess } from "../salon-access/salon-access.server";
import { BookingNotFoundForSalonError, lockBooking } from "./booking-actions.server";

/**
 * The salon's view of a booking's money and its three acts on it (issue 40
 * §3; decision 0080): every payment, fee and refund with who and when;
 * 返金 (full or part, bounded by what is left), 請求しない (waive a fee not
 * taken), 再試行 (send a pending one again with its saved key). Refund and
 * waive are `payments.refund` (owner, manager); 再試行 is `bookings.act`.
 * The server computes every amount; the form names a payment and, for a
 * part refund, a yen amount it checks against what is left.
 */

export type OwnerPaymentLine = {
  id: string;
  kind: PaymentKind;
  kindLabel: string;
  amount: number;
  amountLabel: string;
  status: PaymentRowStatus;
  statusLabel: string;
  /** When it was settled (or decided), in the salon's zone. */
  atLabel: string;
  /** Who: the staff member's name, お客様, or システム. */
  byLabel: string;
  /** Why a fee was not taken, in Japanese; null when nothing to say. */
  reason: string | null;
  /** Yen left to refund (0: nothing). */
  refundable: number;
  refundableLabel: string;
  canWaive: boolean;
  canRetry: boolean;
};

const waivable: readonly PaymentRowStatus[] = ["pending", "failed", "open", "expired"];

function lineLabel(row: { kind: PaymentKind; feeWindow: string | null }, of?: PaymentKind) {
  if (row.kind === "fee" && row.feeWindow) {
    return `キャンセル料（${feeWindowLabels[row.feeWindow as FeeWindow] ?? ""}）`;
  }
  if (row.kind === "refund" && of) return `返金（${paymentKindLabels[of]}）`;
  return paymentKindLabels[row.kind];
}

const atLabelOf = (at: Date, timeZone: string) => {
  const local = toLocal(at, timeZone);
  return `${formatDate(local.date)} ${local.time}`;
};

/** Every payment, fee and refund of the booking, oldest first, as the salon's detail lists them. */
export async function ownerPaymentsOfBooking(
  db: Pick<Database, "select">,
  access: SalonAccess,
  bookingId: string,
): Promise<OwnerPaymentLine[]> {
  const rows = await db
    .select({ payment: payments, byName: users.name })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.createdBy))
    .where(and(eq(payments.bookingId, bookingId), eq(payments.salonId, access.salon.id)))
    .orderBy(asc(payments.createdAt));
  const all = rows.map((r) => r.payment);
  const kindOf = new Map(all.map((p) => [p.id, p.kind]));
  const mayRefund = can(access, "payments.refund");
  const mayAct = can(access, "bookings.act");
  return rows
    .filter(
      ({ payment }) =>
        // A deposit's page never opened is no payment yet.
        payment.status !== "pending" || payment.kind === "fee" || payment.kind === "refund",
    )
    .map(({ payment, byName }) => {
      const left = refundableLeft(payment, all);
      const by = payment.createdBy
        ? (byName ?? "スタッフ")
        : payment.kind === "refund"
          ? "システム"
          : "お客様";
      return {
        id: payment.id,
        kind: payment.kind,
        kindLabel: lineLabel(payment, payment.refundOf ? kindOf.get(payment.refundOf) : undefined),
        amount: payment.amount,
        amountLabel: formatYen(payment.amount),
        status: payment.status,
        statusLabel:
          payment.status === "pending"
            ? "未送信（再試行できます）"
            : paymentStatusLabels[payment.status],
        atLabel: atLabelOf(payment.settledAt ?? payment.createdAt, access.salon.timeZone),
        byLabel: by,
        reason:
          payment.status === "succeeded" || payment.status === "refunded"
            ? null
            : payment.failureMessage,
        refundable: mayRefund ? left : 0,
        refundableLabel: formatYen(left),
        canWaive: mayRefund && payment.kind === "fee" && waivable.includes(payment.status),
        canRetry:
          mayAct &&
          payment.status === "pending" &&
          (payment.kind === "fee" || payment.kind === "refund"),
      };
    });
}

export class PaymentActionRefusedError extends DomainError {
  constructor(message: string, code = "payment_action_refused", status = 422) {
    super(code, message, status);
  }
}

class PaymentNotFoundError extends DomainError {
  constructor() {
    super("payment_not_found", "お支払いが見つかりません。画面を読み込み直してください。", 404);
  }
}

type Target = { bookingId: string; paymentId: string };

/** The booking (this salon's, locked) and its payments (locked); the named one among them. */
async function lockedTarget(tx: Database, access: SalonAccess, target: Target) {
  await lockBooking(tx, { salonId: access.salon.id, bookingId: target.bookingId });
  const rows = await lockedPayments(tx, target.bookingId);
  const payment = rows.find((r) => r.id === target.paymentId);
  if (!payment) throw new PaymentNotFoundError();
  return { rows, payment };
}

/**
 * 返金: the whole of what is left of a paid payment, or a part of it.
 * `amount` null: all that is left. The refund row and its key (the
 * payment's next sequence) are saved with the audit entry, then the
 * provider is asked; an unreachable provider leaves it pending (再試行).
 */
export async function refundPayment(
  db: Database,
  access: SalonAccess,
  input: Target & { amount: number | null },
  now: Date,
  money: BookingMoney,
): Promise<{ sent: boolean }> {
  requireRefundRight(access);
  const refund = await db.transaction(async (tx) => {
    const { rows, payment } = await lockedTarget(tx, access, input);
    const left = refundableLeft(payment, rows);
    if (left <= 0) {
      throw new PaymentActionRefusedError("このお支払いには返金できる金額が残っていません。");
    }
    const amount = input.amount ?? left;
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      throw new PaymentActionRefusedError(
        `返金額は1円以上、返金できる残り（${formatYen(left)}）以下の金額を入力してください。`,
        "refund_amount_out_of_range",
      );
    }
    const row = await insertRefund(
      tx,
      payment,
      amount,
      rows.filter((r) => r.kind === "refund"),
      access.user.id,
    );
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "payment.refund",
        targetType: "booking",
        targetId: input.bookingId,
        salonId: access.salon.id,
        before: { paymentId: payment.id, kind: payment.kind, left },
        after: { refundId: row?.id ?? null, amount, left: left - amount },
      },
      now,
    );
    return row;
  });
  if (!refund || !money.provider) return { sent: false };
  try {
    await sendPendingRefunds(db, money.provider, input.paymentId, now);
  } catch (error) {
    money.log?.warn("payments: refund left pending", describeError(error));
  }
  const [after] = await db.select().from(payments).where(eq(payments.id, refund.id));
  return { sent: after?.status === "succeeded" };
}

/** 請求しない: a fee not taken (not yet sent, refused, or waiting for the customer's link) let go. */
export async function waiveFee(
  db: Database,
  access: SalonAccess,
  input: Target,
  now: Date,
  money: BookingMoney,
): Promise<void> {
  requireRefundRight(access);
  const waived = await db.transaction(async (tx) => {
    const { payment } = await lockedTarget(tx, access, input);
    if (payment.kind !== "fee") {
      throw new PaymentActionRefusedError("キャンセル料のほかは「請求しない」にできません。");
    }
    if (!waivable.includes(payment.status)) {
      throw new PaymentActionRefusedError(
        payment.status === "waived"
          ? "このキャンセル料はすでに「請求しない」になっています。"
          : "このキャンセル料はお支払い済みです。お返しする場合は返金してください。",
      );
    }
    await tx
      .update(payments)
      .set({ status: "waived", waivedBy: access.user.id, settledAt: now })
      .where(eq(payments.id, payment.id));
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "payment.waive",
        targetType: "booking",
        targetId: input.bookingId,
        salonId: access.salon.id,
        before: { paymentId: payment.id, status: payment.status, amount: payment.amount },
        after: { status: "waived" },
      },
      now,
    );
    return payment;
  });
  // The customer's payment link stops taking payment (a payment made meanwhile is refunded).
  if (waived.checkoutSessionId && money.provider) {
    await money.provider.expireCheckoutSession(waived.checkoutSessionId).catch((error: unknown) => {
      money.log?.warn("payments: fee link not expired", describeError(error));
    });
  }
}

/** 再試行: the booking's pending fees and refunds sent again, each with its saved key. */
export async function retryPayment(
  db: Database,
  access: SalonAccess,
  input: Target,
  now: Date,
  money: BookingMoney,
): Promise<void> {
  const [row] = await db
    .select({ status: payments.status, sendingUntil: payments.sendingUntil })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(
      and(
        eq(payments.id, input.paymentId),
        eq(payments.bookingId, input.bookingId),
        eq(bookings.salonId, access.salon.id),
      ),
    );
  if (!row) throw new PaymentNotFoundError();
  if (row.status !== "pending") {
    throw new PaymentActionRefusedError("このお支払いはすでに手続きが済んでいます。");
  }
  if (row.sendingUntil && row.sendingUntil > now) {
    // The retry job (or another 再試行) is sending it now, with the same key (decision 0084).
    throw new PaymentActionRefusedError(
      "ただいま決済サービスに送信中です。しばらくしてから画面を読み込み直してください（二重に請求されることはありません）。",
      "payment_being_sent",
      409,
    );
  }
  await sendBookingMoney(db, money.provider, input.bookingId, { ...money, now });
  const [after] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.id, input.paymentId));
  if (after?.status === "pending") {
    throw new PaymentActionRefusedError(
      "決済サービスに接続できませんでした。手続きは保存されています。しばらくしてから、もう一度「再試行」を押してください（二重に請求されることはありません）。",
      "payment_service_unavailable",
      409,
    );
  }
}

function requireRefundRight(access: SalonAccess) {
  // The page offers neither button to other roles; a forged post is the same 404 as the guard's.
  if (!can(access, "payments.refund")) throw new BookingNotFoundForSalonError();
}

export const paymentIntents = ["refund_payment", "waive_fee", "retry_payment"] as const;
export type PaymentIntent = (typeof paymentIntents)[number];

export const paymentDoneMessages: Record<string, string> = {
  refund_payment: "返金しました。",
  refund_pending:
    "返金を受け付けました。決済サービスの応答を待っています。少し後にこの画面で状態を確かめてください。",
  waive_fee: "キャンセル料を「請求しない」にしました。",
  retry_payment: "決済サービスに送り直しました。",
};

const uuidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A payment form's post: which act, which payment, and for a part refund
 * the yen amount as typed (whole yen only, checked here and bounded by what
 * is left in refundPayment). The outcome's `done` is the detail page's
 * message key.
 */
export async function submitPaymentForm(
  db: Database,
  access: SalonAccess,
  bookingId: string,
  form: FormData,
  now: Date,
  money: BookingMoney,
): Promise<{ done: string }> {
  const intent = String(form.get("intent") ?? "");
  const paymentId = String(form.get("paymentId") ?? "");
  if (!uuidLike.test(paymentId)) throw new PaymentNotFoundError();
  const target = { bookingId, paymentId };
  if (intent === "waive_fee") {
    await waiveFee(db, access, target, now, money);
    return { done: "waive_fee" };
  }
  if (intent === "retry_payment") {
    await retryPayment(db, access, target, now, money);
    return { done: "retry_payment" };
  }
  const typed = String(form.get("amount") ?? "")
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，円]/g, "");
  if (typed !== "" && !/^\d{1,9}$/.test(typed)) {
    throw new PaymentActionRefusedError(
      "返金額は半角数字（円）で入力してください。空欄のときは残りの全額を返金します。",
      "refund_amount_invalid",
      400,
    );
  }
  const { sent } = await refundPayment(
    db,
    access,
    { ...target, amount: typed === "" ? null : Number(typed) },
    now,
    money,
  );
  return { done: sent ? "refund_payment" : "refund_pending" };
}
