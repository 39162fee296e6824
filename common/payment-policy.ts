import { formatDate } from "./format";
import { addDays, localToInstant, toLocal } from "./local-time";

/**
 * The salon's payment and cancellation policy (issue 40, §1–2; decision
 * 0075), shared by the server (the owner's form, the confirm step, the
 * snapshot stored on the booking) and the pages that show it. Pure: the
 * zone and the clock are arguments, every amount is computed here from the
 * numbers, and the visitors' text is generated from them (an owner's free
 * note may only be appended).
 */

export const paymentModes = ["none", "full", "deposit", "card_only"] as const;
export type PaymentMode = (typeof paymentModes)[number];

export const paymentModeLabels: Record<PaymentMode, string> = {
  none: "なし（店頭でお支払い）",
  full: "全額事前決済",
  deposit: "予約金",
  card_only: "カード登録のみ",
};

export const depositKinds = ["percent", "yen"] as const;
export type DepositKind = (typeof depositKinds)[number];

/** The bounds the form, the columns' checks and the tests share. */
export const policyBounds = {
  depositPercent: { min: 1, max: 100 },
  depositYen: { min: 1, max: 100_000 },
  feePercent: { min: 0, max: 100 },
  noteLength: 200,
} as const;

/** The salon's policy as stored (salon_payment_policies); a salon without a row has `noPolicy`. */
export type PaymentPolicy = {
  mode: PaymentMode;
  /** Set exactly when mode is deposit. */
  deposit: { kind: DepositKind; value: number } | null;
  /** Percent of the booked amount, 0–100 each. */
  sameDayPercent: number;
  dayBeforePercent: number;
  noShowPercent: number;
  /** The owner's short note, appended after the generated text ("" for none). */
  note: string;
};

export const noPolicy: PaymentPolicy = {
  mode: "none",
  deposit: null,
  sameDayPercent: 0,
  dayBeforePercent: 0,
  noShowPercent: 0,
  note: "",
};

/** Whether the visitor has anything to read and agree to: a payment mode or a fee. */
export function policyInForce(policy: PaymentPolicy): boolean {
  return (
    policy.mode !== "none" ||
    policy.sameDayPercent > 0 ||
    policy.dayBeforePercent > 0 ||
    policy.noShowPercent > 0
  );
}

/**
 * A percentage of a yen amount, rounded down: the customer is never asked
 * for a fraction of a yen more than the percentage says.
 */
export function percentOf(amount: number, percent: number): number {
  return Math.floor((amount * percent) / 100);
}

/** The deposit for a booked amount: a percentage of it, or the yen amount but never more than it. */
export function depositFor(deposit: { kind: DepositKind; value: number }, amount: number): number {
  return deposit.kind === "percent"
    ? percentOf(amount, deposit.value)
    : Math.min(deposit.value, amount);
}

/** What the mode asks to be paid online at booking (the payment itself is the next slice). */
export function dueAtBooking(policy: PaymentPolicy, amount: number, required: boolean): number {
  if (!required) return 0;
  if (policy.mode === "full") return amount;
  if (policy.mode === "deposit" && policy.deposit) return depositFor(policy.deposit, amount);
  return 0;
}

export const feeWindows = ["day_before", "same_day", "no_show"] as const;
export type FeeWindow = (typeof feeWindows)[number];

export const feeWindowLabels: Record<FeeWindow, string> = {
  day_before: "前日",
  same_day: "当日",
  no_show: "無断キャンセル",
};

/** One fee of a booking, in yen, with the window as instants and dates in the salon's zone. */
export type BookingFee = {
  window: FeeWindow;
  percent: number;
  amount: number;
  /** The window's first instant (local midnight), ISO; null for the no-show. */
  from: string | null;
  /** The window's local calendar day "YYYY-MM-DD"; null for the no-show. */
  date: string | null;
  /** The window had begun when the booking was made (a booking for today, or tomorrow). */
  begunAtBooking: boolean;
};

/**
 * The policy of one booking, as the visitor agreed to it: stored on the
 * booking (bookings.payment_policy) in the transaction that makes it, and
 * never recomputed from the salon's later policy. `lines` is the text the
 * visitor read, kept verbatim.
 */
