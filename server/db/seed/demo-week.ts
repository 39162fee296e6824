import { asc, eq, inArray, sql } from "drizzle-orm";
import { addDays, type LocalDate, LocalDay, toLocal, weekdayOf } from "../../../common/local-time";
import { japaneseHolidaysBetween } from "../../bookings/holidays";
import type { Database } from "../client";
import {
  type BookingSource,
  type BookingStatus,
  bookingEvents,
  bookingMenus,
  bookings,
  type SalonCancelCategory,
  salonCustomers,
  salons,
} from "../schema";
import { scheduleExceptions } from "../schema/schedules";
import {
  type BookingMenuRow,
  type BookingRow,
  bookingNumber,
  type ExceptionRow,
  exceptionsOn,
  generateDatedRows,
  type Span,
  workingSpans,
} from "./bookings";
import { familyNames, femaleGivenNames, maleGivenNames } from "./data/names";
import type { SalonBundle } from "./generate";
import { seedId } from "./ids";
import { Random } from "./random";

/**
 * The demo owner's busy week (issue 28, point 1; decision 0043). The demo
 * owner (server/accounts/demo-accounts.ts) runs the first DEMO_OWNER_SALONS
 * published salons by slug; those salons get a week a back office can be
 * tried on: from Monday of this week to six days ahead, the seed's own
 * bookings plus more in the gaps, with every source (web, phone, walk-in),
 * the past days' outcomes (completed, no-show, cancelled by the customer or
 * by the salon with its reason), a customer record (顧客カルテ) for each,
 * with regulars who come back, and each booking's history entries.
 * Deterministic (drawn from keys of salon, date and stylist) and safe to
 * re-run: rows keep their ids, and a booking the app has changed since
 * (a version above 0, or a customer already attached) is left alone.
 */

export const DEMO_OWNER_SALONS = 3;

/** The demo owner's salons: the first published salons by slug. */
export function demoOwnerSalons(db: Pick<Database, "select">) {
  return db
    .select({ id: salons.id, slug: salons.slug, name: salons.name, timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.status, "published"))
    .orderBy(asc(salons.slug))
    .limit(DEMO_OWNER_SALONS);
}

type CustomerRow = typeof salonCustomers.$inferInsert;
type EventRow = typeof bookingEvents.$inferInsert;

export type DemoWeekRows = {
  exceptions: ExceptionRow[];
  customers: CustomerRow[];
  bookings: BookingRow[];
  bookingMenus: BookingMenuRow[];
  events: EventRow[];
};

/** People who book this salon; the first ones come back most often. */
const CUSTOMER_POOL = 40;
/** Chance a free half hour gets one more booking: busy in the past, busier ahead. */
const PAST_EXTRA_CHANCE = 0.35;
const FUTURE_EXTRA_CHANCE = 0.16;
const MINUTE = 60_000;

const cancelCategories: readonly SalonCancelCategory[] = [
  "salon",
  "customer_same_day",
  "no_contact",
];

type Person = { id: string; name: string; kana: string; phone: string; email: string };

function customerPool(salonId: string, index: number): Person[] {
  return Array.from({ length: CUSTOMER_POOL }, (_, k) => {
    const rng = new Random(`demo-customer:${index}:${k}`);
    const female = rng.chance(0.8);
    const family = rng.pick(familyNames);
    const given = rng.pick(female ? femaleGivenNames : maleGivenNames);
    const digits = `090${String(rng.int(1000, 9999))}${String(rng.int(1000, 9999))}`;
    return {
      id: seedId(`demo-customer:${salonId}:${k}`),
      name: `${family.name} ${given.name}`,
      kana: `${family.kana} ${given.kana}`,
      phone: digits,
      email: rng.chance(0.7) ? `demo-guest-${index}-${k}@example.jp` : "",
    };
  });
}

/** Regulars first: a skewed pick, so some customers have many visits. */
const pickPerson = (rng: Random, pool: readonly Person[]) =>
  pool[Math.floor(pool.length * rng.next() ** 2)] ?? (pool[0] as Person);

type Outcome = {
  status: BookingStatus;
  source: BookingSource;
  cancelCategory: SalonCancelCategory | null;
};

