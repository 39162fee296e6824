import { randomUUID } from "node:crypto";
import { z } from "zod";
import { bookingFlowHref, type FlowLink } from "../../../common/booking-flow-href";
import type { BookingSummaryData } from "../../../common/booking-summary";
import { calendarDay, toLocal } from "../../../common/local-time";
import type { PolicySnapshot } from "../../../common/payment-policy";
import type { CurrentUser } from "../../accounts/current-user";
import type { Database } from "../../db/client";
import { DomainError } from "../../errors/domain-error";
import { approvalAtConfirm } from "../approval.server";
import { formatApprovalDeadline } from "../approval-deadline";
import type { DayAvailability } from "../availability-input";
import { holdSlot } from "../booking.server";
import { resendVerificationPath } from "../booking-errors";
import type { BookingLimits } from "../booking-rate-limit";
import { holdBelongsTo } from "../hold-browser.server";
import { japaneseHolidaysBetween } from "../holidays";
import { bookingPolicyFor } from "../payment-policy.server";
import { bookingSettingsFor } from "../settings";
import {
  type FlowParams,
  type FlowSalon,
  type FlowSelection,
  loadFlowSelection,
  parseFlowParams,
} from "./booking-flow.server";
import { claimHold, findHold, holdIsLive, keepDraft } from "./hold-view.server";

/**
 * Everything /salons/:id/confirm shows while the visitor picks menus,
 * stylist, day and time: the checked selection, the days of the booking
 * window with free times, and the free times of the chosen day.
 */
export type PickView = {
  kind: "pick";
  selection: FlowSelection;
  date: string | null;
  days: {
    date: string;
    holiday: boolean;
    holidayName: string | null;
    available: boolean;
    /** Open but fully booked: the visitor may join its waiting list (issue 30, point 4). */
    full: boolean;
  }[];
  times: { time: string; start: string }[];
  problems: string[];
  /** Not a problem with the request: why the visitor is shown times again. */
  notice: string | null;
  today: string;
};

export const dayMessages = {
  past: "過去の日付は選べません。今日以降の日付をお選びください。",
  outside_window: "この日はまだ予約を受け付けていません（または本日の受付を終了しました）。",
  holiday: "この日は祝日のため休業です。別の日をお選びください。",
  salon_closed: "この日は定休日です。別の日をお選びください。",
  full: "この日は予約がいっぱいです。別の日をお選びください。",
} as const;

export const menusChangedNotice =
  "選んだメニューが変わったため、お時間はまだ確保していません。選択中のメニューで空いている時間を表示しましたので、もう一度お選びください。";

/** Free days of the booking window for the selection; filled by the availability engine. */
export type AvailabilityLookup = (
  db: Database,
  selection: FlowSelection,
  now: Date,
) => Promise<DayAvailability[]>;

export async function loadPickView(
  db: Database,
  salon: FlowSalon,
  params: FlowParams,
  now: Date,
  availability: AvailabilityLookup,
): Promise<PickView> {
  const selection = await loadFlowSelection(db, salon, params, now);
  const problems = [...params.problems, ...selection.problems];
  const today = calendarDay(now, salon.timeZone);
  let dayList: DayAvailability[] = [];
  if (selection.menus.length > 0) {
    try {
      dayList = await availability(db, selection, now);
    } catch (error) {
      // The selection was checked already; a rule the loader still refuses is shown, not a 500.
      if (!(error instanceof DomainError)) throw error;
      problems.push(error.message);
    }
  }
  const names =
    dayList.length > 0
      ? japaneseHolidaysBetween(dayList[0]?.date ?? today, dayList.at(-1)?.date ?? today)
      : new Map<string, string>();
  const days = dayList.map((day) => ({
    date: day.date,
    holiday: day.holiday,
    holidayName: names.get(day.date) ?? null,
    available: day.slots.length > 0,
    full: day.slots.length === 0 && day.closedReason === "full",
  }));
  let date = params.date;
  let times: PickView["times"] = [];
  if (date && selection.menus.length > 0) {
    const day = dayList.find((entry) => entry.date === date);
    if (!day) {
      problems.push(date < today ? dayMessages.past : dayMessages.outside_window);
      date = null;
    } else if (day.slots.length === 0) {
      const reason = day.closedReason ?? "full";
      // A full day is a fact, not bad input: the visitor picks another day.
      if (reason !== "full") problems.push(dayMessages[reason]);
      if (reason !== "full") date = null;
    } else {
      times = day.slots.map((slot) => ({ time: slot.time, start: slot.start.toISOString() }));
    }
  }
  const notice = params.menusChanged ? menusChangedNotice : null;
  return { kind: "pick", selection, date, days, times, problems, notice, today };
}

