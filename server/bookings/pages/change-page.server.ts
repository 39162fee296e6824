import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { bookingFlowHref, type FlowLink, sameMenus } from "../../../common/booking-flow-href";
import { addDays, calendarDay, toLocal } from "../../../common/local-time";
import { isUuid } from "../../../common/uuid";
import type { Database } from "../../db/client";
import { staff } from "../../db/schema";
import { DomainError } from "../../errors/domain-error";
import { findAvailability } from "../availability";
import { loadAvailabilityInput, MAX_RANGE_DAYS } from "../availability-data.server";
import { BookingNotFoundError, StaffNotAvailableError } from "../booking-errors";
import type { BookingLimits } from "../booking-rate-limit";
import {
  type BookingSide,
  changeTarget,
  previewReschedule,
  rescheduleBooking,
  withoutBooking,
} from "../reschedule.server";
import { bookingSettingsFor } from "../settings";
import { type FlowParams, type FlowSalon, parseFlowParams } from "./booking-flow.server";
import { type AvailabilityLookup, loadPickView, type PickView } from "./confirm-page.server";

/**
 * The booking flow in 予約変更 mode (/salons/:id/confirm?change={bookingId},
 * docs/decisions/0041-customer-reschedule.md): the same pickers, preselected
 * with the booking's menus, stylist and day, whose times leave the booking
 * itself out (a move 30 minutes later overlaps it). Picking a time holds
 * nothing: it opens the change's confirmation (old → new) at `&start=`, and
 * confirming runs rescheduleBooking, which checks the time again in its
 * one transaction. Everything is a link or a form: no JavaScript needed.
 */

/** One side of the change as the page shows it (plain data). */
export type ChangeSideView = {
  start: string;
  end: string;
  stylistName: string;
  staffRequested: boolean;
  menus: { name: string; price: number; durationMinutes: number }[];
  total: number;
  couponTitle: string | null;
};

/** The booking being changed, above the pickers and on the confirmation. */
export type ChangeInfo = {
  bookingId: string;
  bookingNumber: string;
  timeZone: string;
  current: ChangeSideView;
  /** Back to the booking in the history (変更をやめる). */
  cancelHref: string;
};

export type ChangePickView = PickView & { change: ChangeInfo };

export type ChangeConfirmView = {
  kind: "change";
  change: ChangeInfo;
  after: ChangeSideView;
  couponDropped: boolean;
  /** The same time, stylist and menus as now: nothing to change. */
  unchanged: boolean;
  /** What the confirm form sends. */
  form: { start: string; staff: string; menuIds: string[]; version: number };
  repickHref: string;
  problems: string[];
};

/** The booking can no longer be changed on the web (cancelled, past the cutoff): why, and back. */
export type ChangeRefusedView = {
  kind: "change-refused";
  message: string;
  historyHref: string;
  problems: string[];
};

export type ChangeView = ChangePickView | ChangeConfirmView | ChangeRefusedView;

export const changeMessages = {
  booking: "変更する予約の指定が正しくありません。予約履歴からもう一度お選びください。",
  start: "時間の指定が正しくありません。もう一度お選びください。",
  noMenu: "メニューを1つ以上選んでください。",
  couponDropped:
    "ご予約のクーポンは変更後の内容ではご利用いただけないため、通常料金になります。クーポンを使う場合は、対象のメニュー・日にちをお選びください。",
} as const;

/** The `change` parameter: the booking's id, or null when absent; a malformed one is refused. */
export function changeIdOf(params: URLSearchParams | FormData): string | null | "invalid" {
  const raw = params.get("change");
  if (raw === null || raw === "") return null;
  return typeof raw === "string" && isUuid(raw) ? raw.toLowerCase() : "invalid";
}

const startSchema = z.iso.datetime({ offset: true });

function sideView(side: BookingSide): ChangeSideView {
  return {
    start: side.startsAt.toISOString(),
    end: side.endsAt.toISOString(),
    stylistName: side.staffName,
    staffRequested: side.staffRequested,
    menus: side.menus.map(({ name, price, durationMinutes }) => ({ name, price, durationMinutes })),
    total: side.totalPrice,
    couponTitle: side.couponTitle,
  };
}

