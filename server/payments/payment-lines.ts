import { cancellationFee } from "../../common/cancellation-fee";
import { formatDateTime, formatYen } from "../../common/format";
import { feeWindowLabels, type PolicySnapshot, yenText } from "../../common/payment-policy";
import type { PaymentKind, PaymentRowStatus } from "../db/schema/payments";

/**
 * What a booking's payments say, in Japanese, wherever they are shown
 * (issue 40 §2; decision 0083): the thanks page, the visitor's history and
 * the salon's booking detail (as table rows), the booking mails and the
 * .ics description (as text lines), and the APIs (as records). Pure: the
 * rows are read by `paymentRecordsOf` (payment-records.server.ts).
 */

/**
 * One payments row as shown: a pending row (the key saved, nothing asked yet)
 * is never one, except a refund the salon decided, still being sent.
 */
export type PaymentRecord = {
  id: string;
  kind: PaymentKind;
  /** Yen. */
  amount: number;
  status: PaymentRowStatus;
  /** When it was settled (or begun). */
  at: Date;
};

export const paymentKindLabels: Record<PaymentKind, string> = {
  deposit: "予約金",
  full: "事前決済（全額）",
  card: "カード登録",
  fee: "キャンセル料",
  refund: "返金",
};

export const paymentStatusLabels: Record<PaymentRowStatus, string> = {
  pending: "手続き前",
  open: "お支払い待ち",
  succeeded: "完了",
  expired: "期限切れ",
  failed: "失敗",
  refunded: "返金済み",
  waived: "請求しない（免除）",
};

/** A row of the pages' payment table (app/components/bookings/payment-list.tsx). */
export type PaymentLine = {
  id: string;
  kind: PaymentKind;
  kindLabel: string;
  /** Yen. */
  amount: number;
  amountLabel: string;
  status: PaymentRowStatus;
  statusLabel: string;
  /** When it was settled (or begun), as 2026年11月23日(月) 10:05. */
  atLabel: string;
};

/** A refund decided but not yet accepted by the provider reads as under way, not "before". */
const statusLabelOf = (record: Pick<PaymentRecord, "kind" | "status">) =>
  record.kind === "refund" && record.status === "pending"
    ? "手続き中"
    : paymentStatusLabels[record.status];

export function paymentLine(record: PaymentRecord): PaymentLine {
  return {
    id: record.id,
    kind: record.kind,
    kindLabel: paymentKindLabels[record.kind],
    amount: record.amount,
    amountLabel: formatYen(record.amount),
    status: record.status,
    statusLabel: statusLabelOf(record),
    atLabel: formatDateTime(record.at),
  };
}

/** The record as the APIs answer it: the instant as an ISO string. */
export function paymentJson(record: PaymentRecord) {
  return {
    id: record.id,
    kind: record.kind,
    amount: record.amount,
    status: record.status,
    at: record.at.toISOString(),
  };
}

/** Money that moved: a charge that succeeded (and may since have been refunded). */
const charged = (record: PaymentRecord) =>
  record.kind !== "refund" &&
  record.kind !== "card" &&
  (record.status === "succeeded" || record.status === "refunded");

/**
 * What was paid (every charge that went through: the payment at booking
 * and any キャンセル料), what was given back, and what is kept: the
 * difference, which the salon keeps (a deposit counts towards the visit).
 */
export function paymentTotals(records: readonly PaymentRecord[]) {
  const paid = records.filter(charged).reduce((sum, record) => sum + record.amount, 0);
  const refunded = records
    .filter((record) => record.kind === "refund" && record.status === "succeeded")
    .reduce((sum, record) => sum + record.amount, 0);
  const cardKept = records.some(
    (record) => record.kind === "card" && record.status === "succeeded",
  );
  return { paid, refunded, kept: paid - refunded, cardKept };
}

/** One payment as a line of text: 予約金 1,100円（完了・2026年12月1日(火) 09:00）. */
function recordText(record: PaymentRecord): string {
  const when = `${statusLabelOf(record)}・${formatDateTime(record.at)}`;
  if (record.kind === "card") {
    return `カード登録：キャンセル料のためのお預かり、ご予約時の請求なし（${when}）`;
  }
  return `${paymentKindLabels[record.kind]} ${yenText(record.amount)}（${when}）`;
}

/**
 * The payments as text lines, for the mails and the .ics description:
 * each payment, then what was paid, refunded and kept in all; and, while
 * the booking stands (`remainingOf`: its booked total), what is left to pay
 * at the salon. Empty when there is no payment to show.
 */