function outcomeOf(rng: Random, started: boolean): Outcome {
  const r = rng.next();
  const source: BookingSource = started
    ? rng.weighted(["web", "phone", "walk_in"] as const, (s) =>
        s === "web" ? 5 : s === "phone" ? 3 : 2,
      )
    : rng.chance(0.65)
      ? "web"
      : "phone";
  if (started) {
    if (r < 0.72) return { status: "completed", source, cancelCategory: null };
    if (r < 0.8) return { status: "no_show", source, cancelCategory: null };
    // Nobody cancels a walk-in: it is made at the desk as the customer sits down.
    if (source === "walk_in") return { status: "completed", source, cancelCategory: null };
    if (r < 0.9) return { status: "cancelled_by_user", source, cancelCategory: null };
    const cancelCategory = rng.pick(cancelCategories);
    // Only サロン都合 is the salon's cancellation; the others are the customer's (decision 0065).
    return {
      status: cancelCategory === "salon" ? "cancelled_by_salon" : "cancelled_by_user",
      source,
      cancelCategory,
    };
  }
  if (r < 0.9) return { status: "confirmed", source, cancelCategory: null };
  if (r < 0.97) return { status: "cancelled_by_user", source, cancelCategory: null };
  return { status: "cancelled_by_salon", source, cancelCategory: "salon" };
}

/**
 * One demo salon's week: `today` is the salon's local date at `now`. The
 * seed's own bookings of each date (generateDatedRows, by the same keys)
 * are taken over with their ids, so a re-run or the base seed's rows meet
 * the same rows.
 */
