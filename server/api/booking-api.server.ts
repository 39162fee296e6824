import { and, eq } from "drizzle-orm";
import { addDays, toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { findAvailability } from "../bookings/availability";
import { loadAvailabilityInput } from "../bookings/availability-data.server";
import type { DayAvailability, LocalDate } from "../bookings/availability-input";
import { InvalidDateRangeError, StaffNotAvailableError } from "../bookings/booking-errors";
import type { Database } from "../db/client";
import { staff } from "../db/schema";
import { publishedSalonRef } from "../salons/salon-ref";

export type AvailabilityQuery = {
  /** The salon's slug or UUID. */
  salon: string;
  menuIds: readonly string[];
  /** A stylist's slug or UUID; null for 指名なし. */
  staff: string | null;
  from: LocalDate;
  to: LocalDate;
};

/** A stylist of the salon by slug or UUID (the loader checks the UUID belongs to the salon). */
export async function staffIdForRef(db: Database, salonId: string, ref: string | null) {
  if (ref === null) return null;
  if (isUuid(ref)) return ref.toLowerCase();
  const [member] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.slug, ref)));
  if (!member) throw new StaffNotAvailableError();
  return member.id;
}

/** The query with the salon and stylist named by UUID; throws the 4xx DomainErrors. */
export async function resolveAvailabilityQuery(db: Database, query: AvailabilityQuery) {
  const salon = await publishedSalonRef(db, query.salon);
  const staffId = await staffIdForRef(db, salon.id, query.staff);
  return { ...query, salonId: salon.id, staffId };
}

export type ResolvedAvailabilityQuery = Awaited<ReturnType<typeof resolveAvailabilityQuery>>;

export type Availability = {
  salon: { id: string; slug: string; name: string; timeZone: string };
  from: LocalDate;
  to: LocalDate;
  staffId: string | null;
  durationMinutes: number;
  totalPrice: number;
  days: DayAvailability[];
};

/** Free start times for the query, read from the database now (API and live stream). */
export async function availabilityFor(
  db: Database,
  query: ResolvedAvailabilityQuery,
  now: Date,
): Promise<Availability> {
  const loaded = await loadAvailabilityInput(db, {
    salonId: query.salonId,
    menuIds: query.menuIds,
    staffId: query.staffId,
    from: query.from,
    to: query.to,
    now,
  });
  // A calendar asks from today on: a range that starts in the past or
  // beyond the booking window is a mistake worth telling, not empty days.
  const today = toLocal(now, loaded.salon.timeZone).date;
  if (query.from < today) {
    throw new InvalidDateRangeError(
      `過去の日付は指定できません。開始日 from は ${today} 以降にしてください。`,
    );
  }
  const lastDay = addDays(today, loaded.rules.bookingWindowDays);
  if (query.from > lastDay) {
    throw new InvalidDateRangeError(`予約を受け付けているのは ${lastDay} までです。`);
  }
  return {
    salon: loaded.salon,
    from: query.from,
    to: query.to,
    staffId: query.staffId,
    durationMinutes: loaded.durationMinutes,
    totalPrice: loaded.totalPrice,
    days: findAvailability(loaded.input),
  };
}
