import { addDays, LocalDay, weekdayOf } from "../../../common/local-time";
import type { LocalDate } from "../../bookings/availability-input";
import { japaneseHolidaysBetween } from "../../bookings/holidays";
import type { bookingMenus, bookings } from "../schema/bookings";
import type { scheduleExceptions } from "../schema/schedules";
import { familyNames, femaleGivenNames, maleGivenNames } from "./data/names";
import type { SalonBundle } from "./generate";
import { seedId } from "./ids";
import { Random } from "./random";

/**
 * The dated part of the demo data, relative to the day the seed runs: a few
 * schedule exceptions over the next two weeks and confirmed bookings over
 * the next seven days, taking roughly 35–45 % of the stylists' working time.
 * Every value is drawn from a generator keyed by salon, date and stylist,
 * so a date always gets the same rows whichever day the seed runs, and a
 * re-run on a later day adds the new days without clashing.
 */

export type ExceptionRow = typeof scheduleExceptions.$inferInsert;
export type BookingRow = typeof bookings.$inferInsert;
export type BookingMenuRow = typeof bookingMenus.$inferInsert;

export type DatedRows = {
  exceptions: ExceptionRow[];
  bookings: BookingRow[];
  bookingMenus: BookingMenuRow[];
};

const EXCEPTION_DAYS = 14;
const BOOKING_DAYS = 7;
/** Chance that a free half hour starts a booking; tuned for about 40 % of the time taken. */
const BOOKING_CHANCE = 0.22;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const MINUTE = 60_000;

export type Span = [number, number];

export const minutesOf = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

function clip(spans: readonly Span[], within: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const [a, b] of spans) {
    for (const [c, d] of within) {
      const start = Math.max(a, c);
      const end = Math.min(b, d);
      if (end > start) out.push([start, end]);
    }
  }
  return out;
}

export function bookingNumber(rng: Random) {
  let text = "";
  for (let i = 0; i < 8; i++) text += CROCKFORD[rng.int(0, CROCKFORD.length - 1)];
  return `${text.slice(0, 4)}-${text.slice(4)}`;
}

/** The seed's schedule exceptions of one date: now and then a short day for the salon, a day off for a stylist. */
export function exceptionsOn(bundle: SalonBundle, index: number, date: LocalDate): ExceptionRow[] {
  const salonId = bundle.salon.id ?? "";
  const rows: ExceptionRow[] = [];
  const rng = new Random(`exceptions:${index}:${date}`);
  // Shorter hours only on a day the salon opens: on its closed weekday they would open it.
  const opens = bundle.openingHours.some((hours) => hours.weekday === weekdayOf(date));
  if (rng.chance(0.04) && opens) {
    rows.push({
      id: seedId(`exception:${index}:${date}:salon`),
      salonId,
      staffId: null,
      date,
      kind: "hours",
      startsAt: "10:00",
      endsAt: "16:00",
      note: "設備点検のため16時まで営業",
    });
  }
  bundle.staff.forEach((member, i) => {
    if (rng.chance(0.05)) {
      rows.push({
        id: seedId(`exception:${index}:${date}:${i}`),
        salonId,
        staffId: member.id ?? "",
        date,
        kind: "closed",
        note: "研修のためお休み",
      });
    }
  });
  return rows;
}

/**
 * Each working stylist's local spans (minutes after midnight) on `date`,
 * inside the salon's hours and the exceptions given; null when the salon
 * is closed. A stylist with the day off is missing from the map.
 */
export function workingSpans(
  bundle: SalonBundle,
  exceptions: readonly ExceptionRow[],
  date: LocalDate,
  holidays: ReadonlyMap<string, unknown>,
): Map<string, Span[]> | null {
  const weekday = weekdayOf(date);
  if (bundle.bookingSettings?.closedOnPublicHolidays && holidays.has(date)) return null;
  const salonException = exceptions.find((e) => e.staffId === null && e.date === date);
  const salonSpans: Span[] = salonException
    ? [[minutesOf(salonException.startsAt ?? "00:00"), minutesOf(salonException.endsAt ?? "00:00")]]
    : bundle.openingHours
        .filter((h) => h.weekday === weekday)
        .map((h): Span => [minutesOf(h.opens), minutesOf(h.closes)]);
  if (salonSpans.length === 0) return null;
  const result = new Map<string, Span[]>();
  for (const member of bundle.staff) {
    const staffId = member.id ?? "";
    if (exceptions.some((e) => e.staffId === staffId && e.date === date)) continue;
    const own = bundle.schedules
      .filter((s) => s.staffId === staffId && s.weekday === weekday)
      .map((s): Span => [minutesOf(s.startsAt), minutesOf(s.endsAt)]);
    result.set(
      staffId,
      clip(own, salonSpans).sort((a, b) => a[0] - b[0]),
    );
  }
  return result;
}