export function generateDemoWeek(bundle: SalonBundle, index: number, now: Date): DemoWeekRows {
  const salonId = bundle.salon.id ?? "";
  const timeZone = bundle.salon.timeZone ?? "Asia/Tokyo";
  const today = toLocal(now, timeZone).date;
  const weekStart = addDays(today, -((weekdayOf(today) + 6) % 7));
  const lastDay = addDays(today, 6);
  const holidays = japaneseHolidaysBetween(weekStart, lastDay);
  const pool = customerPool(salonId, index);
  const buffer = bundle.bookingSettings?.bufferAfterMinutes ?? 0;

  // The base seed's rows of every date of the window, whether or not they had started.
  const epoch = new Date(0);
  const base = [
    generateDatedRows(bundle, index, weekStart, epoch),
    generateDatedRows(bundle, index, addDays(weekStart, 7), epoch),
  ];
  const baseBookings = base
    .flatMap((rows) => rows.bookings)
    .filter((row) => {
      const date = toLocal(row.startsAt as Date, timeZone).date;
      return date >= weekStart && date <= lastDay;
    });
  const baseMenus = base.flatMap((rows) => rows.bookingMenus);
  const exceptions: ExceptionRow[] = [];
  for (let date = weekStart; date <= lastDay; date = addDays(date, 1)) {
    exceptions.push(...exceptionsOn(bundle, index, date));
  }

  const restricted = new Map<string, Set<string>>();
  for (const row of bundle.menuStaff) {
    const set = restricted.get(row.menuId) ?? new Set<string>();
    set.add(row.staffId);
    restricted.set(row.menuId, set);
  }

  const rows: BookingRow[] = [];
  const menuRows: BookingMenuRow[] = [...baseMenus];
  const events: EventRow[] = [];
  const used = new Set<string>();

  const finish = (row: BookingRow, rng: Random) => {
    const startsAt = row.startsAt as Date;
    const endsAt = row.endsAt as Date;
    const started = startsAt <= now;
    const person = pickPerson(rng, pool);
    used.add(person.id);
    const drawn = outcomeOf(rng, started);
    // Under way now: the customer is in the chair (arrived), or not here yet (an arrival due).
    const underWay = started && endsAt > now;
    const outcome: Outcome =
      underWay && (drawn.status === "completed" || drawn.status === "no_show")
        ? { ...drawn, status: "confirmed" }
        : drawn;
    const inChair = underWay && drawn.status === "completed";
    const id = row.id ?? "";
    // When it was booked: a walk-in as the customer came in, others some days before.
    let createdAt =
      outcome.source === "walk_in"
        ? new Date(startsAt.getTime() - 5 * MINUTE)
        : new Date(startsAt.getTime() - rng.int(60, 9 * 24 * 60) * MINUTE);
    if (!started && outcome.source === "web" && rng.chance(0.1)) {
      // A few just made online: the back office's 要確認 has something to show.
      createdAt = new Date(now.getTime() - rng.int(2, 55) * MINUTE);
    }
    if (createdAt >= now) createdAt = new Date(now.getTime() - rng.int(60, 600) * MINUTE);
    const cancelled = outcome.status.startsWith("cancelled");
    let cancelledAt: Date | null = null;
    if (cancelled) {
      cancelledAt = started
        ? new Date(startsAt.getTime() - rng.int(30, 2 * 24 * 60) * MINUTE)
        : new Date(now.getTime() - rng.int(10, 20 * 60) * MINUTE);
      if (cancelledAt <= createdAt) createdAt = new Date(cancelledAt.getTime() - 60 * MINUTE);
    }
    const byCustomer = outcome.source === "web";
    events.push({
      id: seedId(`demo-event:${id}:created`),
      salonId,
      bookingId: id,
      kind: "created",
      actorKind: byCustomer ? "customer" : "salon",
      details: { source: outcome.source },
      createdAt,
    });
    if (cancelledAt) {
      events.push({
        id: seedId(`demo-event:${id}:cancelled`),
        salonId,
        bookingId: id,
        kind: "cancelled",
        actorKind: outcome.status === "cancelled_by_user" ? "customer" : "salon",
        details: outcome.cancelCategory ? { category: outcome.cancelCategory } : {},
        createdAt: cancelledAt,
      });
    }
    if (outcome.status === "completed" && endsAt <= now) {
      events.push({
        id: seedId(`demo-event:${id}:completed`),
        salonId,
        bookingId: id,
        kind: "completed",
        actorKind: "salon",
        createdAt: endsAt,
      });
    }
    if (outcome.status === "no_show") {
      events.push({
        id: seedId(`demo-event:${id}:no_show`),
        salonId,
        bookingId: id,
        kind: "no_show",
        actorKind: "salon",
        createdAt: new Date(Math.min(now.getTime(), startsAt.getTime() + 30 * MINUTE)),
      });
    }
    rows.push({
      ...row,
      status: outcome.status,
      source: outcome.source,
      customerId: person.id,
      customerName: person.name,
      customerKana: person.kana,
      customerPhone: person.phone,
      customerEmail: person.email,
      // A walk-in chose whoever was free.
      staffRequested: outcome.source === "walk_in" ? false : row.staffRequested,
      arrivedAt:
        outcome.status === "completed" || inChair
          ? new Date(startsAt.getTime() - rng.int(0, 10) * MINUTE)
          : null,
      cancelledAt,
      // Who entered it: the salon for every row with a reason it chose.
      cancelledBy: cancelled
        ? outcome.status === "cancelled_by_user" && !outcome.cancelCategory
          ? "user"
          : "salon"
        : null,
      cancelCategory: outcome.cancelCategory,
      cancelReason:
        outcome.status === "cancelled_by_salon" && outcome.cancelCategory === "salon"
          ? "スタッフの体調不良のため"
          : "",
      createdAt,
      updatedAt: cancelledAt ?? createdAt,
    });
  };

  for (const row of baseBookings) finish(row, new Random(`demo-outcome:${row.id}`));

  // More bookings in the gaps the seed left, on the same half-hour grid.
  for (let date = weekStart; date <= lastDay; date = addDays(date, 1)) {
    const working = workingSpans(bundle, exceptions, date, holidays);
    if (!working) continue;
    const localDay = new LocalDay(date, timeZone);
    bundle.staff.forEach((member, i) => {
      const staffId = member.id ?? "";
      const spans = working.get(staffId) ?? [];
      const capable = bundle.menus.filter((menu) => {
        const allowed = restricted.get(menu.id ?? "");
        return !allowed || allowed.has(staffId);
      });
      if (capable.length === 0) return;
      const taken: Span[] = baseBookings
        .filter((row) => row.staffId === staffId)
        .map(
          (row): Span => [
            localDay.minutesAt((row.startsAt as Date).getTime()),
            localDay.minutesAt((row.occupiedUntil as Date).getTime()),
          ],
        );
      const rng = new Random(`demo-bookings:${index}:${date}:${i}`);
      for (const [from, to] of spans) {
        for (let cursor = from; cursor < to; ) {
          const first = rng.pick(capable);
          const duration = first.durationMinutes;
          const end = cursor + duration;
          const startsAt = new Date(localDay.instantMs(cursor));
          const chance = startsAt <= now ? PAST_EXTRA_CHANCE : FUTURE_EXTRA_CHANCE;
          const free =
            end <= to && taken.every(([start, stop]) => end + buffer <= start || cursor >= stop);
          if (!free || !rng.chance(chance)) {
            cursor += 30;
            continue;
          }
          const id = seedId(`demo-booking:${index}:${date}:${i}:${cursor}`);
          const endsAt = new Date(startsAt.getTime() + duration * MINUTE);
          finish(
            {
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
              totalPrice: first.price,
            },
            rng,
          );
          menuRows.push({
            salonId,
            bookingId: id,
            position: 0,
            menuId: first.id ?? "",
            name: first.name,
            price: first.price,
            durationMinutes: duration,
          });
          taken.push([cursor, end + buffer]);
          cursor += Math.ceil((duration + buffer) / 30) * 30;
        }
      }
    });
  }

  const customers: CustomerRow[] = pool
    .filter((person) => used.has(person.id))
    .map((person) => ({
      id: person.id,
      salonId,
      name: person.name,
      kana: person.kana,
      phone: person.phone,
      email: person.email,
      notes: "",
      createdAt: new Date(now.getTime() - 30 * 24 * 60 * MINUTE),
      updatedAt: new Date(now.getTime() - 30 * 24 * 60 * MINUTE),
    }));
  return { exceptions, customers, bookings: rows, bookingMenus: menuRows, events };
}

