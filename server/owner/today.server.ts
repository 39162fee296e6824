import { and, asc, desc, eq, gt, gte, inArray, lt, ne, or } from "drizzle-orm";
import { formatDate, formatMonthDayWeekday } from "../../common/format";
import { addDays, type LocalDate, LocalDay, toLocal } from "../../common/local-time";
import { isPendingApproval, staffBookingLabel } from "../../common/status-labels";
import type { CurrentUser } from "../accounts/current-user";
import { workingIntervals } from "../bookings/availability";
import { loadSalonDay } from "../bookings/availability-data.server";
import { type Interval, intersect, merge, subtract } from "../bookings/intervals";
import type { Database } from "../db/client";
import {
  type BookingEventKind,
  type BookingSource,
  type BookingStatus,
  bookingEvents,
  bookingMenus,
  bookings,
  staff,
} from "../db/schema";
import { can, reachableSalons, type SalonAccess } from "../salon-access/salon-access.server";
import { pendingScheduleRequestCount } from "./schedule-requests.server";
import { type ViewScope, viewScope } from "./scope.server";

/**
 * The back office's 今日 (issue 28, point 2; decision 0043): what a salon
 * needs at a glance on the day, in the salon's own time zone. Bookings only:
 * blocked time (kind 'block') has no customer and is not counted, though it
 * does take a stylist's free capacity. Notices (point 7) are the customers'
 * own changes from booking_events: a new booking, a cancellation, a move.
 */

/** How far ahead a booking counts as "arriving" (来店予定). */
export const ARRIVAL_WINDOW_MINUTES = 30;
/** A new booking needs a look for this long. */
export const NEW_BOOKING_ATTENTION_MINUTES = 60;
/** A cancellation or a move by the customer needs a look for this long. */
export const CHANGE_ATTENTION_HOURS = 24;
/** Notices: the last week, newest first, at most this many. */
export const NOTICE_DAYS = 7;
export const NOTICE_LIMIT = 20;

const MINUTE = 60_000;

export type TodaySalon = { id: string; name: string; timeZone: string };

export type TodayBooking = {
  id: string;
  bookingNumber: string;
  /** ISO instants. */
  startsAt: string;
  endsAt: string;
  /** "HH:MM" in the salon's zone. */
  startTime: string;
  endTime: string;
  customerName: string;
  customerKana: string;
  menus: string[];
  staffId: string;
  staffName: string;
  /** 指名 (true) or 指名なし. */
  staffRequested: boolean;
  status: BookingStatus;
  source: BookingSource;
  arrived: boolean;
  totalPrice: number;
  /** A web booking waiting for the salon's approval (仮予約, decision 0051). */
  pending: boolean;
  /** The back office's wording of its state (common/status-labels.ts). */
  statusLabel: string;
};

/** A web booking waiting for the salon's approval (仮予約): listed first in 要確認. */
export type PendingApproval = {
  id: string;
  bookingNumber: string;
  /** ISO instant of the start. */
  startsAt: string;
  /** The start, as 12月3日(木) 14:00 in the salon's zone. */
  startLabel: string;
  /** When the customer booked, the same way. */
  madeAtLabel: string;
  customerName: string;
  customerKana: string;
  staffName: string;
};

/** At most this many pending bookings are listed (the oldest start first). */
export const PENDING_APPROVAL_LIMIT = 50;

export type TodayCounts = {
  /** Still on the books (予約確定). */
  booked: number;
  completed: number;
  /** By the customer or by the salon. */
  cancelled: number;
  noShow: number;
};

export type StylistCapacity = {
  staffId: string;
  staffName: string;
  /** Working time from now to the end of the day (the schedule, exceptions, closures). */
  workingMinutesLeft: number;
  /** Of that, taken by bookings, blocked time and live holds. */
  bookedMinutesLeft: number;
  freeMinutesLeft: number;
};

export type NoticeKind = Extract<BookingEventKind, "created" | "cancelled" | "moved">;

export type BookingNotice = {
  id: string;
  kind: NoticeKind;
  /** ISO instant of the change. */
  at: string;
  /** 11月26日(木) 10:05 in the salon's zone. */
  atLabel: string;
  bookingId: string;
  customerName: string;
  customerKana: string;
  /** The booking's (current) start, as 11月28日(土) 14:00. */
  bookingStartLabel: string;
  status: BookingStatus;
  /** The booking's state now, worded as everywhere in the back office (仮予約（承認待ち）…). */
  statusLabel: string;
};

