/**
 * The fields of a salon's booking rules (decision 0048), written once: the
 * form (app/components/admin/booking-rules-fields.tsx, in the admin
 * editor's 基本情報 tab and on the owner's 設定 page) draws them and the
 * server (server/admin/booking-rules.ts) reads and checks them.
 */

import { APPROVAL_ANSWER_HOURS_MAX, APPROVAL_ANSWER_HOURS_MIN } from "./approval";
import { WAITLIST_OFFER_MINUTES_MAX, WAITLIST_OFFER_MINUTES_MIN } from "./waitlist";

/** The fields, in form order. */
export const bookingRuleFields = [
  "slotStepMinutes",
  "leadTimeMinutes",
  "bookingWindowDays",
  "cancellationCutoffHours",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "maxLiveBookingsPerCustomer",
  "dailyLimitPerStaff",
  "sameDayCutoff",
  "holdMinutes",
  "waitlistOfferMinutes",
  "closedOnPublicHolidays",
  "requiresApproval",
  "approvalAnswerHours",
] as const;
export type BookingRuleField = (typeof bookingRuleFields)[number];

/** Whole-number fields: their label (also in the messages) and inclusive bounds. */
export const bookingRuleNumbers = {
  leadTimeMinutes: { label: "予約締切（開始の何分前まで）", min: 0, max: 10_080 },
  bookingWindowDays: { label: "予約受付期間（日）", min: 1, max: 365 },
  cancellationCutoffHours: { label: "キャンセル期限（開始の何時間前まで）", min: 0, max: 720 },
  bufferBeforeMinutes: { label: "施術前の準備時間（分）", min: 0, max: 240 },
  bufferAfterMinutes: { label: "施術後の準備時間（分）", min: 0, max: 240 },
  maxLiveBookingsPerCustomer: { label: "お客様1人が持てる予約の数", min: 1, max: 50 },
  dailyLimitPerStaff: { label: "スタッフ1人あたりの1日の予約上限", min: 1, max: 50 },
  holdMinutes: { label: "仮押さえの時間（分）", min: 1, max: 60 },
  waitlistOfferMinutes: {
    label: "キャンセル待ちのご案内の有効時間（分）",
    min: WAITLIST_OFFER_MINUTES_MIN,
    max: WAITLIST_OFFER_MINUTES_MAX,
  },
  approvalAnswerHours: {
    label: "仮予約の回答期限（受付から何時間以内）",
    min: APPROVAL_ANSWER_HOURS_MIN,
    max: APPROVAL_ANSWER_HOURS_MAX,
  },
} as const;

export const requiresApprovalLabel = "新規のネット予約をサロンが承認してから確定する（仮予約）";