/** The hold step: what is held, for how long, and the contact form (null for a guest). */
export type HoldView = {
  kind: "hold";
  /**
   * Who takes the payment due at booking (decision 0078), set by the route
   * from the app context: "fake" is our テスト決済, said on the page.
   */
  paymentProvider?: "stripe" | "fake" | null;
  holdId: string;
  expiresAt: string;
  now: string;
  summary: BookingSummaryData;
  contact: Record<"name" | "nameKana" | "phone" | "email" | "note", string> | null;
  idempotencyKey: string;
  /** Back to the pickers with the same selection, to choose another time. */
  repickHref: string;
  /**
   * A signed-in member whose address is not confirmed yet may hold but not
   * book (decision 0027): the resend screen, coming back to this hold.
   */
  verifyHref: string | null;
  /**
   * The salon approves its web bookings (仮予約, decisions 0051 and 0071):
   * the step asks for a request, not a booking, and says by when the
   * salon answers (the deadline were the request sent now; the
   * confirmation fixes it with its own clock, minutes later at most).
   */
  approval: { deadline: string; deadlineLabel: string } | null;
  /**
   * The salon's payment and cancellation policy for this booking (decision
   * 0075): amounts and windows computed here, consent required; `digest`
   * names the policy read, so a change before the click is shown again.
   */
  policy: { terms: PolicySnapshot; digest: string } | null;
  /** The hold's coupon is 学割: the form asks 「学生です」 (decision 0087). */
  studentCoupon: boolean;
  problems: string[];
};

export type { CurrentUser };
export const holdLostMessage =
  "お時間の確保期限が切れたか、この枠はご利用いただけなくなりました。お手数ですが、もう一度時間をお選びください。";
/** A hold URL opened in another browser (or by another account) than the one that made the hold. */
export const holdElsewhereMessage =
  "このお時間は別のブラウザ（またはアカウント）で確保されているため、ここでは予約に進めません。お手数ですが、もう一度時間をお選びください。";

/**
 * The page for the URL: the hold step when a live hold is given, else the
 * pickers. A hold that expired or was lost shows the pickers again with the
 * same menus, stylist and day (fresh times) and a message; a hold already
 * confirmed by this visitor goes to its thanks page.
 */
export async function loadConfirmView(
  db: Database,
  input: {
    salon: FlowSalon;
    query: FlowParams;
    user: CurrentUser | null;
    /** The browser's hold key (cookie), or null: a guest's hold is only shown to its browser. */
    browserKey: string | null;
    now: Date;
  },
  availability: AvailabilityLookup,
): Promise<PickView | HoldView | { kind: "redirect"; to: string; problems: string[] }> {
  const { salon, query, user, now } = input;
  const viewer = { userId: user?.id ?? null, browserKey: input.browserKey };
  if (!query.holdId) return loadPickView(db, salon, query, now, availability);
  const hold = await findHold(db, salon.id, query.holdId);
  if (hold && user && hold.userId === user.id && hold.status === "confirmed") {
    return {
      kind: "redirect",
      to: `/salons/${salon.slug}/confirm/thanks?booking=${hold.id}`,
      problems: [],
    };
  }
  if (!hold || !holdIsLive(hold, viewer, now)) {
    // Someone else's hold: refused, with fresh times for the same menus and
    // day (the salon's public availability; no contact details are shown).
    const elsewhere = hold !== null && hold.status === "held" && !holdBelongsTo(hold, viewer);
    const again: FlowParams = hold
      ? {
          ...query,
          menuIds: hold.menus.map((menu) => menu.menuId),
          staffSlug: hold.staffRequested ? hold.staffSlug : null,
          couponId: hold.couponId ?? query.couponId,
          date: toLocal(hold.startsAt, salon.timeZone).date,
          holdId: null,
        }
      : { ...query, holdId: null };
    const view = await loadPickView(db, salon, again, now, availability);
    const message = elsewhere ? holdElsewhereMessage : holdLostMessage;
    return { ...view, problems: [message, ...view.problems] };
  }
  if (user && hold.userId === null && input.browserKey) {
    await claimHold(db, {
      salonId: salon.id,
      holdId: hold.id,
      userId: user.id,
      browserKey: input.browserKey,
      now,
    });
  }
  const rules = await bookingSettingsFor(db, salon.id);
  const { approvalExpiresAt } = await approvalAtConfirm(db, salon.id, hold.startsAt, now);
  const link: FlowLink = {
    menuIds: hold.menus.map((menu) => menu.menuId),
    staffSlug: hold.staffRequested ? hold.staffSlug : null,
    couponId: hold.couponId,
    date: toLocal(hold.startsAt, salon.timeZone).date,
  };
  const subtotal = hold.menus.reduce((sum, menu) => sum + menu.price, 0);
  const profile = user?.profile;
  const policy = await bookingPolicyFor(db, hold, salon.timeZone, now);
  return {
    kind: "hold",
    holdId: hold.id,
    expiresAt: (hold.holdExpiresAt ?? now).toISOString(),
    now: now.toISOString(),
    summary: {
      salonName: salon.name,
      menus: hold.menus.map(({ name, price, durationMinutes }) => ({
        name,
        price,
        durationMinutes,
      })),
      stylistName: hold.staffRequested ? hold.staffName : null,
      start: hold.startsAt.toISOString(),
      end: hold.endsAt.toISOString(),
      timeZone: salon.timeZone,
      subtotal,
      nominationFee: hold.nominationFee,
      coupon: hold.couponTitle
        ? { title: hold.couponTitle, discount: subtotal + hold.nominationFee - hold.totalPrice }
        : null,
      total: hold.totalPrice,
      cancelCutoffHours: rules.cancellationCutoffHours,
    },
    // What the visitor typed before (kept on the hold), else their profile.
    contact: user
      ? {
          name: hold.draft.name || profile?.name || user.name,
          nameKana: hold.draft.nameKana || profile?.nameKana || "",
          phone: hold.draft.phone || profile?.phone || "",
          email: hold.draft.email || user.email,
          note: hold.draft.note,
        }
      : null,
    // One key per rendered form: a double submit (or a retry) returns the same booking.
    idempotencyKey: randomUUID(),
    repickHref: bookingFlowHref(salon.slug, link),
    verifyHref:
      user && !user.emailVerified
        ? `${resendVerificationPath}?redirect=${encodeURIComponent(bookingFlowHref(salon.slug, { ...link, holdId: hold.id }))}`
        : null,
    approval: approvalExpiresAt
      ? {
          deadline: approvalExpiresAt.toISOString(),
          deadlineLabel: formatApprovalDeadline(approvalExpiresAt, salon.timeZone),
        }
      : null,
    policy: policy.terms ? { terms: policy.terms, digest: policy.digest } : null,
    studentCoupon: hold.couponStudentOnly,
    problems: [],
  };
}