/** Exceptions and bookings of one salon from `today` (the salon's local date) on. */
export function generateDatedRows(
  bundle: SalonBundle,
  index: number,
  today: LocalDate,
  now: Date,
): DatedRows {
  const salonId = bundle.salon.id ?? "";
  const timeZone = bundle.salon.timeZone ?? "Asia/Tokyo";
  const settings = bundle.bookingSettings;
  const holidays = japaneseHolidaysBetween(today, addDays(today, EXCEPTION_DAYS));
  const exceptions: ExceptionRow[] = [];
  const bookingRows: BookingRow[] = [];
  const menuRows: BookingMenuRow[] = [];
  const staffIds = bundle.staff.map((member) => member.id ?? "");

  for (let offset = 0; offset < EXCEPTION_DAYS; offset++) {
    exceptions.push(...exceptionsOn(bundle, index, addDays(today, offset)));
  }

  const restricted = new Map<string, Set<string>>();
  for (const row of bundle.menuStaff) {
    const set = restricted.get(row.menuId) ?? new Set<string>();
    set.add(row.staffId);
    restricted.set(row.menuId, set);
  }
  const buffer = settings?.bufferAfterMinutes ?? 0;
  const dailyLimit = settings?.dailyLimitPerStaff ?? null;

  for (let offset = 0; offset < BOOKING_DAYS; offset++) {
    const date = addDays(today, offset);
    const working = workingSpans(bundle, exceptions, date, holidays);
    if (!working) continue;
    const localDay = new LocalDay(date, timeZone);

    staffIds.forEach((staffId, i) => {
      const spans = working.get(staffId);
      if (!spans) return;
      const capable = bundle.menus.filter((menu) => {
        const allowed = restricted.get(menu.id ?? "");
        return !allowed || allowed.has(staffId);
      });
      if (capable.length === 0) return;
      const rng = new Random(`bookings:${index}:${date}:${i}`);
      let count = 0;
      for (const [from, to] of spans) {
        let cursor = from;
        while (cursor < to) {
          if (dailyLimit !== null && count >= dailyLimit) return;
          const first = rng.pick(capable);
          const chosen = [first];
          if (rng.chance(0.2)) {
            const second = rng.pick(capable);
            if (second !== first && second.category !== first.category) chosen.push(second);
          }
          const duration = chosen.reduce((sum, menu) => sum + menu.durationMinutes, 0);
          const book = rng.chance(BOOKING_CHANCE) && cursor + duration <= to;
          if (!book) {
            cursor += 30;
            continue;
          }
          const startsAt = new Date(localDay.instantMs(cursor));
          const id = seedId(`booking:${index}:${date}:${i}:${cursor}`);
          const female = rng.chance(0.8);
          const family = rng.pick(familyNames);
          const given = rng.pick(female ? femaleGivenNames : maleGivenNames);
          const endsAt = new Date(startsAt.getTime() + duration * MINUTE);
          bookingRows.push({
            id,
            salonId,
            userId: null,
            staffId,
            staffRequested: rng.chance(0.6),
            bookingNumber: bookingNumber(rng),
            startsAt,
            endsAt,
            // The seed's salons keep no buffer before (decision 0048).
            occupiedFrom: startsAt,
            occupiedUntil: new Date(endsAt.getTime() + buffer * MINUTE),
            totalPrice: chosen.reduce((sum, menu) => sum + menu.price, 0),
            status: "confirmed",
            source: "phone",
            customerName: `${family.name} ${given.name}`,
            customerKana: `${family.kana} ${given.kana}`,
            customerPhone: `090-${String(rng.int(1000, 9999))}-${String(rng.int(1000, 9999))}`,
            customerEmail: `guest-${id.slice(0, 8)}@example.jp`,
            createdAt: now,
            updatedAt: now,
          });
          chosen.forEach((menu, position) => {
            menuRows.push({
              salonId,
              bookingId: id,
              position,
              menuId: menu.id ?? "",
              name: menu.name,
              price: menu.price,
              durationMinutes: menu.durationMinutes,
            });
          });
          count++;
          // The next start on the half-hour grid after this booking and its buffer.
          cursor += Math.ceil((duration + buffer) / 30) * 30;
        }
      }
    });
  }
  // The whole day is drawn whatever the hour, so a date always yields the
  // same rows; only then are the ones already started left out.
  const future = bookingRows.filter((row) => (row.startsAt as Date) > now);
  const kept = new Set(future.map((row) => row.id));
  return {
    exceptions,
    bookings: future,
    bookingMenus: menuRows.filter((row) => kept.has(row.bookingId)),
  };
}
