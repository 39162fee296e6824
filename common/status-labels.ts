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

/** An account's role. */
export const roleLabels: Record<string, string> = {
  user: "会員",
  owner: "オーナー",
  admin: "管理者",
};