export function paymentTextLines(
  records: readonly PaymentRecord[],
  { remainingOf }: { remainingOf?: number } = {},
): string[] {
  if (records.length === 0) return [];
  const { paid, refunded, kept } = paymentTotals(records);
  const lines = records.map(recordText);
  if (paid > 0) lines.push(`お支払い済み：${yenText(paid)}`);
  if (refunded > 0) {
    lines.push(`返金済み：${yenText(refunded)}`);
    lines.push(`差し引きお支払い額：${yenText(kept)}`);
  }
  if (remainingOf !== undefined && paid > 0) {
    const atBooking = records
      .filter((record) => charged(record) && record.kind !== "fee")
      .reduce((sum, record) => sum + record.amount, 0);
    if (atBooking > 0 && refunded === 0) {
      lines.push(`ご来店時のお支払い（予定）：${yenText(Math.max(0, remainingOf - atBooking))}`);
    }
  }
  return lines;
}

/** Stripe's smallest charge in JPY: a fee under it cannot be taken by card. */
export const MIN_CARD_CHARGE_YEN = 50;

/** Why a fee was not taken, in the salon's words (the provider's codes as Japanese reasons). */
const failureReasons: Record<string, string> = {
  authentication_required:
    "カードの本人認証（3Dセキュア）が必要なため、お客様にお支払いリンクをメールでお送りしました。",
  insufficient_funds: "カードの残高（利用可能額）が不足しているため、決済できませんでした。",
  expired_card: "カードの有効期限が切れているため、決済できませんでした。",
  incorrect_cvc: "カードのセキュリティコードが正しくないため、決済できませんでした。",
  lost_card: "カードが利用停止（紛失）となっているため、決済できませんでした。",
  stolen_card: "カードが利用停止（盗難）となっているため、決済できませんでした。",
  do_not_honor: "カード会社が決済を承認しませんでした。",
  generic_decline: "カード会社が決済を承認しませんでした。",
  card_declined: "カード会社が決済を承認しませんでした。",
  processing_error: "カードの処理中にエラーが発生し、決済できませんでした。",
  no_card:
    "ご予約時に登録されたカードがないため、オンラインでは請求できません。店頭でご請求ください。",
  amount_too_small: `請求額がカード決済の最低額（${MIN_CARD_CHARGE_YEN}円）未満のため、オンラインでは請求できません。`,
  request_refused: "決済サービスが請求を受け付けませんでした。",
  no_show_taken_back: "無断キャンセルを取り消したため、請求しません。",
  provider_unreachable:
    "決済サービスに接続できず、自動の再試行もすべて失敗しました。「再試行」を押してください（二重に請求・返金されることはありません）。",
};

export function failureReason(code: string | null): string {
  return (code && failureReasons[code]) || "カード会社が決済を承認しませんでした。";
}

/**
 * What cancelling now would cost, in the visitor's words, shown on the history page before they
 * confirm (decision 0080): the fee of the window `now` falls in, what paid at booking goes
 * towards it, and what is refunded or charged to the kept card. Null without a policy. The
 * server computes the fee again when the cancellation is made.
 */
export function cancelFeeNotice(
  snapshot: PolicySnapshot | null,
  booking: { startsAt: Date; totalPrice: number },
  records: readonly PaymentRecord[],
  now: Date,
): string | null {
  if (!snapshot) return null;
  const prepaid = records
    .filter((r) => (r.kind === "deposit" || r.kind === "full") && charged(r))
    .reduce((sum, r) => sum + r.amount, 0);
  const refunded = records
    .filter((r) => r.kind === "refund" && r.status === "succeeded")
    .reduce((sum, r) => sum + r.amount, 0);
  const kept = Math.max(0, prepaid - refunded);
  const fee = cancellationFee(snapshot, booking, "customer_cancel", now);
  if (!fee) {
    return kept > 0
      ? `いまキャンセルすると、キャンセル料はかかりません。お支払い済みの${yenText(kept)}は全額返金します。`
      : "いまキャンセルすると、キャンセル料はかかりません。";
  }
  const head = `いまキャンセルすると、キャンセル料（${feeWindowLabels[fee.window]}・ご予約金額の${fee.percent}%）${yenText(fee.amount)}がかかります。`;
  if (kept >= fee.amount) {
    const back = kept - fee.amount;
    return `${head}お支払い済みの${yenText(kept)}から充て${back > 0 ? `、残りの${yenText(back)}を返金します` : "ます"}。`;
  }
  const card = records.some((r) => r.status === "succeeded" && r.kind !== "refund");
  const rest = fee.amount - kept;
  if (kept > 0) {
    return `${head}お支払い済みの${yenText(kept)}を充て、残りの${yenText(rest)}をご登録のカードに請求します。`;
  }
  return card ? `${head}ご登録のカードに請求します。` : `${head}サロンへ直接お支払いください。`;
}