/** The change's URL in the flow: the selection, the change, and the picked start if any. */
export function changeHref(
  slug: string,
  changeId: string,
  link: FlowLink,
  extra: [string, string][] = [],
) {
  // The booking's own coupon goes with it (reschedule.server.ts); the flow's is not used.
  return bookingFlowHref(slug, { ...link, couponId: null, holdId: null }, [
    ["change", changeId],
    ...extra,
  ]);
}

/** The free times of the booking window with the booking itself left out. */
function availabilityWithout(booking: { staffId: string; startsAt: Date }): AvailabilityLookup {
  return async (db, selection, now) => {
    const { salon } = selection;
    const today = calendarDay(now, salon.timeZone);
    const rules = await bookingSettingsFor(db, salon.id);
    const span = Math.min(rules.bookingWindowDays, MAX_RANGE_DAYS - 1);
    const loaded = await loadAvailabilityInput(db, {
      salonId: salon.id,
      menuIds: selection.menus.map((menu) => menu.id),
      staffId: selection.stylist?.id ?? null,
      from: today,
      to: addDays(today, span),
      now,
    });
    return findAvailability(withoutBooking(loaded, booking).input);
  };
}

/** The stylist's id for the flow's slug (null: 指名なし); an unknown one is refused by the flow. */
async function staffIdOf(db: Database, salonId: string, slug: string | null) {
  if (!slug) return null;
  const [member] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.slug, slug)));
  return member?.id ?? null;
}

/**
 * The page for a `change` URL: the booking's own menus, stylist and day
 * first (a redirect), then the pickers, or with `start` the confirmation.
 * Another customer's booking, or one of another salon, is BookingNotFoundError (404).
 */
export async function loadChangeView(
  db: Database,
  input: {
    salon: FlowSalon;
    params: URLSearchParams;
    changeId: string;
    userId: string;
    now: Date;
  },
): Promise<ChangeView | { kind: "redirect"; to: string }> {
  const { salon, changeId, userId, now, params } = input;
  const historyHref = `/account/history?booking=${changeId}`;
  let target: Awaited<ReturnType<typeof changeTarget>>;
  try {
    target = await changeTarget(db, { bookingId: changeId, userId, now });
  } catch (error) {
    if (error instanceof BookingNotFoundError) throw error;
    if (!(error instanceof DomainError)) throw error;
    return { kind: "change-refused", message: error.message, historyHref, problems: [] };
  }
  if (target.salonId !== salon.id) throw new BookingNotFoundError();
  const change: ChangeInfo = {
    bookingId: target.id,
    bookingNumber: target.bookingNumber,
    timeZone: salon.timeZone,
    current: sideView(target.side),
    cancelHref: historyHref,
  };
  const query = parseFlowParams(params);
  // Arriving from the history: the booking's own selection and day.
  if (!params.has("menu")) {
    return {
      kind: "redirect",
      to: changeHref(salon.slug, target.id, {
        menuIds: target.side.menus.map((menu) => menu.menuId),
        staffSlug: target.side.staffRequested ? target.staffSlug : null,
        couponId: null,
        date: toLocal(target.startsAt, salon.timeZone).date,
      }),
    };
  }
  const flow: FlowParams = { ...query, couponId: null, holdId: null };
  const rawStart = params.get("start");
  if (rawStart !== null) {
    const start = startSchema.safeParse(rawStart);
    const problem = !start.success
      ? changeMessages.start
      : (flow.problems[0] ?? (flow.menuIds.length === 0 ? changeMessages.noMenu : null));
    if (start.success && !problem) {
      try {
        const staffId = await staffIdOf(db, salon.id, flow.staffSlug);
        if (flow.staffSlug && !staffId) throw new StaffNotAvailableError();
        const preview = await previewReschedule(db, {
          bookingId: target.id,
          userId,
          start: new Date(start.data),
          staffId,
          menuIds: flow.menuIds,
          now,
        });
        const link = { menuIds: flow.menuIds, staffSlug: flow.staffSlug, couponId: null };
        return {
          kind: "change",
          change,
          after: sideView(preview.after),
          couponDropped: preview.couponDropped,
          unchanged: preview.unchanged,
          form: {
            start: preview.after.startsAt.toISOString(),
            staff: flow.staffSlug ?? "",
            menuIds: flow.menuIds,
            version: preview.version,
          },
          repickHref: changeHref(salon.slug, target.id, {
            ...link,
            date: toLocal(preview.after.startsAt, salon.timeZone).date,
          }),
          problems: [],
        };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The time is gone (or never was): the day's times again, with why.
        const view = await loadPickView(db, salon, flow, now, availabilityWithout(target.side));
        return { ...view, problems: [error.message, ...view.problems], change };
      }
    }
    const view = await loadPickView(db, salon, flow, now, availabilityWithout(target.side));
    return { ...view, problems: [problem ?? changeMessages.start, ...view.problems], change };
  }
  const view = await loadPickView(db, salon, flow, now, availabilityWithout(target.side));
  return { ...view, change };
}

