import { and, eq, gte, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { formatYen, SITE_TIME_ZONE } from "../../common/format";
import { addDays, type LocalDate, localToInstant } from "../../common/local-time";
import { settleCheckout } from "../bookings/booking-payments.server";
import type { Database } from "../db/client";
import {
  type DiscrepancyKind,
  paymentDiscrepancies,
  paymentReconciliations,
  payments,
} from "../db/schema";
import type { Logger } from "../logger";
import {
  findPaymentRow,
  findRefundRow,
  isCheckoutRow,
  type PaymentRow,
  recordPaymentSucceeded,
  recordRefundMade,
  refundMade,
} from "./payment-rows.server";
import {
  type Payment,
  type PaymentProvider,
  PaymentRequestError,
  type Refund,
} from "./provider.server";

/**
 * The daily reconciliation (issue 40 §3; decision 0081): the provider's
 * payments and refunds created on a day (and the days before it, a
 * lookback) compared with our payments rows, each difference written once
 * to payment_discrepancies for the administrator. Where the fix is safe and
 * unambiguous — our row pending or open, matched by the provider's id or by
 * the row id we sent in its metadata, and the provider says it succeeded —
 * the row moves forward (a checkout's through settleCheckout, which
 * confirms the booking), and the difference is written as resolved by the
 * reconciliation. Nothing here charges: the provider is only read.
 */

export const RECONCILE_LOOKBACK_DAYS = 2;

export type ReconcileOptions = {
  /** The calendar day (YYYY-MM-DD, in `timeZone`) to reconcile. */
  day: LocalDate;
  now: Date;
  timeZone?: string;
  lookbackDays?: number;
  log?: Logger;
};

export type ReconcileResult = {
  day: LocalDate;
  rangeFrom: Date;
  rangeBefore: Date;
  paymentsChecked: number;
  refundsChecked: number;
  /** Differences seen by this run (new or seen before), fixed ones included. */
  found: number;
  /** Rows this run moved forward. */
  fixed: number;
  /** Differences no run had written before (the administrators' mail says how many; decision 0084). */
  newFound: number;
  /** Of those, the ones left for an administrator (not moved forward by this run). */
  newOpen: number;
};

type Finding = {
  kind: DiscrepancyKind;
  providerObject: "payment" | "refund";
  providerId: string;
  row: PaymentRow | null;
  providerAmount: number | null;
  providerStatus: string | null;
  note: string;
  /** The reconciliation moved our row forward: written as resolved ("auto"). */
  fixed?: boolean;
};

const rowStatusJa: Record<string, string> = {
  pending: "手続き前",
  open: "お支払い待ち",
  succeeded: "完了",
  expired: "期限切れ",
  failed: "失敗",
  refunded: "返金済み",
};

/**
 * The range listed for `day`: from the start of the lookback's first day to
 * the day's end (for today, what exists so far: nothing is created later
 * than now, and the provider's seconds are never cut off mid-second).
 */
export function reconcileRange(
  day: LocalDate,
  timeZone = SITE_TIME_ZONE,
  lookbackDays = RECONCILE_LOOKBACK_DAYS,
) {
  return {
    rangeFrom: localToInstant(addDays(day, -lookbackDays), "00:00", timeZone),
    rangeBefore: localToInstant(addDays(day, 1), "00:00", timeZone),
  };
}

export async function reconcilePayments(
  db: Database,
  provider: PaymentProvider,
  {
    day,
    now,
    timeZone = SITE_TIME_ZONE,
    lookbackDays = RECONCILE_LOOKBACK_DAYS,
    log,
  }: ReconcileOptions,
): Promise<ReconcileResult> {
  const { rangeFrom, rangeBefore } = reconcileRange(day, timeZone, lookbackDays);
  const result: ReconcileResult = {
    day,
    rangeFrom,
    rangeBefore,
    paymentsChecked: 0,
    refundsChecked: 0,
    found: 0,
    fixed: 0,
    newFound: 0,
    newOpen: 0,
  };

  async function record(finding: Finding) {
    result.found += 1;
    if (finding.fixed) result.fixed += 1;
    if (await writeFinding(db, finding, { day, now })) {
      result.newFound += 1;
      if (!finding.fixed) result.newOpen += 1;
    }
  }

  const seenPayments = new Set<string>();
  for await (const payment of provider.listPayments({
    createdFrom: rangeFrom,
    createdBefore: rangeBefore,
  })) {
    seenPayments.add(payment.id);
    result.paymentsChecked += 1;
    for (const finding of await checkPayment(db, provider, payment, { now, log })) {
      await record(finding);
    }
  }
  const seenRefunds = new Set<string>();
  for await (const refund of provider.listRefunds({
    createdFrom: rangeFrom,
    createdBefore: rangeBefore,
  })) {
    seenRefunds.add(refund.id);
    result.refundsChecked += 1;
    for (const finding of await checkRefund(db, refund, { now })) await record(finding);
  }

  // Our rows that say money moved in the range and were not in the lists: asked one by one
  // (an intent created outside the range, a page paid late), missing_there when unknown.
  const ours = await db
    .select()
    .from(payments)
    .where(
      and(
        ne(payments.kind, "refund"),
        inArray(payments.status, ["succeeded", "refunded"]),
        isNotNull(payments.paymentIntentId),
        gte(payments.settledAt, rangeFrom),
        lt(payments.settledAt, rangeBefore),
      ),
    );
  for (const row of ours) {
    const intentId = row.paymentIntentId ?? "";
    if (seenPayments.has(intentId)) continue;
    const payment = await retrieveOrNull(() => provider.retrievePayment(intentId));
    if (payment) {
      for (const finding of await checkPayment(db, provider, payment, { now, log })) {
        await record(finding);
      }
      continue;
    }
    await record({
      kind: "missing_there",
      providerObject: "payment",
      providerId: intentId,
      row,
      providerAmount: null,
      providerStatus: null,
      note: `こちらでは${rowStatusJa[row.status]}（${formatYen(row.amount)}）ですが、決済サービスにこの決済がありません。`,
    });
  }
  const paid = alias(payments, "paid");
  const ourRefunds = await db
    .select({ row: payments, intentId: paid.paymentIntentId })
    .from(payments)
    .leftJoin(paid, eq(paid.id, payments.refundOf))
    .where(
      and(
        eq(payments.kind, "refund"),
        eq(payments.status, "succeeded"),
        isNotNull(payments.providerRefundId),
        gte(payments.settledAt, rangeFrom),
        lt(payments.settledAt, rangeBefore),
      ),
    );
  for (const { row, intentId } of ourRefunds) {
    const refundId = row.providerRefundId ?? "";
    if (seenRefunds.has(refundId)) continue;
    let found: Refund | null = null;
    if (intentId) {
      for await (const refund of provider.listRefunds({
        paymentIntentId: intentId,
        createdFrom: new Date(row.createdAt.getTime() - 24 * 3600_000),
        createdBefore: new Date(now.getTime() + 3600_000),
      })) {
        if (refund.id === refundId) found = refund;
      }
    }
    if (found) {
      for (const finding of await checkRefund(db, found, { now })) await record(finding);
      continue;
    }
    await record({
      kind: "missing_there",
      providerObject: "refund",
      providerId: refundId,
      row,
      providerAmount: null,
      providerStatus: null,
      note: `こちらでは返金済み（${formatYen(row.amount)}）ですが、決済サービスにこの返金がありません。`,
    });
  }

  const { newFound: _new, newOpen: _open, ...counts } = result;
  await db
    .insert(paymentReconciliations)
    .values({ ...counts, ranAt: now })
    .onConflictDoUpdate({
      target: paymentReconciliations.day,
      set: {
        rangeFrom: result.rangeFrom,
        rangeBefore: result.rangeBefore,
        paymentsChecked: result.paymentsChecked,
        refundsChecked: result.refundsChecked,
        found: result.found,
        fixed: result.fixed,
        ranAt: now,
      },
    });
  log?.info("payments: reconciled", { ...result });
  return result;
}

async function retrieveOrNull(call: () => Promise<Payment>): Promise<Payment | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentRequestError && error.code === "resource_missing") return null;
    throw error;
  }
}

