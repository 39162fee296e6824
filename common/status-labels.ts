/**
 * Japanese names of the states the site stores, for every page that shows
 * one: a booking's status (server/db/schema/bookings.ts bookingStatuses) and
 * an account's role (users.role). tests/unit/status-labels.test.ts holds the
 * booking tables to that list, so a new status cannot go unnamed.
 */

/**
 * A booking's status as its visitor reads it in マイページ's 予約履歴: their
 * own cancellation is just キャンセル済み, a hold is being kept for them.
 */
export const bookingStatusLabels: Record<string, string> = {
  held: "お取り置き中",
  confirmed: "予約確定",
  cancelled_by_user: "キャンセル済み",
  cancelled_by_salon: "サロンによりキャンセル",
  completed: "来店済み",
  no_show: "無断キャンセル",
};

/**
 * A booking's status as the back office reads it: who cancelled matters
 * there, and a hold is a visitor still in the booking form (仮押さえ).
 */
export const staffBookingStatusLabels: Record<string, string> = {
  held: "仮押さえ",
  confirmed: "予約確定",
  cancelled_by_user: "お客様キャンセル",
  cancelled_by_salon: "サロンキャンセル",
  completed: "来店済み",
  no_show: "無断キャンセル",
};

/** A web booking waiting for the salon's approval (approval mode, decision 0051). */
export const pendingApprovalLabel = "仮予約（サロンの承認待ち）";
/** The back office's short name for it (ledger, 今日). */
export const staffPendingApprovalLabel = "仮予約（承認待ち）";

/** A booking's status as its visitor reads it, a pending approval named as such. */
export function visitorStatusLabel(status: string, approval: string | null | undefined): string {
  if (status === "confirmed" && approval === "pending") return pendingApprovalLabel;
  return bookingStatusLabels[status] ?? status;
}

/** A booking's status as the back office reads it, a pending approval named as such. */
export function staffStatusLabel(status: string, approval: string | null | undefined): string {
  if (status === "confirmed" && approval === "pending") return staffPendingApprovalLabel;
  return staffBookingStatusLabels[status] ?? status;
}

/** An account's role. */
export const roleLabels: Record<string, string> = {
  user: "会員",
  owner: "オーナー",
  admin: "管理者",
};