/** What a change-mode POST ends in (the route maps it like the flow's other posts). */
export type ChangeFormOutcome =
  | { kind: "redirect"; to: string }
  | { kind: "refused"; status: number; error: string; draft: Record<string, string> };

/**
 * The change's posts. `menus` and a time (`start`) only move to another URL
 * (nothing is held: the booking keeps its time until the swap); a time
 * picked while other menus were ticked shows their times first, as the
 * flow does. `reschedule`: the swap, then the history with the result.
 */
export async function submitChangeForm(
  db: Database,
  input: {
    salon: FlowSalon;
    form: FormData;
    changeId: string;
    userId: string;
    now: Date;
    limits: BookingLimits;
    ip: string;
  },
): Promise<ChangeFormOutcome> {
  const { salon, form, changeId } = input;
  const params = new URLSearchParams();
  for (const key of ["menu", "staff", "date"]) {
    for (const value of form.getAll(key)) params.append(key, String(value));
  }
  const query = parseFlowParams(params);
  const link: FlowLink = { menuIds: query.menuIds, staffSlug: query.staffSlug, couponId: null };
  const intent = form.get("intent") ?? (form.has("start") ? "hold" : null);
  if (intent === "menus") {
    return {
      kind: "redirect",
      to: changeHref(salon.slug, changeId, { ...link, date: query.date }),
    };
  }
  const start = startSchema.safeParse(form.get("start") ?? "");
  if (intent === "hold") {
    const shown = form.getAll("shown").map(String);
    if (form.has("shown") && !sameMenus(shown, query.menuIds)) {
      return {
        kind: "redirect",
        to: changeHref(salon.slug, changeId, { ...link, date: query.date }, [["changed", "menus"]]),
      };
    }
    if (!start.success) return refused(400, changeMessages.start);
    return {
      kind: "redirect",
      to: changeHref(salon.slug, changeId, { ...link, date: query.date }, [["start", start.data]]),
    };
  }
  if (intent === "reschedule") {
    if (!start.success) return refused(400, changeMessages.start);
    if (query.problems[0]) return refused(400, query.problems[0]);
    if (query.menuIds.length === 0) return refused(400, changeMessages.noMenu);
    const rawVersion = form.get("version");
    const version = typeof rawVersion === "string" && rawVersion !== "" ? Number(rawVersion) : NaN;
    try {
      const staffId = await staffIdOf(db, salon.id, query.staffSlug);
      if (query.staffSlug && !staffId) throw new StaffNotAvailableError();
      const result = await rescheduleBooking(db, {
        bookingId: changeId,
        userId: input.userId,
        start: new Date(start.data),
        staffId,
        menuIds: query.menuIds,
        version: Number.isInteger(version) && version >= 0 ? version : undefined,
        now: input.now,
        limits: input.limits,
        ip: input.ip,
      });
      const outcome = result.couponDropped ? "coupon" : "1";
      return {
        kind: "redirect",
        to: `/account/history?booking=${result.booking.id}&changed=${result.changed ? outcome : "0"}`,
      };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return refused(error.status, error.message);
    }
  }
  return refused(400, "操作が正しくありません。もう一度お試しください。");
}

function refused(status: number, error: string): ChangeFormOutcome {
  return { kind: "refused", status, error, draft: {} };
}