export type TodayView = {
  salon: TodaySalon;
  date: LocalDate;
  /** 2026年11月26日(木). */
  dateLabel: string;
  /** "HH:MM": when this was read. */
  nowTime: string;
  /** Confirmed bookings not started yet, the next one first. */
  upcoming: TodayBooking[];
  /** Started or starting within 30 minutes, not yet over, not marked arrived. */
  arrivalsDue: TodayBooking[];
  counts: TodayCounts;
  /** Null when the salon is not published (no schedule is read for a draft). */
  capacity: StylistCapacity[] | null;
  /** Web bookings waiting for the salon's approval, not yet over, soonest first (要確認, first). */
  pendingApprovals: PendingApproval[];
  /** Bookings made in the last hour, cancellations and moves of the last 24 hours. */
  attention: BookingNotice[];
  /** The customers' changes of the last 7 days, newest first. */
  notices: BookingNotice[];
};

type Reader = Pick<Database, "select" | "execute">;

function localLabel(instant: Date, timeZone: string) {
  const local = toLocal(instant, timeZone);
  return `${formatMonthDayWeekday(local.date)} ${local.time}`;
}

async function dayBookings(
  db: Reader,
  salon: TodaySalon,
  from: Date,
  to: Date,
  only: string | null,
) {
  const rows = await db
    .select({
      id: bookings.id,
      bookingNumber: bookings.bookingNumber,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      customerName: bookings.customerName,
      customerKana: bookings.customerKana,
      staffId: bookings.staffId,
      staffName: staff.name,
      staffRequested: bookings.staffRequested,
      status: bookings.status,
      source: bookings.source,
      arrivedAt: bookings.arrivedAt,
      totalPrice: bookings.totalPrice,
      approval: bookings.approval,
    })
    .from(bookings)
    .innerJoin(staff, eq(staff.id, bookings.staffId))
    .where(
      and(
        eq(bookings.salonId, salon.id),
        eq(bookings.kind, "booking"),
        ne(bookings.status, "held"),
        gte(bookings.startsAt, from),
        lt(bookings.startsAt, to),
        only === null ? undefined : eq(bookings.staffId, only),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(staff.sortOrder), asc(bookings.id));
  const ids = rows.map((row) => row.id);
  const menuRows =
    ids.length === 0
      ? []
      : await db
          .select({ bookingId: bookingMenus.bookingId, name: bookingMenus.name })
          .from(bookingMenus)
          .where(and(eq(bookingMenus.salonId, salon.id), inArray(bookingMenus.bookingId, ids)))
          .orderBy(asc(bookingMenus.bookingId), asc(bookingMenus.position));
  const menusOf = new Map<string, string[]>();
  for (const row of menuRows) {
    const list = menusOf.get(row.bookingId) ?? [];
    list.push(row.name);
    menusOf.set(row.bookingId, list);
  }
  return rows.map(
    (row): TodayBooking => ({
      id: row.id,
      bookingNumber: row.bookingNumber,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      startTime: toLocal(row.startsAt, salon.timeZone).time,
      endTime: toLocal(row.endsAt, salon.timeZone).time,
      customerName: row.customerName,
      customerKana: row.customerKana,
      menus: menusOf.get(row.id) ?? [],
      staffId: row.staffId,
      staffName: row.staffName,
      staffRequested: row.staffRequested,
      status: row.status,
      source: row.source,
      arrived: row.arrivedAt !== null,
      totalPrice: row.totalPrice,
      pending: isPendingApproval(row),
      statusLabel: staffBookingLabel({ ...row, arrived: row.arrivedAt !== null }),
    }),
  );
}

/**
 * Approval mode (decision 0051): the salon's web bookings still waiting for
 * its answer, whose end has not passed (bookings_pending_approval_idx).
 */
async function pendingApprovals(
  db: Reader,
  salon: TodaySalon,
  now: Date,
  only: string | null,
): Promise<PendingApproval[]> {
  const rows = await db
    .select({
      id: bookings.id,
      bookingNumber: bookings.bookingNumber,
      startsAt: bookings.startsAt,
      createdAt: bookings.createdAt,
      customerName: bookings.customerName,
      customerKana: bookings.customerKana,
      staffName: staff.name,
    })
    .from(bookings)
    .innerJoin(staff, eq(staff.id, bookings.staffId))
    .where(
      and(
        eq(bookings.salonId, salon.id),
        eq(bookings.approval, "pending"),
        eq(bookings.status, "confirmed"),
        eq(bookings.kind, "booking"),
        gt(bookings.endsAt, now),
        only === null ? undefined : eq(bookings.staffId, only),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .limit(PENDING_APPROVAL_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    bookingNumber: row.bookingNumber,
    startsAt: row.startsAt.toISOString(),
    startLabel: localLabel(row.startsAt, salon.timeZone),
    madeAtLabel: localLabel(row.createdAt, salon.timeZone),
    customerName: row.customerName,
    customerKana: row.customerKana,
    staffName: row.staffName,
  }));
}

function countsOf(list: readonly TodayBooking[]): TodayCounts {
  const counts: TodayCounts = { booked: 0, completed: 0, cancelled: 0, noShow: 0 };
  for (const booking of list) {
    if (booking.status === "confirmed") counts.booked++;
    else if (booking.status === "completed") counts.completed++;
    else if (booking.status === "no_show") counts.noShow++;
    else if (booking.status === "cancelled_by_user" || booking.status === "cancelled_by_salon") {
      counts.cancelled++;
    }
  }
  return counts;
}

const minutesIn = (intervals: readonly Interval[]) =>
  Math.round(intervals.reduce((sum, i) => sum + (i.end - i.start), 0) / MINUTE);

/**
 * Per active stylist: working time left today (from now), and how much of it
 * bookings, blocks and live holds already take. The schedule is the
 * availability engine's own (workingIntervals over loadSalonDay), so the
 * page and the booking flow never disagree about who works when.
 */
async function capacityOf(
  db: Reader,
  salon: TodaySalon,
  date: LocalDate,
  now: Date,
  only: string | null,
): Promise<StylistCapacity[] | null> {
  const day = await loadSalonDay(db, { salonId: salon.id, date, now });
  if (!day) return null;
  const working = workingIntervals(day, date);
  const names = new Map(
    (
      await db
        .select({ id: staff.id, name: staff.name })
        .from(staff)
        .where(eq(staff.salonId, salon.id))
    ).map((row) => [row.id, row.name]),
  );
  const fromNow: Interval[] = [{ start: now.getTime(), end: Number.POSITIVE_INFINITY }];
  return day.staff
    .filter((member) => only === null || member.id === only)
    .map((member) => {
      const left = intersect(working.get(member.id) ?? [], fromNow);
      const busy = merge(
        day.busy
          .filter((b) => b.staffId === member.id)
          .map((b) => ({ start: b.start.getTime(), end: b.end.getTime() })),
      );
      const free = subtract(left, busy);
      const workingMinutesLeft = minutesIn(left);
      const freeMinutesLeft = minutesIn(free);
      return {
        staffId: member.id,
        staffName: names.get(member.id) ?? "",
        workingMinutesLeft,
        bookedMinutesLeft: workingMinutesLeft - freeMinutesLeft,
        freeMinutesLeft,
      };
    });
}

const noticeKinds = ["created", "cancelled", "moved"] as const satisfies readonly NoticeKind[];

async function customerNotices(
  db: Reader,
  salon: TodaySalon,
  where: ReturnType<typeof and>,
  limit: number,
  only: string | null,
): Promise<BookingNotice[]> {
  const rows = await db
    .select({
      id: bookingEvents.id,
      kind: bookingEvents.kind,
      at: bookingEvents.createdAt,
      bookingId: bookingEvents.bookingId,
      customerName: bookings.customerName,
      customerKana: bookings.customerKana,
      startsAt: bookings.startsAt,
      status: bookings.status,
      approval: bookings.approval,
      arrivedAt: bookings.arrivedAt,
    })
    .from(bookingEvents)
    .innerJoin(
      bookings,
      and(eq(bookings.id, bookingEvents.bookingId), eq(bookings.salonId, bookingEvents.salonId)),
    )
    .where(
      and(
        eq(bookingEvents.salonId, salon.id),
        eq(bookingEvents.actorKind, "customer"),
        inArray(bookingEvents.kind, [...noticeKinds]),
        eq(bookings.kind, "booking"),
        only === null ? undefined : eq(bookings.staffId, only),
        where,
      ),
    )
    .orderBy(desc(bookingEvents.createdAt), desc(bookingEvents.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as NoticeKind,
    at: row.at.toISOString(),
    atLabel: localLabel(row.at, salon.timeZone),
    bookingId: row.bookingId,
    customerName: row.customerName,
    customerKana: row.customerKana,
    bookingStartLabel: localLabel(row.startsAt, salon.timeZone),
    status: row.status,
    statusLabel: staffBookingLabel({ ...row, arrived: row.arrivedAt !== null }),
  }));
}

