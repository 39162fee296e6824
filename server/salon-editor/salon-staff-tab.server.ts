import { and, asc, count, eq, gte, inArray, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import {
  bookings,
  occupyingStatuses,
  salons,
  scheduleExceptions,
  staff,
  staffSchedules,
} from "../db/schema";
import { menusWithStaff } from "./salon-staff.server";
import { groupPatterns } from "./salon-staff-schedules.server";

/**
 * The スタッフ tab's page data: the salon's stylists in order with their
 * booking counts, the salon's menus, and the chosen stylist's details
 * (profile, the menus they can do, weekly patterns, exceptions from today).
 */

/** Everything the tab shows: the list, and the chosen stylist's details when one is open. */
export async function staffTab(
  db: Database,
  salonId: string,
  selectedId: string | null,
  now: Date,
) {
  const members = await db
    .select({
      id: staff.id,
      slug: staff.slug,
      name: staff.name,
      kana: staff.kana,
      role: staff.role,
      nominationFee: staff.nominationFee,
      active: staff.active,
      sortOrder: staff.sortOrder,
    })
    .from(staff)
    .where(eq(staff.salonId, salonId))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  const bookingCounts = await db
    .select({ staffId: bookings.staffId, n: count() })
    .from(bookings)
    .where(eq(bookings.salonId, salonId))
    .groupBy(bookings.staffId);
  const counted = new Map(bookingCounts.map((row) => [row.staffId, row.n]));
  const salonMenus = await menusWithStaff(db, salonId);
  const selected =
    isUuid(selectedId) && members.some((m) => m.id === selectedId.toLowerCase())
      ? await staffDetails(db, salonId, selectedId.toLowerCase(), salonMenus, now)
      : null;
  return {
    members: members.map((member) => ({ ...member, bookings: counted.get(member.id) ?? 0 })),
    menus: salonMenus.map(({ allowed: _allowed, ...menu }) => menu),
    selected,
  };
}

async function staffDetails(
  db: Database,
  salonId: string,
  staffId: string,
  salonMenus: Awaited<ReturnType<typeof menusWithStaff>>,
  now: Date,
) {
  const [member] = await db
    .select({
      id: staff.id,
      slug: staff.slug,
      name: staff.name,
      kana: staff.kana,
      role: staff.role,
      profile: staff.profile,
      photoUrl: staff.photoUrl,
      yearsOfExperience: staff.yearsOfExperience,
      nominationFee: staff.nominationFee,
      specialties: staff.specialties,
      active: staff.active,
      timeZone: salons.timeZone,
    })
    .from(staff)
    .innerJoin(salons, eq(salons.id, staff.salonId))
    .where(and(eq(staff.id, staffId), eq(staff.salonId, salonId)));
  if (!member) return null;
  const today = toLocal(now, member.timeZone).date;
  const schedules = await db
    .select({
      weekday: staffSchedules.weekday,
      startsAt: localTime(staffSchedules.startsAt),
      endsAt: localTime(staffSchedules.endsAt),
      validFrom: staffSchedules.validFrom,
      validUntil: staffSchedules.validUntil,
    })
    .from(staffSchedules)
    .where(and(eq(staffSchedules.salonId, salonId), eq(staffSchedules.staffId, staffId)))
    .orderBy(
      sql`${staffSchedules.validFrom} asc nulls first`,
      asc(staffSchedules.weekday),
      asc(staffSchedules.startsAt),
    );
  const exceptions = await db
    .select({
      id: scheduleExceptions.id,
      date: scheduleExceptions.date,
      kind: scheduleExceptions.kind,
      startsAt: localTime(scheduleExceptions.startsAt),
      endsAt: localTime(scheduleExceptions.endsAt),
      note: scheduleExceptions.note,
    })
    .from(scheduleExceptions)
    .where(
      and(
        eq(scheduleExceptions.salonId, salonId),
        eq(scheduleExceptions.staffId, staffId),
        gte(scheduleExceptions.date, today),
      ),
    )
    .orderBy(asc(scheduleExceptions.date), asc(scheduleExceptions.startsAt))
    .limit(200);
  const [upcoming] = await db
    .select({ n: count() })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.staffId, staffId),
        gte(bookings.startsAt, now),
        inArray(bookings.status, [...occupyingStatuses]),
      ),
    );
  const { timeZone: _zone, ...fields } = member;
  return {
    ...fields,
    today,
    upcomingBookings: upcoming?.n ?? 0,
    menuIds: salonMenus.filter((m) => !m.allowed || m.allowed.has(staffId)).map((m) => m.id),
    patterns: groupPatterns(schedules),
    exceptions: exceptions.map((e) => ({
      ...e,
      // Drizzle reads a null time through to_char as null.
      startsAt: e.startsAt ?? null,
      endsAt: e.endsAt ?? null,
    })),
  };
}
