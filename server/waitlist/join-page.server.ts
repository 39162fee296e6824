import { bookingFlowHref, type FlowLink, waitlistJoinHref } from "../../common/booking-flow-href";
import { calendarDay, formatMinutes, toLocal } from "../../common/local-time";
import { WAITLIST_LIVE_ENTRIES_MAX } from "../../common/waitlist";
import { salonOpeningOn } from "../bookings/availability";
import { loadAvailabilityInput } from "../bookings/availability-data.server";
import type { BookingLimits } from "../bookings/booking-rate-limit";
import {
  type FlowSalon,
  type FlowSelection,
  loadFlowSelection,
  parseFlowParams,
} from "../bookings/pages/booking-flow.server";
import { dayMessages } from "../bookings/pages/confirm-page.server";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { joinWaitlist } from "./waitlist.server";
import {
  parseWaitlistWindow,
  type WaitlistWindowField,
  type WaitlistWindowValues,
  waitlistWindowValues,
} from "./waitlist-window";

/**
 * /salons/:id/waitlist (issue 30, point 4): キャンセル待ちに登録 for the
 * booking flow's choice (menus, a stylist or 指名なし, coupon, one day; the
 * URL carries it as on /salons/:id/confirm, so a guest signs in and comes
 * back to it) with the wished window of start times, chosen on the salon's
 * hours that day.
 */

/** The window's choices are every half hour of the salon's hours that day. */
const CHOICE_STEP_MINUTES = 30;

export type WaitlistJoinPage = {
  salon: FlowSalon;
  date: string | null;
  menus: { name: string; price: number; durationMinutes: number }[];
  /** null: 指名なし. */
  stylistName: string | null;
  couponTitle: string | null;
  /** Back to the flow on that day (its times). */
  backHref: string;
  /** "HH:MM" choices of the window's start and end. */
  startChoices: string[];
  endChoices: string[];
  /** The form's values: the whole day unless typed otherwise. */
  values: WaitlistWindowValues;
  /** Why this choice cannot be put on the waiting list (no form then). */
  problems: string[];
  /** Just joined (after the redirect): the notice instead of the form. */
  joined: boolean;
  liveEntriesMax: number;
};

function linkOf(selection: FlowSelection, date: string | null): FlowLink {
  return {
    menuIds: selection.menus.map((menu) => menu.id),
    staffSlug: selection.stylist?.slug ?? null,
    couponId: selection.coupon?.id ?? null,
    date,
  };
}

/** The salon's opening that day in local minutes, or why there is none. */
async function openingMinutes(
  db: Database,
  selection: FlowSelection,
  date: string,
  now: Date,
): Promise<{ from: number; to: number } | { problem: string }> {
  const { salon } = selection;
  const loaded = await loadAvailabilityInput(db, {
    salonId: salon.id,
    menuIds: selection.menus.map((menu) => menu.id),
    staffId: selection.stylist?.id ?? null,
    from: date,
    to: date,
    now,
  });
  const { closedReason, opening } = salonOpeningOn(loaded.input, date);
  if (closedReason) return { problem: dayMessages[closedReason] };
  const minutes = opening.map((interval) => ({
    start: toLocal(new Date(interval.start), salon.timeZone).minutes,
    // An opening to midnight ends at 24:00, not 00:00.
    end: toLocal(new Date(interval.end - 60_000), salon.timeZone).minutes + 1,
  }));
  if (minutes.length === 0) return { problem: dayMessages.salon_closed };
  return {
    from: Math.min(...minutes.map((m) => m.start)),
    to: Math.max(...minutes.map((m) => m.end)),
  };
}

function choicesBetween(from: number, to: number) {
  const starts: string[] = [];
  const ends: string[] = [];
  const first = Math.floor(from / CHOICE_STEP_MINUTES) * CHOICE_STEP_MINUTES;
  for (let at = first; at < to; at += CHOICE_STEP_MINUTES) starts.push(formatMinutes(at));
  for (let at = first + CHOICE_STEP_MINUTES; at < to; at += CHOICE_STEP_MINUTES) {
    ends.push(formatMinutes(at));
  }
  ends.push(formatMinutes(to));
  return { starts, ends };
}

/**
 * The page for the URL's choice. A choice that cannot be put on the list
 * (no menu, no day, a past or closed day, a menu or stylist not here) comes
 * back with its messages and no form; the route answers 400.
 */