/** The back office's notices: the customers' bookings, cancellations and moves of the last week. */
export function listNotices(db: Reader, salon: TodaySalon, now: Date, only: string | null = null) {
  return customerNotices(
    db,
    salon,
    and(
      gte(bookingEvents.createdAt, new Date(now.getTime() - NOTICE_DAYS * 24 * 60 * MINUTE)),
      lt(bookingEvents.createdAt, new Date(now.getTime() + MINUTE)),
    ),
    NOTICE_LIMIT,
    only,
  );
}

/** 要確認: a booking made in the last hour, a cancellation or move of the last 24 hours. */
function listAttention(db: Reader, salon: TodaySalon, now: Date, only: string | null) {
  const since = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
  return customerNotices(
    db,
    salon,
    and(
      or(
        and(
          eq(bookingEvents.kind, "created"),
          gte(bookingEvents.createdAt, since(NEW_BOOKING_ATTENTION_MINUTES)),
        ),
        and(
          inArray(bookingEvents.kind, ["cancelled", "moved"]),
          gte(bookingEvents.createdAt, since(CHANGE_ATTENTION_HOURS * 60)),
        ),
      ),
      lt(bookingEvents.createdAt, new Date(now.getTime() + MINUTE)),
    ),
    50,
    only,
  );
}

