/**
 * Japanese names of the states the site stores, for every page that shows
 * one: a booking's status (server/db/schema/bookings.ts bookingStatuses) and
 * an account's role (users.role). tests/unit/status-labels.test.ts holds the
 * booking tables to that list, so a new status cannot go unnamed.
 *
 * The back office words a booking with `staffBookingLabel` only (the ledger,
 * 今日 and its 要確認, the booking's page, the CSV and the API's
 * statusLabel), so a state reads the same wherever staff see it: a 仮予約
 * awaiting the salon is never 予約確定, an arrived customer is 来店済み and a
 * finished visit 施術完了.
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
 * The status alone; `staffBookingLabel` adds approval and arrival.
 */
export const staffBookingStatusLabels: Record<string, string> = {
  held: "仮押さえ",
  confirmed: "予約確定",
  cancelled_by_user: "お客様キャンセル",
  cancelled_by_salon: "サロンキャンセル",
  completed: "施術完了",
  no_show: "無断キャンセル",
};

/** A web booking waiting for the salon's approval (approval mode, decision 0051). */
export const pendingApprovalLabel = "仮予約（サロンの承認待ち）";
/** The back office's short name for it (ledger, 今日). */
export const staffPendingApprovalLabel = "仮予約（承認待ち）";
/** A confirmed booking whose customer the salon marked arrived (来店). */
export const arrivedLabel = "来店済み";

/**
 * A confirmed booking that still waits for the salon's answer (decision
 * 0051). After a cancellation the row keeps approval 'pending', so the
 * status is always asked too. Here rather than in server/ so pages, labels, mails and jobs share
 * one test.
 */
export const isPendingApproval = (booking: {
  status: string;
  approval: string | null | undefined;
}) => booking.status === "confirmed" && booking.approval === "pending";

/** A booking's status as its visitor reads it, a pending approval named as such. */
export function visitorStatusLabel(status: string, approval: string | null | undefined): string {
  if (isPendingApproval({ status, approval })) return pendingApprovalLabel;
  return bookingStatusLabels[status] ?? status;
}

/** What the back office knows of a booking when it names its state. */
export type StaffLabelInput = {
  status: string;
  approval?: string | null;
  /** The salon marked the customer arrived (arrived_at set). */
  arrived?: boolean;
  /** 'block' rows (休憩, 打ち合わせ) are named as blocks. */
  kind?: string;
  /** The reason the salon recorded with a cancellation (bookings.cancel_category). */
  cancelCategory?: string | null;
};

/**
 * A cancellation the salon entered, named by its reason (decision 0065):
 * the customer's phoned-in cancellations are お客様キャンセル with how they
 * told, never サロンキャンセル.
 */
const cancelledWithReason: Record<string, string> = {
  customer_advance: "お客様キャンセル（事前連絡）",
  customer_same_day: "お客様キャンセル（当日連絡）",
  no_contact: "無断キャンセル（連絡なし）",
};

/**
 * A booking's state as the back office reads it: 仮予約（承認待ち） before
 * anything else a confirmed row may be, then 来店済み once arrived, else the
 * status's own name. A block is ブロック中 or, released, 削除済み.
 */
export function staffBookingLabel(booking: StaffLabelInput): string {
  if (booking.kind === "block") {
    return booking.status === "confirmed" ? "ブロック中" : "削除済み";
  }
  if (isPendingApproval({ status: booking.status, approval: booking.approval })) {
    return staffPendingApprovalLabel;
  }
  if (booking.status === "confirmed" && booking.arrived) return arrivedLabel;
  if (booking.status === "cancelled_by_user" && booking.cancelCategory) {
    return (
      cancelledWithReason[booking.cancelCategory] ??
      staffBookingStatusLabels.cancelled_by_user ??
      ""
    );
  }
  return staffBookingStatusLabels[booking.status] ?? booking.status;
}

/** A booking's status as the back office reads it, a pending approval named as such. */
export function staffStatusLabel(status: string, approval: string | null | undefined): string {
  return staffBookingLabel({ status, approval });
}

/** An account's role. */
export const roleLabels: Record<string, string> = {
  user: "会員",
  owner: "オーナー",
  admin: "管理者",
};