/** One of the provider's PaymentIntents against our row: the differences, after any safe fix. */
async function checkPayment(
  db: Database,
  provider: PaymentProvider,
  payment: Payment,
  { now, log }: { now: Date; log?: Logger },
): Promise<Finding[]> {
  const base = {
    providerObject: "payment" as const,
    providerId: payment.id,
    providerAmount: payment.status === "succeeded" ? payment.amountReceived : payment.amount,
    providerStatus: payment.status,
  };
  const row = await findPaymentRow(db, payment);
  if (payment.status !== "succeeded") {
    if (row && (row.status === "succeeded" || row.status === "refunded")) {
      return [
        {
          ...base,
          kind: "status_mismatch",
          row,
          note: `こちらでは${rowStatusJa[row.status]}ですが、決済サービスでは未完了（${payment.status}）です。`,
        },
      ];
    }
    // An open page, a declined fee: nothing moved, nothing to compare.
    return [];
  }
  if (!row) {
    return [
      {
        ...base,
        kind: "missing_here",
        row: null,
        note: `決済サービスで${formatYen(payment.amountReceived)}の決済が完了していますが、こちらに記録がありません。`,
      },
    ];
  }
  if (row.status === "succeeded" || row.status === "refunded") {
    if (row.kind !== "card" && row.amount !== payment.amountReceived) {
      return [
        {
          ...base,
          kind: "amount_mismatch",
          row,
          note: `金額が一致しません（こちら ${formatYen(row.amount)}、決済サービス ${formatYen(payment.amountReceived)}）。`,
        },
      ];
    }
    return [];
  }
  if (row.status === "expired" || row.status === "failed") {
    return [
      {
        ...base,
        kind: "status_mismatch",
        row,
        note: `こちらでは${rowStatusJa[row.status]}ですが、決済サービスでは決済が完了しています。自動では直しません。`,
      },
    ];
  }
  // Ours pending or open, the provider's succeeded: move ours forward, the way its webhook would.
  const finding = { ...base, kind: "status_mismatch" as const, row };
  if (isCheckoutRow(row)) {
    if (!row.checkoutSessionId) {
      return [
        {
          ...finding,
          note: "決済サービスでは決済済みですが、こちらに決済画面の記録がないため自動では直せません。",
        },
      ];
    }
    const session = await provider.retrieveCheckoutSession(row.checkoutSessionId);
    const outcome = await settleCheckout(db, provider, session, { now, log });
    const fixed =
      outcome.kind === "confirmed" || outcome.kind === "done" || outcome.kind === "refunded";
    return [
      {
        ...finding,
        fixed,
        note: fixed
          ? outcome.kind === "refunded"
            ? "決済サービスでは決済済みでした。予約のお時間が残っていなかったため、照合で返金しました。"
            : "決済サービスでは決済済みでした。照合で記録を完了にし、予約を確定しました。"
          : "決済サービスでは決済済みですが、決済画面が完了していないため自動では直せません。",
      },
    ];
  }
  const fixed = await db.transaction(async (tx) => {
    const locked = await findPaymentRow(tx, payment, { lock: true });
    return locked ? recordPaymentSucceeded(tx, locked, payment, now) : false;
  });
  return [
    {
      ...finding,
      fixed: true,
      note: fixed
        ? `決済サービスでは決済済み（${formatYen(payment.amountReceived)}）でした。照合で記録を完了にしました。`
        : `決済サービスでは決済済み（${formatYen(payment.amountReceived)}）でした。照合中に記録が完了になりました。`,
    },
  ];
}

