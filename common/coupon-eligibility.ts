/**
 * Who may use a coupon and when (issue 41, §4; decision 0087). Pure rules:
 * the server gathers what they need (the person's history at the salon from
 * its customer records, the visit's local weekday and time, the stylist
 * asked for, the visitor's 学割 statement) and decides at hold and confirm;
 * the salon page uses the same rules to list the usable coupons first.
 * In common/ because the pages show the labels and limits too.
 */

/** The values of coupons.target, which the schema takes from here. */
export const couponTargets = ["new", "returning", "all"] as const;
export type CouponTarget = (typeof couponTargets)[number];

/** As Hot Pepper Beauty labels them. */
export const couponTargetLabels: Record<CouponTarget, string> = {
  new: "新規",
  returning: "再来",
  all: "全員",
};

/** Every day (bit 0 = Sunday … bit 6 = Saturday, as Date.getDay()). */
export const ALL_WEEKDAYS = 127;
const weekdayNames = ["日", "月", "火", "水", "木", "金", "土"] as const;

export type CouponLimits = {
  target: CouponTarget;
  oncePerCustomer: boolean;
  /** Bit mask of the visit's weekdays (ALL_WEEKDAYS: any). */
  weekdays: number;
  /** Minutes after local midnight: the visit starts in [fromMinute, untilMinute); null: any time. */
  fromMinute: number | null;
  untilMinute: number | null;
  /** The stylist who must be chosen (指名); null: any. */
  staffId: string | null;
  studentOnly: boolean;
};

/** What the salon's records say of the person (over every record of them, merged ones too). */
export type CustomerHistory = {
  /** A completed booking (来店). */
  visited: boolean;
  /** A confirmed, completed or no-show booking: not new any more. */
  booked: boolean;
  /** The coupons they booked with (confirmed, completed or no-show). */
  usedCouponIds: ReadonlySet<string>;
};

/**
 * What is known when asking. A field left undefined is not known yet and
 * its rule is not checked: a guest's hold has no history (checked again at
 * confirm, which needs an account), the waiting list has no start time, a
 * hold has no 学割 statement (asked on the confirm step).
 */
export type CouponUse = {
  couponId: string;
  history?: CustomerHistory | null;
  /** The visit's start in the salon's zone. */
  local?: { weekday: number; minutes: number };
  /** The stylist asked for; null: 指名なし. */
  requestedStaffId?: string | null;
  studentDeclared?: boolean;
};

export type CouponRefusal =
  | "not_new"
  | "not_returning"
  | "used"
  | "weekday"
  | "hours"
  | "stylist"
  | "student";

export const couponRefusalMessages: Record<CouponRefusal, string> = {
  not_new:
    "このクーポンは新規のお客様（このサロンのご利用が初めての方）限定です。クーポンを変更してください。",
  not_returning:
    "このクーポンは再来のお客様（このサロンにご来店いただいたことがある方）限定です。クーポンを変更してください。",
  used: "このクーポンはお一人様1回限りで、すでにご利用いただいています。クーポンを変更してください。",
  weekday:
    "このクーポンは選択した曜日にはご利用いただけません。日時またはクーポンを変更してください。",
  hours:
    "このクーポンは選択した時間帯にはご利用いただけません。日時またはクーポンを変更してください。",
  stylist:
    "このクーポンは対象のスタイリストを指名した場合のみご利用いただけます。スタイリストまたはクーポンを変更してください。",
  student: "このクーポンは学割です。学生の方は「学生です」にチェックを入れてください。",
};

/** Why the coupon cannot be used for this visit, or null when it can (as far as is known). */
export function couponRefusal(limits: CouponLimits, use: CouponUse): CouponRefusal | null {
  const { history } = use;
  if (history) {
    if (limits.target === "new" && history.booked) return "not_new";
    if (limits.target === "returning" && !history.visited) return "not_returning";
    if (limits.oncePerCustomer && history.usedCouponIds.has(use.couponId)) return "used";
  }
  if (use.local) {
    if ((limits.weekdays & (1 << use.local.weekday)) === 0) return "weekday";
    if (
      limits.fromMinute !== null &&
      limits.untilMinute !== null &&
      (use.local.minutes < limits.fromMinute || use.local.minutes >= limits.untilMinute)
    ) {
      return "hours";
    }
  }
  if (limits.staffId !== null && use.requestedStaffId !== undefined) {
    if (use.requestedStaffId !== limits.staffId) return "stylist";
  }
  if (limits.studentOnly && use.studentDeclared === false) return "student";
  return null;
}

/** Whether the person may use it at all (the salon page's "使えるクーポン"): target and once. */
export function couponFitsPerson(
  limits: Pick<CouponLimits, "target" | "oncePerCustomer">,
  couponId: string,
  history: CustomerHistory,
): boolean {
  const refusal = couponRefusal(
    {
      ...limits,
      weekdays: ALL_WEEKDAYS,
      fromMinute: null,
      untilMinute: null,
      staffId: null,
      studentOnly: false,
    },
    { couponId, history },
  );
  return refusal === null;
}

const hhmm = (minutes: number) =>
  `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;

/** The limits in words for the visitor and the salon ("月・火・水 10:00〜15:00来店", "学割"…), without the target. */
export function couponLimitNotes(
  limits: Omit<CouponLimits, "target" | "staffId">,
  staffName?: string | null,
): string[] {
  const notes: string[] = [];
  const days = weekdayNames.filter((_, day) => (limits.weekdays & (1 << day)) !== 0);
  const hours =
    limits.fromMinute !== null && limits.untilMinute !== null
      ? `${hhmm(limits.fromMinute)}〜${hhmm(limits.untilMinute)}`
      : "";
  if (days.length < 7 || hours) {
    notes.push(`${days.length < 7 ? `${days.join("・")} ` : ""}${hours}来店`.trim());
  }
  if (staffName) notes.push(`${staffName}指名`);
  if (limits.oncePerCustomer) notes.push("お一人様1回限り");
  if (limits.studentOnly) notes.push("学割（学生の方）");
  return notes;
}