export type PolicySnapshot = {
  version: 1;
  mode: PaymentMode;
  deposit: { kind: DepositKind; value: number } | null;
  /** False when a menu or the coupon of the booking is exempt from online payment. */
  paymentRequired: boolean;
  /** The booked amount (total after coupon, with the 指名料) the fees are a percentage of. */
  bookedAmount: number;
  /** What the mode asks to be paid online at booking (charged on the confirm step, decision 0078). */
  dueAtBooking: number;
  /** Only the windows with a fee, in order: 前日, 当日, 無断キャンセル. */
  fees: BookingFee[];
  timeZone: string;
  note: string;
  lines: string[];
  /** When the visitor agreed (the booking's confirmation), ISO. */
  agreedAt: string;
};

export type BookingTermsInput = {
  /** The booked amount in yen. */
  amount: number;
  startsAt: Date;
  timeZone: string;
  /** False when a menu or the coupon is exempt from online payment. */
  paymentRequired: boolean;
  /** When the terms are shown or agreed (the booking's creation). */
  now: Date;
};

/**
 * The policy applied to one booking: every amount in yen and every window
 * as a calendar day of the salon's zone (前日 is the whole day before the
 * start's day, 当日 the start's day from midnight), whatever the hour
 * booked. Null when the salon has no policy in force.
 */
export function bookingPolicyTerms(
  policy: PaymentPolicy,
  input: BookingTermsInput,
): PolicySnapshot | null {
  if (!policyInForce(policy)) return null;
  const { amount, timeZone, now } = input;
  const startDay = toLocal(input.startsAt, timeZone).date;
  const window = (kind: "day_before" | "same_day", percent: number): BookingFee => {
    const date = kind === "same_day" ? startDay : addDays(startDay, -1);
    const from = localToInstant(date, "00:00", timeZone);
    return {
      window: kind,
      percent,
      amount: percentOf(amount, percent),
      from: from.toISOString(),
      date,
      begunAtBooking: from.getTime() <= now.getTime(),
    };
  };
  const fees: BookingFee[] = [];
  if (policy.dayBeforePercent > 0) fees.push(window("day_before", policy.dayBeforePercent));
  if (policy.sameDayPercent > 0) fees.push(window("same_day", policy.sameDayPercent));
  if (policy.noShowPercent > 0) {
    fees.push({
      window: "no_show",
      percent: policy.noShowPercent,
      amount: percentOf(amount, policy.noShowPercent),
      from: null,
      date: null,
      begunAtBooking: false,
    });
  }
  const terms: Omit<PolicySnapshot, "lines"> = {
    version: 1,
    mode: policy.mode,
    deposit: policy.mode === "deposit" ? policy.deposit : null,
    paymentRequired: policy.mode !== "none" && input.paymentRequired,
    bookedAmount: amount,
    dueAtBooking: dueAtBooking(policy, amount, policy.mode !== "none" && input.paymentRequired),
    fees,
    timeZone,
    note: policy.note,
    agreedAt: now.toISOString(),
  };
  return { ...terms, lines: bookingPolicyLines(terms) };
}

/** "2026年12月2日(水) 0:00": a window's start, always a local midnight. */
function midnightLabel(date: string): string {
  return `${formatDate(date)} 0:00`;
}

function depositLabel(deposit: { kind: DepositKind; value: number }): string {
  return deposit.kind === "percent" ? `ご予約金額の${deposit.value}%` : yenText(deposit.value);
}

/**
 * The payment sentence: the mode in words. 全額事前決済 and 予約金 are paid
 * online when booking (decision 0078); カード登録のみ charges nothing then.
 */
function paymentLine(
  terms: Pick<PolicySnapshot, "mode" | "deposit" | "paymentRequired" | "dueAtBooking">,
) {
  if (terms.mode === "none") return null;
  if (!terms.paymentRequired) {
    return "お支払い：このご予約は事前決済の対象外です。料金はご来店時にお支払いください。";
  }
  const atBooking =
    "ご予約時にオンライン決済でお支払いいただき、お支払いの確認をもってご予約が確定します。";
  switch (terms.mode) {
    case "full":
      return `お支払い：全額事前決済（${yenText(terms.dueAtBooking)}）のサロンです。${atBooking}`;
    case "deposit":
      return `お支払い：予約金（${terms.deposit ? depositLabel(terms.deposit) : ""}＝${yenText(terms.dueAtBooking)}）を事前にお支払いいただくサロンです。${atBooking}`;
    case "card_only":
      return `お支払い：キャンセル料のためにカードをご登録いただくサロンです（ご予約時の請求はありません）。`;
  }
}

/** 2,750円 (formatYen writes ￥2,750; the policy's sentences say 円). */
export function yenText(amount: number): string {
  return `${amount.toLocaleString("ja-JP")}円`;
}