/** One of the provider's refunds against our refund row: the differences, after any safe fix. */
async function checkRefund(
  db: Database,
  refund: Refund,
  { now }: { now: Date },
): Promise<Finding[]> {
  const base = {
    providerObject: "refund" as const,
    providerId: refund.id,
    providerAmount: refund.amount,
    providerStatus: refund.status,
  };
  const row = await findRefundRow(db, refund);
  if (!refundMade(refund)) {
    if (row && row.status === "succeeded") {
      return [
        {
          ...base,
          kind: "status_mismatch",
          row,
          note: `こちらでは返金済みですが、決済サービスでは返金が完了していません（${refund.status}）。`,
        },
      ];
    }
    return [];
  }
  if (!row) {
    return [
      {
        ...base,
        kind: "missing_here",
        row: null,
        note: `決済サービスで${formatYen(refund.amount)}が返金されていますが、こちらに記録がありません。`,
      },
    ];
  }
  if (row.status === "succeeded") {
    if (row.amount !== refund.amount) {
      return [
        {
          ...base,
          kind: "amount_mismatch",
          row,
          note: `返金額が一致しません（こちら ${formatYen(row.amount)}、決済サービス ${formatYen(refund.amount)}）。`,
        },
      ];
    }
    return [];
  }
  if (row.status === "failed") {
    return [
      {
        ...base,
        kind: "status_mismatch",
        row,
        note: "こちらでは返金に失敗していますが、決済サービスでは返金されています。自動では直しません。",
      },
    ];
  }
  await db.transaction(async (tx) => {
    const locked = await findRefundRow(tx, refund, { lock: true });
    if (locked) await recordRefundMade(tx, locked, refund, now);
  });
  return [
    {
      ...base,
      kind: "status_mismatch",
      row,
      fixed: true,
      note: `決済サービスでは返金済み（${formatYen(refund.amount)}）でした。照合で記録を完了にしました。`,
    },
  ];
}

/** A difference written once per kind and provider object; seen again, only last_seen_at moves. */
async function writeFinding(
  db: Database,
  finding: Finding,
  { day, now }: { day: LocalDate; now: Date },
): Promise<boolean> {
  const resolved = finding.fixed ? { resolvedAt: now, resolution: "auto" as const } : {};
  const [written] = await db
    .insert(paymentDiscrepancies)
    .values({
      kind: finding.kind,
      providerObject: finding.providerObject,
      providerId: finding.providerId,
      paymentId: finding.row?.id ?? null,
      salonId: finding.row?.salonId ?? null,
      ourAmount: finding.row?.amount ?? null,
      providerAmount: finding.providerAmount,
      ourStatus: finding.row?.status ?? null,
      providerStatus: finding.providerStatus,
      note: finding.note,
      foundOn: day,
      foundAt: now,
      lastSeenAt: now,
      ...resolved,
    })
    .onConflictDoUpdate({
      target: [paymentDiscrepancies.kind, paymentDiscrepancies.providerId],
      set: {
        lastSeenAt: now,
        ...(finding.fixed
          ? {
              note: finding.note,
              resolvedAt: sql`coalesce(${paymentDiscrepancies.resolvedAt}, ${now.toISOString()}::timestamptz)`,
              resolution: sql`coalesce(${paymentDiscrepancies.resolution}, 'auto')`,
            }
          : {}),
      },
    })
    // Inserted now (not a difference seen before): PostgreSQL's xmax is 0 for a new row.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return written?.inserted === true;
}
