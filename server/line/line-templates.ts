import type { messagingApi } from "@line/bot-sdk";
import {
  type BookingMailDetails,
  type BookingMailKind,
  bookingLines,
  formatBookingTime,
  formatLocalMinute,
  PENDING_STATUS,
  type PreviousBookingTime,
  previousLines,
  renderVisitorBookingMail,
  renderVisitorMovedMail,
} from "../mail/booking-templates";
import { type ReviewRequestDetails, renderReviewRequestMail } from "../mail/review-templates";
import { renderWaitlistOfferMail, type WaitlistOfferMailDetails } from "../mail/waitlist-templates";

/**
 * The LINE messages to a visitor (issue 41 §1, decision 0089): one text
 * message each, short enough to read on a phone's notification. The headline
 * is the mail's subject and the lines are the mail's own, so a customer who
 * gets both (or the mail as LINE's fallback) reads the same words.
 */

export type LineMessage = messagingApi.TextMessage;

const SUBJECT_PREFIX = /^【Salon Navi】/;

function compose(parts: {
  subject: string;
  lines: string[];
  message?: string;
  note?: string;
  link: { label: string; url: string };
}): LineMessage[] {
  const text = [
    parts.subject.replace(SUBJECT_PREFIX, ""),
    "",
    ...parts.lines,
    ...(parts.message ? ["", "サロンからのメッセージ：", parts.message] : []),
    ...(parts.note ? ["", parts.note] : []),
    "",
    `${parts.link.label}：`,
    parts.link.url,
  ].join("\n");
  return [{ type: "text", text }];
}

const historyLink = (publicUrl: string) => ({
  label: "予約を確認する",
  url: `${publicUrl}/account/history`,
});

/** Confirmed (or 仮予約 received), approved, cancelled or refused, reminder. */
export function lineBookingMessages(
  kind: BookingMailKind,
  b: BookingMailDetails,
  publicUrl: string,
): LineMessage[] {
  const { subject } = renderVisitorBookingMail(kind, b, publicUrl);
  const pending = kind === "confirmed" && b.approval === "pending";
  const salonsMessage =
    kind === "cancelled" &&
    (b.cancelledBySalon || b.cancelEnteredBySalon || b.approval === "refused")
      ? b.cancelReason || undefined
      : undefined;
  return compose({
    subject,
    lines: [
      ...(pending ? [`状態：${PENDING_STATUS}`] : []),
      ...(pending && b.approvalExpiresAt
        ? [`サロンの回答期限：${formatLocalMinute(b.approvalExpiresAt, b.timeZone)}`]
        : []),
      ...bookingLines(b),
    ],
    message: salonsMessage,
    note: kind === "reminder" ? "ご来店をお待ちしております。" : undefined,
    link: historyLink(publicUrl),
  });
}

/** A move of the booking (time, stylist or menus), by the customer or by the salon. */
export function lineMovedMessages(
  by: "customer" | "salon",
  b: BookingMailDetails,
  previous: PreviousBookingTime | null,
  publicUrl: string,
): LineMessage[] {
  const { subject } = renderVisitorMovedMail(by, b, previous, publicUrl);
  return compose({
    subject,
    lines: [...bookingLines(b), ...previousLines(previous, b.timeZone)],
    note:
      by === "salon"
        ? `ご都合が合わない場合はサロンへ直接ご連絡ください${b.salonPhone ? `（${b.salonPhone}）` : ""}。`
        : undefined,
    link: historyLink(publicUrl),
  });
}

/** A freed time held for the visitor until the offer's deadline. */
export function lineWaitlistOfferMessages(d: WaitlistOfferMailDetails): LineMessage[] {
  const { subject } = renderWaitlistOfferMail(d);
  const until = formatLocalMinute(d.expiresAt, d.timeZone);
  return compose({
    subject,
    lines: [
      `サロン：${d.salonName}`,
      `日時：${formatBookingTime(d.startsAt, d.endsAt, d.timeZone)}`,
      `メニュー：${d.menus.map((menu) => menu.name).join("、")}`,
      `合計金額：${d.totalPrice.toLocaleString("ja-JP")}円（税込）`,
      `確保の期限：${until}`,
    ],
    note: `${until} までにご予約を確定してください。期限を過ぎると、次にお待ちの方へご案内します。`,
    link: { label: "ご予約を確定する", url: d.offerUrl },
  });
}

/** The one review request, the day after the visit. */
export function lineReviewRequestMessages(r: ReviewRequestDetails): LineMessage[] {
  const { subject } = renderReviewRequestMail(r);
  return compose({
    subject,
    lines: [
      `サロン：${r.salonName}`,
      `ご来店日時：${formatBookingTime(r.startsAt, r.endsAt, r.timeZone)}`,
      `メニュー：${r.menus.join("、")}`,
    ],
    link: { label: "口コミを書く", url: r.reviewUrl },
  });
}