export { parseFlowParams };

function selectionOf(selection: FlowSelection): FlowLink {
  return {
    menuIds: selection.menus.map((menu) => menu.id),
    staffSlug: selection.stylist?.slug ?? null,
    couponId: selection.coupon?.id ?? null,
  };
}

const startSchema = z.iso.datetime({ offset: true, error: "時間の指定が正しくありません。" });

/**
 * POST intent=hold: the selection from the form, checked like the URL,
 * then holdSlot (price, duration and ability from the database) and the
 * coupon. Refusals come back as a status and a Japanese message.
 */
export async function holdFromForm(
  db: Database,
  input: {
    salon: FlowSalon;
    form: FormData;
    userId: string | null;
    now: Date;
    /** For holdSlot's limits, the same counters as POST /api/holds. */
    limits: BookingLimits;
    ip: string;
    /** The browser's hold key: a guest's hold is bound to it. */
    browserKey: string;
  },
): Promise<
  { ok: true; holdId: string; href: string } | { ok: false; status: number; message: string }
> {
  const { salon, form, now } = input;
  const params = new URLSearchParams();
  for (const key of ["menu", "staff", "coupon", "date"]) {
    for (const value of form.getAll(key)) params.append(key, String(value));
  }
  const query = parseFlowParams(params);
  if (query.problems[0]) return { ok: false, status: 400, message: query.problems[0] };
  const selection = await loadFlowSelection(db, salon, query, now);
  if (selection.problems[0]) return { ok: false, status: 400, message: selection.problems[0] };
  if (selection.menus.length === 0) {
    return { ok: false, status: 400, message: "メニューを1つ以上選んでください。" };
  }
  const start = startSchema.safeParse(form.get("start") ?? "");
  if (!start.success) {
    return { ok: false, status: 400, message: "時間の指定が正しくありません。" };
  }
  try {
    const hold = await holdSlot(db, {
      salonId: salon.id,
      menuIds: selection.menus.map((menu) => menu.id),
      staffId: selection.stylist?.id ?? null,
      start: new Date(start.data),
      userId: input.userId,
      couponId: selection.coupon?.id ?? null,
      now,
      limits: input.limits,
      ip: input.ip,
      browserKey: input.browserKey,
    });
    await keepDraft(db, { salonId: salon.id, holdId: hold.id, form });
    const date = toLocal(hold.startsAt, salon.timeZone).date;
    const href = bookingFlowHref(salon.slug, { ...selectionOf(selection), date, holdId: hold.id });
    return { ok: true, holdId: hold.id, href };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ok: false, status: error.status, message: error.message };
  }
}