/**
 * The text of one booking's policy, from its numbers: the payment, each
 * fee window with its dates in the salon's zone and its amount, when
 * cancelling is free, and the salon's note last.
 */
export function bookingPolicyLines(terms: Omit<PolicySnapshot, "lines">): string[] {
  const lines: string[] = [];
  const payment = paymentLine(terms);
  if (payment) lines.push(payment);
  const timed = terms.fees.filter((fee) => fee.date !== null);
  const first = timed[0];
  if (first?.date && !first.begunAtBooking) {
    lines.push(`${midnightLabel(first.date)}より前のキャンセル：無料`);
  }
  for (const fee of terms.fees) {
    const cost = `ご予約金額の${fee.percent}%（${yenText(fee.amount)}）`;
    if (fee.window === "no_show") {
      lines.push(`ご連絡のないキャンセル（無断キャンセル）：${cost}`);
      continue;
    }
    const date = fee.date ?? "";
    const when =
      fee.window === "day_before"
        ? `前日（${midnightLabel(date)}〜${midnightLabel(addDays(date, 1))}）のキャンセル`
        : `当日（${midnightLabel(date)}以降）のキャンセル`;
    const begun = fee.begunAtBooking ? "（ご予約の時点でこの期間に入っています）" : "";
    lines.push(`${when}：${cost}${begun}`);
  }
  if (terms.fees.length === 0) lines.push("キャンセル料はかかりません。");
  if (terms.note) lines.push(`サロンより：${terms.note}`);
  return lines;
}

/**
 * The policy in general words, without a booking (the settings page's
 * preview, the salon's pages): percentages and windows by calendar day.
 */
export function policyLines(policy: PaymentPolicy): string[] {
  if (!policyInForce(policy)) return [];
  const lines: string[] = [];
  if (policy.mode === "full") lines.push("お支払い：全額事前決済");
  if (policy.mode === "deposit" && policy.deposit) {
    lines.push(`お支払い：予約金（${depositLabel(policy.deposit)}）の事前決済`);
  }
  if (policy.mode === "card_only") {
    lines.push("お支払い：カード登録のみ（ご予約時の請求はありません）");
  }
  if (policy.dayBeforePercent > 0) {
    lines.push(`前日（ご予約日の前日0:00〜）のキャンセル：ご予約金額の${policy.dayBeforePercent}%`);
  }
  if (policy.sameDayPercent > 0) {
    lines.push(`当日（ご予約日の0:00〜）のキャンセル：ご予約金額の${policy.sameDayPercent}%`);
  }
  if (policy.noShowPercent > 0) {
    lines.push(`ご連絡のないキャンセル（無断キャンセル）：ご予約金額の${policy.noShowPercent}%`);
  }
  if (policy.dayBeforePercent + policy.sameDayPercent + policy.noShowPercent === 0) {
    lines.push("キャンセル料はかかりません。");
  }
  if (policy.note) lines.push(`サロンより：${policy.note}`);
  return lines;
}

/** The snapshot's payment in a few words for lists and mails: 予約金 1,100円, カード登録のみ… */
export function snapshotPaymentLabel(snapshot: PolicySnapshot): string {
  if (snapshot.mode === "none") return "なし";
  if (!snapshot.paymentRequired) return `${paymentModeLabels[snapshot.mode]}（このご予約は対象外）`;
  if (snapshot.mode === "card_only") return paymentModeLabels.card_only;
  return `${paymentModeLabels[snapshot.mode]} ${yenText(snapshot.dueAtBooking)}（未請求）`;
}

/**
 * What the visitor pays online before the booking is made (decision 0078):
 * a charge (全額事前決済, 予約金) of the snapshot's amount, a card kept with
 * nothing charged (カード登録のみ), or nothing (null) when the mode asks
 * none, a menu or coupon is exempt, or the amount is nothing.
 */
export function paymentAtBooking(
  terms: Pick<PolicySnapshot, "mode" | "paymentRequired" | "dueAtBooking">,
): { kind: "full" | "deposit" | "card"; amount: number } | null {
  if (!terms.paymentRequired) return null;
  if (terms.mode === "card_only") return { kind: "card", amount: 0 };
  if ((terms.mode === "full" || terms.mode === "deposit") && terms.dueAtBooking > 0) {
    return { kind: terms.mode, amount: terms.dueAtBooking };
  }
  return null;
}
