import { and, count, desc, eq, gte, inArray, lt, ne } from "drizzle-orm";
import { addDays, localToInstant, toLocal, weekdayOf } from "../../common/local-time";
import type { Database } from "../db/client";
import { bookings, salons, users } from "../db/schema";

const CANCELLED = ["cancelled_by_user", "cancelled_by_salon"] as const;
/**
 * A hold is a visitor still in the booking form, not a booking (decision
 * 0009); blocked time (休憩, 研修…) is the salon's, not a booking (decision 0042).
 */
const notHeld = and(ne(bookings.status, "held"), eq(bookings.kind, "booking"));

/**
 * The local day and the Monday-to-Sunday week containing `now` in
 * `timeZone`, as instants: the same on a server in UTC and one in Tokyo.
 */
export function dayAndWeek(now: Date, timeZone: string) {
  const today = toLocal(now, timeZone).date;
  const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
  return {
    today,
    dayStart: localToInstant(today, "00:00", timeZone),
    dayEnd: localToInstant(addDays(today, 1), "00:00", timeZone),
    weekStart: localToInstant(monday, "00:00", timeZone),
    weekEnd: localToInstant(addDays(monday, 7), "00:00", timeZone),
  };
}

/** /admin: the counts, the latest bookings and the latest sign-ups. */
export async function adminDashboard(db: Database, now: Date, timeZone: string) {
  const { dayStart, dayEnd, weekStart, weekEnd } = dayAndWeek(now, timeZone);
  const countOf = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const [publishedSalons, owners, members, bookingsToday, bookingsThisWeek, cancellationsThisWeek] =
    await Promise.all([
      countOf(db.select({ n: count() }).from(salons).where(eq(salons.status, "published"))),
      countOf(db.select({ n: count() }).from(users).where(eq(users.role, "owner"))),
      countOf(db.select({ n: count() }).from(users).where(eq(users.role, "user"))),
      countOf(
        db
          .select({ n: count() })
          .from(bookings)
          .where(and(notHeld, gte(bookings.startsAt, dayStart), lt(bookings.startsAt, dayEnd))),
      ),
      countOf(
        db
          .select({ n: count() })
          .from(bookings)
          .where(and(notHeld, gte(bookings.startsAt, weekStart), lt(bookings.startsAt, weekEnd))),
      ),
      // Cancellations made this week, whenever the visit was to be.
      countOf(
        db
          .select({ n: count() })
          .from(bookings)
          .where(
            and(
              inArray(bookings.status, [...CANCELLED]),
              eq(bookings.kind, "booking"),
              gte(bookings.cancelledAt, weekStart),
              lt(bookings.cancelledAt, weekEnd),
            ),
          ),
      ),
    ]);
  const [latestBookings, latestSignUps] = await Promise.all([
    db
      .select({
        id: bookings.id,
        startsAt: bookings.startsAt,
        status: bookings.status,
        totalPrice: bookings.totalPrice,
        createdAt: bookings.createdAt,
        salonName: salons.name,
        salonSlug: salons.slug,
        bookingNumber: bookings.bookingNumber,
        userEmail: users.email,
        customerName: bookings.customerName,
      })
      .from(bookings)
      .innerJoin(salons, eq(salons.id, bookings.salonId))
      // Phone and walk-in bookings have no account.
      .leftJoin(users, eq(users.id, bookings.userId))
      .where(notHeld)
      .orderBy(desc(bookings.createdAt), desc(bookings.id))
      .limit(10),
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        role: users.role,
        emailVerified: users.emailVerified,
        createdAt: users.createdAt,
      })
      .from(users)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(10),
  ]);
  return {
    counts: {
      publishedSalons,
      owners,
      members,
      bookingsToday,
      bookingsThisWeek,
      cancellationsThisWeek,
    },
    latestBookings,
    latestSignUps,
  };
}
