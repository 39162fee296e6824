import { formatDate } from "../../../common/format";
import { toLocal } from "../../../common/local-time";

/**
 * Wording the customers pages share (顧客カルテ): phone numbers written as
 * people read them, a last visit in the salon's zone, and the cancellation
 * kinds as decision 0037 names them.
 */

/** 09012345678 → 090-1234-5678; 0312345678 → 03-1234-5678; others 3-3-4. */
export function formatPhone(digits: string): string {
  if (!digits) return "";
  if (digits.length === 11) return `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
  if (digits.length === 10 && /^0[36]/.test(digits)) {
    return `${digits.slice(0, 2)}-${digits.slice(2, 6)}-${digits.slice(6)}`;
  }
  if (digits.length === 10) return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  return digits;
}

/** An instant's calendar day in the salon's zone, as 2026年11月23日(月); — when there is none. */
export function formatLocalDay(instant: string | null, timeZone: string): string {
  return instant ? formatDate(toLocal(new Date(instant), timeZone).date) : "—";
}

export const cancelLabels = {
  customer: "お客様キャンセル（ネット）",
  customer_advance: "お客様都合（事前連絡）",
  customer_same_day: "お客様都合（当日連絡）",
  salon: "サロン都合",
  no_contact: "無断キャンセル（連絡なし）",
  noShow: "来店なし（ノーショー）",
} as const;
