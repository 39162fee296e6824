import type { CurrentUser } from "../accounts/current-user";
import type { Database } from "../db/client";
import type { DayAvailability } from "./availability-input";
import {
  type FlowParams,
  type FlowSalon,
  type FlowSelection,
  loadFlowSelection,
  localDateIn,
  parseFlowParams,
} from "./booking-flow.server";

/**
 * Everything /salons/:id/confirm shows while the visitor picks menus,
 * stylist, day and time: the checked selection, the days of the booking
 * window with free times, and the free times of the chosen day.
 */
export type PickView = {
  kind: "pick";
  selection: FlowSelection;
  date: string | null;
  days: { date: string; holiday: boolean; available: boolean }[];
  times: { time: string; start: string }[];
  problems: string[];
  today: string;
};

export const dayMessages = {
  past: "過去の日付は選べません。今日以降の日付をお選びください。",
  outside_window: "この日はまだ予約を受け付けていません（または本日の受付を終了しました）。",
  holiday: "この日は祝日のため休業です。別の日をお選びください。",
  salon_closed: "この日は定休日です。別の日をお選びください。",
  full: "この日は予約がいっぱいです。別の日をお選びください。",
} as const;

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
  const today = localDateIn(now, salon.timeZone);
  const dayList = selection.menus.length > 0 ? await availability(db, selection, now) : [];
  const days = dayList.map((day) => ({
    date: day.date,
    holiday: day.holiday,
    available: day.slots.length > 0,
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
  return { kind: "pick", selection, date, days, times, problems, today };
}

/** The hold step: what is held, for how long, and the contact form (null for a guest). */
export type HoldView = {
  kind: "hold";
  holdId: string;
  expiresAt: string;
  now: string;
  summary: {
    salonName: string;
    menus: { name: string; price: number; durationMinutes: number }[];
    stylistName: string | null;
    start: string;
    end: string;
    timeZone: string;
    subtotal: number;
    coupon: { title: string; discount: number } | null;
    total: number;
    cancelCutoffHours: number;
  };
  contact: Record<"name" | "nameKana" | "phone" | "email" | "note", string> | null;
  idempotencyKey: string;
  problems: string[];
};

export type { CurrentUser };
/** The page for the URL: the hold step when a live hold is given, else the pickers. */
export async function loadConfirmView(
  db: Database,
  input: { salon: FlowSalon; query: FlowParams; user: CurrentUser | null; now: Date },
  availability: AvailabilityLookup,
): Promise<PickView | HoldView> {
  return loadPickView(db, input.salon, input.query, input.now, availability);
}

export { parseFlowParams };