export async function loadWaitlistJoinPage(
  db: Database,
  input: {
    salon: FlowSalon;
    search: URLSearchParams;
    now: Date;
  },
): Promise<WaitlistJoinPage> {
  const { salon, search, now } = input;
  const query = parseFlowParams(search);
  const selection = await loadFlowSelection(db, salon, query, now);
  const problems = [...query.problems, ...selection.problems];
  const date = query.date;
  if (selection.menus.length === 0) problems.push("メニューを1つ以上選んでください。");
  if (!date) problems.push("キャンセル待ちをする日にちを選んでください。");
  let window: { from: number; to: number } = { from: 0, to: 24 * 60 };
  if (problems.length === 0 && date) {
    if (date < calendarDay(now, salon.timeZone)) problems.push(dayMessages.past);
    else {
      try {
        const opening = await openingMinutes(db, selection, date, now);
        if ("problem" in opening) problems.push(opening.problem);
        else window = opening;
      } catch (error) {
        // The flow's checks passed; a rule the loader still refuses is shown, not a 500.
        if (!(error instanceof DomainError)) throw error;
        problems.push(error.message);
      }
    }
  }
  const { starts, ends } = choicesBetween(window.from, window.to);
  return {
    salon,
    date,
    menus: selection.menus.map(({ name, price, durationMinutes }) => ({
      name,
      price,
      durationMinutes,
    })),
    stylistName: selection.stylist?.name ?? null,
    couponTitle: selection.coupon?.title ?? null,
    backHref: bookingFlowHref(salon.slug, linkOf(selection, date)),
    startChoices: starts,
    endChoices: ends,
    values: { windowStart: starts[0] ?? "", windowEnd: ends.at(-1) ?? "" },
    problems: [...new Set(problems)],
    joined: problems.length === 0 && search.get("joined") === "1",
    liveEntriesMax: WAITLIST_LIVE_ENTRIES_MAX,
  };
}

export type WaitlistJoinOutcome =
  | { kind: "redirect"; to: string }
  | {
      kind: "refused";
      status: number;
      errors: Partial<Record<WaitlistWindowField | "form", string>>;
      values: WaitlistWindowValues;
    };

/**
 * POST: the window from the form, the choice from the URL, then
 * joinWaitlist (its checks, limits and refusals). Joined: back to the page
 * with its notice. Refused: the status, a Japanese message per field or for
 * the form, and what was typed.
 */
export async function submitWaitlistJoin(
  db: Database,
  input: {
    salon: FlowSalon;
    search: URLSearchParams;
    form: FormData;
    userId: string;
    now: Date;
    limits: BookingLimits;
    ip: string;
  },
): Promise<WaitlistJoinOutcome> {
  const { salon, search, form, now } = input;
  const values = waitlistWindowValues(form);
  const query = parseFlowParams(search);
  const selection = await loadFlowSelection(db, salon, query, now);
  const problem = [...query.problems, ...selection.problems][0];
  const refused = (status: number, errors: Partial<Record<WaitlistWindowField | "form", string>>) =>
    ({ kind: "refused", status, errors, values }) as const;
  if (problem) return refused(400, { form: problem });
  if (selection.menus.length === 0)
    return refused(400, { form: "メニューを1つ以上選んでください。" });
  if (!query.date) return refused(400, { form: "キャンセル待ちをする日にちを選んでください。" });
  const window = parseWaitlistWindow(values);
  if (!window.ok) return refused(400, window.errors);
  try {
    await joinWaitlist(db, {
      userId: input.userId,
      salonId: salon.id,
      menuIds: selection.menus.map((menu) => menu.id),
      staffId: selection.stylist?.id ?? null,
      couponId: selection.coupon?.id ?? null,
      date: query.date,
      windowStart: window.windowStart,
      windowEnd: window.windowEnd,
      now,
      limits: input.limits,
      ip: input.ip,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const field = error.details?.field;
    const key = field === "windowStart" || field === "windowEnd" ? field : "form";
    return refused(error.status, { [key]: error.message });
  }
  const href = waitlistJoinHref(salon.slug, { ...linkOf(selection, query.date), date: query.date });
  return { kind: "redirect", to: `${href}&joined=1` };
}