/**
 * Everything the 今日 page and GET /api/owner/salons/{id}/today show, at
 * `now`, as the person's scope may see it (a stylist: their own bookings,
 * capacity and notices; scope.server.ts).
 */
export async function todayView(
  db: Reader,
  salon: TodaySalon,
  now: Date,
  scope: Pick<ViewScope, "staffId"> = { staffId: null },
): Promise<TodayView> {
  const only = scope.staffId;
  const local = toLocal(now, salon.timeZone);
  const date = local.date;
  const day = new LocalDay(date, salon.timeZone);
  const dayStart = new Date(day.instantMs(0));
  const dayEnd = new Date(new LocalDay(addDays(date, 1), salon.timeZone).instantMs(0));
  const [list, capacity, attention, notices, pending] = await Promise.all([
    dayBookings(db, salon, dayStart, dayEnd, only),
    capacityOf(db, salon, date, now, only),
    listAttention(db, salon, now, only),
    listNotices(db, salon, now, only),
    pendingApprovals(db, salon, now, only),
  ]);
  const nowMs = now.getTime();
  const confirmed = list.filter((booking) => booking.status === "confirmed");
  return {
    salon,
    date,
    dateLabel: formatDate(date),
    nowTime: local.time,
    upcoming: confirmed.filter((booking) => Date.parse(booking.startsAt) >= nowMs),
    arrivalsDue: confirmed.filter(
      (booking) =>
        !booking.arrived &&
        Date.parse(booking.startsAt) <= nowMs + ARRIVAL_WINDOW_MINUTES * MINUTE &&
        Date.parse(booking.endsAt) > nowMs,
    ),
    counts: countsOf(list),
    capacity,
    pendingApprovals: pending,
    attention,
    notices,
  };
}

/**
 * Where /owner opens: the salon last opened in this browser if the person can
 * still reach it, else the first they can reach (owned or staff), or why there is none.
 */
export type BackOfficeStart =
  | { kind: "salon"; href: string }
  | { kind: "no_salons" }
  | { kind: "admin" };

export async function backOfficeStart(
  db: Database,
  user: CurrentUser,
  /** The salon this browser opened last (issue 38, point 7): opened again if still theirs. */
  lastOpened: string | null = null,
): Promise<BackOfficeStart> {
  if (user.role === "admin") return { kind: "admin" };
  const salons = await reachableSalons(db, user);
  const start = salons.find((salon) => salon.id === lastOpened) ?? salons[0];
  return start ? { kind: "salon", href: `/owner/salons/${start.id}` } : { kind: "no_salons" };
}

/** The 今日 page: the view (the frame is the layout route's). */
export async function todayPage(db: Database, access: SalonAccess, now: Date) {
  const [view, scheduleRequests] = await Promise.all([
    todayView(db, access.salon, now, viewScope(access)),
    // The stylists' schedule requests waiting for a manager (要確認; decision 0052).
    can(access, "schedules.manage") ? pendingScheduleRequestCount(db, access.salon.id) : 0,
  ]);
  return { view, scheduleRequests };
}