const CHUNK = 300;

/**
 * Writes one demo salon's week. New rows are inserted; the seed's rows
 * already there (made before, as plain confirmed phone bookings) take the
 * demo values, unless the app has touched them since. History entries and
 * menus are written only for the bookings that are there.
 */
export async function writeDemoWeek(db: Database, rows: DemoWeekRows): Promise<number> {
  return db.transaction(async (tx) => {
    if (rows.exceptions.length > 0) {
      await tx.insert(scheduleExceptions).values(rows.exceptions).onConflictDoNothing();
    }
    if (rows.customers.length > 0) {
      await tx.insert(salonCustomers).values(rows.customers).onConflictDoNothing();
    }
    const present = new Set<string>();
    for (let start = 0; start < rows.bookings.length; start += CHUNK) {
      const slice = rows.bookings.slice(start, start + CHUNK);
      // A row that overlaps a booking made in the app meanwhile is skipped (the constraint holds).
      const inserted = await tx
        .insert(bookings)
        .values(slice)
        .onConflictDoNothing()
        .returning({ id: bookings.id });
      for (const row of inserted) present.add(row.id);
      const rest = slice.filter((row) => !present.has(row.id ?? ""));
      if (rest.length === 0) continue;
      const values = sql.join(
        rest.map(
          (row) =>
            sql`(${row.id}::uuid, ${row.status}, ${row.source}, ${row.customerId}::uuid, ${row.customerName}, ${row.customerKana}, ${row.customerPhone}, ${row.customerEmail}, ${row.staffRequested}::boolean, ${row.arrivedAt ?? null}::timestamptz, ${row.cancelledAt ?? null}::timestamptz, ${row.cancelledBy ?? null}::text, ${row.cancelCategory ?? null}::text, ${row.cancelReason ?? ""}, ${row.createdAt}::timestamptz)`,
        ),
        sql`, `,
      );
      const updated = (await tx.execute(sql`
        update bookings b set status = v.status, source = v.source, customer_id = v.customer_id,
          customer_name = v.name, customer_kana = v.kana, customer_phone = v.phone,
          customer_email = v.email, staff_requested = v.requested, arrived_at = v.arrived_at,
          cancelled_at = v.cancelled_at, cancelled_by = v.cancelled_by,
          cancel_category = v.category, cancel_reason = v.reason, created_at = v.created_at
        from (values ${values}) as v(id, status, source, customer_id, name, kana, phone, email,
          requested, arrived_at, cancelled_at, cancelled_by, category, reason, created_at)
        where b.id = v.id and b.customer_id is null and b.version = 0 and b.kind = 'booking'
        returning b.id`)) as unknown as { rows: { id: string }[] };
      for (const row of updated.rows) present.add(row.id);
    }
    // Menus already there (a booking written before) are kept as they are.
    const menus = rows.bookingMenus.filter((row) => present.has(row.bookingId));
    for (let start = 0; start < menus.length; start += CHUNK) {
      await tx
        .insert(bookingMenus)
        .values(menus.slice(start, start + CHUNK))
        .onConflictDoNothing();
    }
    const events = rows.events.filter((row) => present.has(row.bookingId));
    for (let start = 0; start < events.length; start += CHUNK) {
      await tx
        .insert(bookingEvents)
        .values(events.slice(start, start + CHUNK))
        .onConflictDoNothing();
    }
    return present.size;
  });
}

/** Today's bookings (not cancelled, no blocks) per salon, for the start-up log. */
export async function bookingsToday(
  db: Database,
  list: readonly { id: string; timeZone: string }[],
  now: Date,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const salon of list) {
    const date: LocalDate = toLocal(now, salon.timeZone).date;
    const from = new Date(new LocalDay(date, salon.timeZone).instantMs(0));
    const to = new Date(new LocalDay(addDays(date, 1), salon.timeZone).instantMs(0));
    const count = await db.$count(
      bookings,
      sql`${bookings.salonId} = ${salon.id} and ${bookings.kind} = 'booking'
        and ${inArray(bookings.status, ["confirmed", "completed", "no_show"])}
        and ${bookings.startsAt} >= ${from} and ${bookings.startsAt} < ${to}`,
    );
    counts.set(salon.id, count);
  }
  return counts;
}
