/**
 * Approval mode's answer window (仮予約, issue 38 §1.2; decision 0069): how
 * long a salon that approves its web bookings has to answer a request before
 * it lapses. The form's bounds and the default, for both sides.
 */
export const APPROVAL_ANSWER_HOURS_DEFAULT = 24;
export const APPROVAL_ANSWER_HOURS_MIN = 1;
/** A week: a request left longer than that is not an answer a visitor can plan on. */
export const APPROVAL_ANSWER_HOURS_MAX = 168;
