import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type CouponTarget, couponTargets } from "../../common/coupon-eligibility";
import { addDays, type LocalDate, LocalDay, toLocal, weekdayOf } from "../../common/local-time";
import { workingIntervals } from "../bookings/availability";
import { loadSalonSchedule } from "../bookings/availability-data.server";
import type { Database } from "../db/client";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import { parseReportQuery, type ReportGroup, type ReportQuery } from "./reports.schema";

/**
 * The salon's reports (issue 29, point 6; decision 0050): for a period of
 * local dates, by day, week (Monday first) or month, by stylist and by menu.
 * Every figure about bookings is a grouped aggregate in SQL over the
 * period's bookings, read over bookings_salon_idx (salon_id, starts_at), in
 * four statements run at once (readFigures), each answering one json text.
 * Scheduled minutes come from the availability engine's own schedule reading
 * (loadSalonSchedule + workingIntervals), never a second interpreter.
 *
 * Definitions (the page says them too):
 * - booked: status confirmed or completed (a 仮予約 awaiting approval is
 *   confirmed with approval 'pending'); booked amounts are bookings.total_price;
 * - 売上 (completed amount): the 会計's total where one was saved (what was
 *   paid, retail items included; decision 0079), else the booked price as an
 *   estimate, counted apart as 会計未登録 (unpaid);
 * - by menu: booking_menus' snapshot name and price (a retired or renamed
 *   menu keeps what it was booked as; the newest booking's name shows);
 * - utilisation: booked minutes (ends_at − starts_at of booked bookings) ÷
 *   the working minutes of the active stylists' schedules in the period;
 * - new and returning (新規・再来): a booked booking is new when it is the
 *   person's first booked booking at this salon ever, returning otherwise;
 *   a person is new when that first visit is in the period, returning when
 *   they have a returning visit in it (both, when they first came and came
 *   back in the period); merged records count as the record at the top of
 *   the chain;
 * - the hours that fill first: per local hour of the start, the median time
 *   between making the booking (created_at) and its start, walk-ins left
 *   out (they are not booked ahead); ranked longest first;
 * - by coupon and by its target 新規・再来・全員 (decision 0087): the booked
 *   and completed figures of the bookings made with each coupon, under the
 *   coupon's target as it is now; the bookings without one apart;
 * - per stylist (decision 0082): 指名数 (staff_requested) and 指名率, 新規
 *   and 再来 people (StylistFigures), 店販 and 技術 from the 会計's lines,
 *   客単価 = 売上 ÷ completed visits.
 */

type Reader = Pick<Database, "execute">;

export type ReportTotals = {
  bookedCount: number;
  bookedAmount: number;
  completedCount: number;
  /**
   * 売上: the completed visits' 会計 totals where one was saved (decision
   * 0079), their booked price where not (paid + unpaid below).
   */
  completedAmount: number;
  /** Completed with 会計: what was actually paid (retail items included). */
  paidCount: number;
  paidAmount: number;
  /** Completed without 会計 (会計未登録): the booked price, an estimate. */
  unpaidCount: number;
  unpaidAmount: number;
  bookedMinutes: number;
  scheduledMinutes: number;
  /** bookedMinutes ÷ scheduledMinutes; null when nobody was scheduled. */
  utilisation: number | null;
  cancelledCount: number;
  noShowCount: number;
};

export type ReportBucket = ReportTotals & {
  /** The bucket's first and last local dates inside the period. */
  from: LocalDate;
  to: LocalDate;
};

export type ReportStylist = Omit<ReportTotals, "cancelledCount" | "noShowCount"> & {
  staffId: string;
  staffName: string;
  /** A retired stylist's schedule is not read: scheduled minutes 0. */
  active: boolean;
} & StylistFigures;

/**
 * The figures a salon runs its stylists on (issue 40 §4; decision 0082),
 * over the stylist's booked bookings of the period.
 */
export type StylistFigures = {
  /** 指名数: booked with this stylist chosen on purpose (bookings.staff_requested). */
  nominatedCount: number;
  /** 指名率: nominatedCount ÷ bookedCount; null without bookings. */
  nominationRate: number | null;
  /** 新規: people whose first visit to the salon ever is in the period, with this stylist. */
  newCustomers: number;
  /** 再来: people with a visit to this stylist in the period that is not their first at the salon. */
  returningCustomers: number;
  /**
   * 売上 split: 店販 is the 会計's retail lines (at most its total); 技術 is
   * the rest of the 会計 (a discount falls on the service), plus the booked
   * price of completed visits without 会計 (unpaidAmount, an estimate).
   */
  serviceAmount: number;
  retailAmount: number;
  /** 客単価: completedAmount ÷ completedCount (来店客数), rounded; null without visits. */
  averageSpend: number | null;
};

export type ReportMenu = {
  menuId: string;
  name: string;
  bookedCount: number;
  bookedAmount: number;
  completedCount: number;
  completedAmount: number;
};

/** By coupon (decision 0087): a coupon's bookings and 売上; couponId null: booked without one. */
export type ReportCoupon = Pick<
  ReportTotals,
  "bookedCount" | "bookedAmount" | "completedCount" | "completedAmount"
> & {
  couponId: string | null;
  title: string;
  /** null: no coupon. */
  target: CouponTarget | null;
};

/** The same figures by the coupons' target (新規・再来・全員), and without a coupon ("none"). */
export type ReportCouponTarget = Omit<ReportCoupon, "couponId" | "title" | "target"> & {
  target: CouponTarget | "none";
};

export type ReportCancellations = {
  /** The customer's own cancellation on the web (cancelled_by_user without a reason). */
  customer: number;
  /**
   * The reasons the salon records (decision 0065): the customer's phoned in
   * ahead or that day, or 無断キャンセル (all cancelled_by_user), and the
   * salon's own (cancelled_by_salon; none given counts as サロン都合).
   */
  customer_advance: number;
  customer_same_day: number;
  no_contact: number;
  salon: number;
  /** 来店なし (no_show). */
  noShow: number;
};

export type ReportCustomers = {
  newCustomers: number;
  returningCustomers: number;
  newBookings: number;
  returningBookings: number;
  /** Booked bookings without a customer record (none after the backfill, normally). */
  unknownBookings: number;
};

export type ReportLead = {
  bookings: number;
  /** Of those, booked ahead (not walk-ins): the median lead time is over these. */
  bookedAhead: number;
  /** Median hours between booking and start; null without bookings made ahead. */
  medianLeadHours: number | null;
};

export type ReportHour = ReportLead & {
  /** Local hour of the start, 0–23. */
  hour: number;
  /** 1 = fills first (longest median lead); null without bookings made ahead. */
  rank: number | null;
};

export type ReportWeekday = ReportLead & { weekday: number };

export type SalonReport = {
  salon: { id: string; name: string; timeZone: string };
  query: ReportQuery;
  totals: ReportTotals;
  buckets: ReportBucket[];
  stylists: ReportStylist[];
  menus: ReportMenu[];
  /** By coupon, most booked first, then the bookings without one. */
  coupons: ReportCoupon[];
  /** 新規, 再来, 全員, then クーポンなし: every target, empty ones too. */
  couponTargets: ReportCouponTarget[];
  cancellations: ReportCancellations;
  customers: ReportCustomers;
  /** Every hour with bookings, by hour of day. */
  hours: ReportHour[];
  /** Monday first. */
  weekdays: ReportWeekday[];
};

const count = z.coerce.number().int();
const amount = z.coerce.number();

const sumsSchema = {
  booked_count: count,
  booked_amount: amount,
  completed_count: count,
  completed_amount: amount,
  paid_count: count,
  paid_amount: amount,
  unpaid_count: count,
  unpaid_amount: amount,
  booked_minutes: amount,
};

const leadSchema = {
  bookings: count,
  booked_ahead: count,
  median_lead_hours: z.coerce.number().nullable(),
};

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .transform((items) => items ?? []);

const answerSchema = z.object({
  buckets: list(
    z.object({
      bucket: z.string(),
      ...sumsSchema,
      cancelled_count: count,
      no_show_count: count,
    }),
  ),
  stylists: list(
    z.object({
      staff_id: z.string(),
      ...sumsSchema,
      nominated_count: count,
      retail_amount: amount,
    }),
  ),
  stylistPeople: list(
    z.object({ staff_id: z.string(), new_customers: count, returning_customers: count }),
  ),
  staff: list(
    z.object({ id: z.string(), name: z.string(), active: z.boolean(), sort_order: count }),
  ),
  coupons: list(
    z.object({
      coupon_id: z.string().nullable(),
      title: z.string().nullable(),
      target: z.enum(couponTargets).nullable(),
      booked_count: count,
      booked_amount: amount,
      completed_count: count,
      completed_amount: amount,
    }),
  ),
  menus: list(
    z.object({
      menu_id: z.string(),
      name: z.string(),
      last_booked: amount,
      booked_count: count,
      booked_amount: amount,
      completed_count: count,
      completed_amount: amount,
    }),
  ),
  cancellations: z.object({
    customer: count,
    customer_advance: count,
    salon: count,
    customer_same_day: count,
    no_contact: count,
    no_show: count,
  }),
  customers: z.object({
    new_customers: count,
    returning_customers: count,
    new_bookings: count,
    returning_bookings: count,
    unknown_bookings: count,
  }),
});

/** A chain of merges is at most this long (customers.server.ts stops there too). */
const MAX_CHAIN_DEPTH = 50;

const truncUnit: Record<ReportGroup, string> = { day: "day", week: "week", month: "month" };

const figuresSchema = answerSchema.pick({
  buckets: true,
  stylists: true,
  staff: true,
  coupons: true,
  cancellations: true,
});
const customersSchema = answerSchema.pick({ customers: true, stylistPeople: true });
const menusSchema = answerSchema.pick({ menus: true });
const leadsSchema = z.object({
  leads: list(
    z.object({
      by_hour: z.boolean(),
      hour: count.nullable(),
      weekday: count.nullable(),
      ...leadSchema,
    }),
  ),
});

/** One json text answered by a statement, decoded. */
async function readJson<T extends z.ZodType>(
  db: Reader,
  schema: T,
  query: SQL,
): Promise<z.infer<T>> {
  const result = await db.execute(query);
  const [row] = (result as unknown as { rows: { report: string }[] }).rows;
  return schema.parse(JSON.parse(row?.report ?? "{}"));
}

/**
 * `f` in a read-only transaction without PostgreSQL's JIT: the planner's
 * estimate for the returning customers' lookups (thousands of index probes)
 * passes jit_above_cost, and compiling the statement took 50 ms of a year's
 * 190 (EXPLAIN ANALYZE, bench/README.md) for a plan that runs in a fraction
 * of that. PGlite has no JIT; the setting is accepted and does nothing.
 */
function withoutJit<T>(db: Database, f: (tx: Reader) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local jit = off`);
      return f(tx);
    },
    { accessMode: "read only" },
  );
}

/**
 * The bookings side of the report: four statements, each one pass over the
 * period's bookings (bookings_salon_idx), answering one json text — the
 * figures by bucket, stylist and cancellation (the period in a materialized
 * CTE they share); new and returning customers; by menu; the lead times.
 * Apart, PostgreSQL runs them on four connections at once: a year's
 * critical path is the first (~55 ms) instead of the sum (bench/README.md).
 */
async function readFigures(
  db: Database,
  salonId: string,
  timeZone: string,
  from: Date,
  to: Date,
  group: ReportGroup,
) {
  const fromAt = sql`${from.toISOString()}::timestamptz`;
  const toAt = sql`${to.toISOString()}::timestamptz`;
  const sums = sql`
    count(*) filter (where p.booked)::int as booked_count,
    coalesce(sum(p.total_price) filter (where p.booked), 0)::float8 as booked_amount,
    count(*) filter (where p.status = 'completed')::int as completed_count,
    coalesce(sum(coalesce(p.paid_total, p.total_price)) filter (where p.status = 'completed'), 0)::float8
      as completed_amount,
    count(*) filter (where p.status = 'completed' and p.paid_total is not null)::int as paid_count,
    coalesce(sum(p.paid_total) filter (where p.status = 'completed'), 0)::float8 as paid_amount,
    count(*) filter (where p.status = 'completed' and p.paid_total is null)::int as unpaid_count,
    coalesce(sum(p.total_price) filter (where p.status = 'completed' and p.paid_total is null), 0)::float8
      as unpaid_amount,
    coalesce(sum(p.minutes) filter (where p.booked), 0)::float8 as booked_minutes`;
  const lead = sql`
    count(*)::int as bookings,
    count(*) filter (where p.source <> 'walk_in')::int as booked_ahead,
    (percentile_cont(0.5) within group (order by p.lead_seconds)
      filter (where p.source <> 'walk_in') / 3600)::float8 as median_lead_hours`;
  // Materialized where several figures read it; inlined into a single reader.
  const periodAs = (materialized: boolean) => sql`
    period as ${sql.raw(materialized ? "materialized" : "not materialized")} (
      select b.id, b.staff_id, b.status, b.cancel_category, b.total_price,
             b.staff_requested, b.coupon_id,
             c.total as paid_total,
             -- The 会計's retail lines (店販), at most its total (decision 0082); read
             -- only where a 会計 was saved.
             case when c.id is not null then
               least(c.total, (select coalesce(sum(l.amount), 0) from checkout_lines l
                  where l.salon_id = c.salon_id and l.checkout_id = c.id and l.kind = 'product'))
             end as paid_retail,
             b.starts_at, b.starts_at at time zone ${timeZone}::text as local_start,
             extract(epoch from b.ends_at - b.starts_at) / 60 as minutes,
             b.status in ('confirmed', 'completed') as booked
        from bookings b
        -- What the 会計 recorded (decision 0079), by checkouts_booking_unique.
        left join checkouts c on c.salon_id = b.salon_id and c.booking_id = b.id
       where b.salon_id = ${salonId}::uuid
         and b.starts_at >= ${fromAt} and b.starts_at < ${toAt}
         and b.kind = 'booking' and b.status <> 'held'
    )`;
  const [figures, customers, menus, leads] = await Promise.all([
    readJson(
      db,
      figuresSchema,
      sql`
    with ${periodAs(true)}
    select json_build_object(
      'buckets', (select json_agg(x) from (
          select to_char(g.bucket, 'YYYY-MM-DD') as bucket, g.booked_count, g.booked_amount,
                 g.completed_count, g.completed_amount, g.paid_count, g.paid_amount,
                 g.unpaid_count, g.unpaid_amount, g.booked_minutes, g.cancelled_count,
                 g.no_show_count
            from (select date_trunc(${truncUnit[group]}::text, p.local_start) as bucket,
                         ${sums},
                         count(*) filter (where p.status in ('cancelled_by_user',
                           'cancelled_by_salon'))::int as cancelled_count,
                         count(*) filter (where p.status = 'no_show')::int as no_show_count
                    from period p group by 1) g) x),
      'stylists', (select json_agg(x) from (
          select p.staff_id, ${sums},
                 count(*) filter (where p.booked and p.staff_requested)::int as nominated_count,
                 coalesce(sum(p.paid_retail) filter (where p.status = 'completed'), 0)::float8
                   as retail_amount
            from period p group by p.staff_id) x),
      'staff', (select json_agg(x) from (
          select s.id, s.name, s.active, s.sort_order from staff s
           where s.salon_id = ${salonId}::uuid) x),
      -- By coupon and its target (decision 0087); the coupon's target as it is now.
      'coupons', (select json_agg(x) from (
          select p.coupon_id, co.title, co.target, ${sums}
            from period p left join coupons co on co.id = p.coupon_id
           group by p.coupon_id, co.title, co.target) x),
      'cancellations', (select json_build_object(
          'customer', count(*) filter (where p.status = 'cancelled_by_user'
            and p.cancel_category is null),
          'customer_advance', count(*) filter (where p.status = 'cancelled_by_user'
            and p.cancel_category = 'customer_advance'),
          'customer_same_day', count(*) filter (where p.status = 'cancelled_by_user'
            and p.cancel_category = 'customer_same_day'),
          'no_contact', count(*) filter (where p.status = 'cancelled_by_user'
            and p.cancel_category = 'no_contact'),
          'salon', count(*) filter (where p.status = 'cancelled_by_salon'
            and coalesce(p.cancel_category, 'salon') = 'salon'),
          'no_show', count(*) filter (where p.status = 'no_show'))
        from period p)
    )::text as report`,
    ),
    withoutJit(db, (tx) =>
      readJson(
        tx,
        customersSchema,
        sql`
    with recursive
    -- Each merged-away record and the record at the top of its chain.
    up(id, top, depth) as (
      select c.id, c.merged_into_id, 1
        from salon_customers c
       where c.salon_id = ${salonId}::uuid and c.merged_into_id is not null
      union all
      select up.id, c.merged_into_id, up.depth + 1
        from up join salon_customers c on c.salon_id = ${salonId}::uuid and c.id = up.top
       where c.merged_into_id is not null and up.depth < ${MAX_CHAIN_DEPTH}
    ),
    tops as (select distinct on (id) id, top from up order by id, depth desc),
    -- The period's booked bookings per person (null: no customer record).
    booked_by as (
      select coalesce(t.top, b.customer_id) as person, count(*)::int as bookings
        from bookings b left join tops t on t.id = b.customer_id
       where b.salon_id = ${salonId}::uuid
         and b.starts_at >= ${fromAt} and b.starts_at < ${toAt}
         and b.kind = 'booking' and b.status in ('confirmed', 'completed')
       group by 1
    ),
    people as (select person, bookings from booked_by where person is not null),
    -- Each person's first visit ever at the salon (issue 38, §1.9): their own
    -- records and those merged into them, each looked up by equality on
    -- bookings_customer_idx (an IN over a correlated union was a scan per person).
    firsts as (
      select people.person, people.bookings,
             (select min(o.starts_at)
                from (select people.person as id union all
                      select t.id from tops t where t.top = people.person) ids
                join bookings o on o.salon_id = ${salonId}::uuid and o.customer_id = ids.id
               where o.kind = 'booking' and o.status in ('confirmed', 'completed'))
               >= ${fromAt} as first_in_period
        from people
    ),
    -- Per stylist (decision 0082): the period's booked bookings with their
    -- person, and each person's first booking ever at the salon (by start, then id).
    visits as (
      select b.id, b.staff_id, coalesce(t.top, b.customer_id) as person
        from bookings b left join tops t on t.id = b.customer_id
       where b.salon_id = ${salonId}::uuid
         and b.starts_at >= ${fromAt} and b.starts_at < ${toAt}
         and b.kind = 'booking' and b.status in ('confirmed', 'completed')
         and b.customer_id is not null
    ),
    first_visits as (
      select people.person,
             (select o.id
                from (select people.person as id union all
                      select t.id from tops t where t.top = people.person) ids
                join bookings o on o.salon_id = ${salonId}::uuid and o.customer_id = ids.id
               where o.kind = 'booking' and o.status in ('confirmed', 'completed')
               order by o.starts_at, o.id limit 1) as first_id
        from people
    )
    -- A visit is 新規 when it is the person's first ever, every other one 再来:
    -- a person first seen in the period who came back counts once in each.
    select json_build_object(
      'stylistPeople', (select json_agg(x) from (
          select v.staff_id,
                 count(distinct v.person) filter (where v.id = f.first_id)::int as new_customers,
                 count(distinct v.person) filter (where v.id <> f.first_id)::int
                   as returning_customers
            from visits v join first_visits f on f.person = v.person
           group by v.staff_id) x),
      'customers', json_build_object(
        'new_customers', (select count(*) from firsts where first_in_period),
        'returning_customers', (select count(*) from firsts
          where bookings > case when first_in_period then 1 else 0 end),
        'new_bookings', (select count(*) from firsts where first_in_period),
        'returning_bookings', (select coalesce(sum(bookings
          - case when first_in_period then 1 else 0 end), 0) from firsts),
        'unknown_bookings', (select coalesce(sum(bookings), 0) from booked_by
          where person is null))
    )::text as report`,
      ),
    ),
    readJson(
      db,
      menusSchema,
      sql`
    with ${periodAs(false)}
    select json_build_object(
      -- By menu and the name it was booked under (hashed, no sort); the newest name wins below.
      'menus', (select json_agg(x) from (
          select bm.menu_id, bm.name,
                 extract(epoch from max(p.starts_at))::float8 as last_booked,
                 count(*) filter (where p.booked)::int as booked_count,
                 coalesce(sum(bm.price) filter (where p.booked), 0)::float8 as booked_amount,
                 count(*) filter (where p.status = 'completed')::int as completed_count,
                 coalesce(sum(bm.price) filter (where p.status = 'completed'), 0)::float8
                   as completed_amount
            from period p
            join booking_menus bm on bm.salon_id = ${salonId}::uuid and bm.booking_id = p.id
           group by bm.menu_id, bm.name) x)
    )::text as report`,
    ),
    readJson(
      db,
      leadsSchema,
      // Only the booked bookings and what the lead times need; both groupings in one pass.
      sql`
    with p as (
      select extract(hour from b.starts_at at time zone ${timeZone}::text)::int as hour,
             extract(dow from b.starts_at at time zone ${timeZone}::text)::int as weekday,
             b.source,
             greatest(extract(epoch from b.starts_at - b.created_at), 0) as lead_seconds
        from bookings b
       where b.salon_id = ${salonId}::uuid
         and b.starts_at >= ${fromAt} and b.starts_at < ${toAt}
         and b.kind = 'booking' and b.status in ('confirmed', 'completed')
    )
    select json_build_object('leads', (select json_agg(x) from (
        select grouping(p.hour) = 0 as by_hour, p.hour, p.weekday, ${lead}
          from p group by grouping sets ((p.hour), (p.weekday))) x))::text as report`,
    ),
  ]);
  const hours = leads.leads
    .filter((row) => row.by_hour)
    .map(({ hour, ...row }) => ({ ...row, hour: hour ?? 0 }));
  const weekdays = leads.leads
    .filter((row) => !row.by_hour)
    .map(({ weekday, ...row }) => ({ ...row, weekday: weekday ?? 0 }));
  return { ...figures, ...customers, ...menus, hours, weekdays };
}

/** The first local date of the bucket `date` falls in (weeks begin on Monday). */
export function bucketStart(date: LocalDate, group: ReportGroup): LocalDate {
  if (group === "day") return date;
  if (group === "month") return `${date.slice(0, 8)}01`;
  return addDays(date, -((weekdayOf(date) + 6) % 7));
}

/**
 * Each active stylist's working minutes per local date of the period, read
 * by the engine (its weekly rows, dated exceptions, salon closures and the
 * public-holiday rule), added up per stylist and per bucket.
 */
async function scheduledMinutes(
  db: Database,
  salonId: string,
  query: ReportQuery,
): Promise<{ byStaff: Map<string, number>; byBucket: Map<LocalDate, number> }> {
  const byStaff = new Map<string, number>();
  const byBucket = new Map<LocalDate, number>();
  const schedule = await loadSalonSchedule(db, { salonId, from: query.from, to: query.to });
  if (!schedule) return { byStaff, byBucket };
  for (const member of schedule.staff) byStaff.set(member.id, 0);
  for (let date = query.from; date <= query.to; date = addDays(date, 1)) {
    const bucket = bucketStart(date, query.group);
    let day = 0;
    for (const [staffId, intervals] of workingIntervals(schedule, date)) {
      const minutes = intervals.reduce((sum, i) => sum + (i.end - i.start), 0) / 60_000;
      byStaff.set(staffId, (byStaff.get(staffId) ?? 0) + minutes);
      day += minutes;
    }
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + day);
  }
  return { byStaff, byBucket };
}

const ratio = (booked: number, scheduled: number) => (scheduled > 0 ? booked / scheduled : null);

type Sums = {
  booked_count: number;
  booked_amount: number;
  completed_count: number;
  completed_amount: number;
  paid_count: number;
  paid_amount: number;
  unpaid_count: number;
  unpaid_amount: number;
  booked_minutes: number;
};

const sumsOf = (row: Sums | undefined, scheduled: number) => {
  const bookedMinutes = Math.round(row?.booked_minutes ?? 0);
  return {
    bookedCount: row?.booked_count ?? 0,
    bookedAmount: row?.booked_amount ?? 0,
    completedCount: row?.completed_count ?? 0,
    completedAmount: row?.completed_amount ?? 0,
    paidCount: row?.paid_count ?? 0,
    paidAmount: row?.paid_amount ?? 0,
    unpaidCount: row?.unpaid_count ?? 0,
    unpaidAmount: row?.unpaid_amount ?? 0,
    bookedMinutes,
    scheduledMinutes: Math.round(scheduled),
    utilisation: ratio(bookedMinutes, Math.round(scheduled)),
  };
};

const leadOf = (row: {
  bookings: number;
  booked_ahead: number;
  median_lead_hours: number | null;
}) => ({
  bookings: row.bookings,
  bookedAhead: row.booked_ahead,
  medianLeadHours: row.booked_ahead > 0 ? row.median_lead_hours : null,
});

/** The report of one salon for a checked query (reports.schema.ts). */
export async function salonReport(
  db: Database,
  salon: { id: string; name: string; timeZone: string },
  query: ReportQuery,
): Promise<SalonReport> {
  const from = new Date(new LocalDay(query.from, salon.timeZone).instantMs(0));
  const to = new Date(new LocalDay(addDays(query.to, 1), salon.timeZone).instantMs(0));
  const [figures, scheduled] = await Promise.all([
    readFigures(db, salon.id, salon.timeZone, from, to, query.group),
    scheduledMinutes(db, salon.id, query),
  ]);

  // Every bucket of the period, empty ones too, clipped to the period.
  const rowsByBucket = new Map(figures.buckets.map((row) => [row.bucket, row]));
  const buckets: ReportBucket[] = [];
  for (let date = query.from; date <= query.to; ) {
    const start = bucketStart(date, query.group);
    let end = date;
    while (end < query.to && bucketStart(addDays(end, 1), query.group) === start) {
      end = addDays(end, 1);
    }
    const row = rowsByBucket.get(start);
    buckets.push({
      from: date,
      to: end,
      ...sumsOf(row, scheduled.byBucket.get(start) ?? 0),
      cancelledCount: row?.cancelled_count ?? 0,
      noShowCount: row?.no_show_count ?? 0,
    });
    date = addDays(end, 1);
  }

  // Active stylists in the salon's order, then anyone retired who had bookings.
  const staffRows = [...figures.staff].sort(
    (x, y) => Number(y.active) - Number(x.active) || x.sort_order - y.sort_order,
  );
  const byStaff = new Map(figures.stylists.map((row) => [row.staff_id, row]));
  const peopleByStaff = new Map(figures.stylistPeople.map((row) => [row.staff_id, row]));
  const stylists: ReportStylist[] = staffRows
    .filter((member) => member.active || byStaff.has(member.id))
    .map((member) => {
      const row = byStaff.get(member.id);
      const sums = sumsOf(row, scheduled.byStaff.get(member.id) ?? 0);
      const people = peopleByStaff.get(member.id);
      const nominatedCount = row?.nominated_count ?? 0;
      const retailAmount = row?.retail_amount ?? 0;
      return {
        staffId: member.id,
        staffName: member.name,
        active: member.active,
        ...sums,
        nominatedCount,
        nominationRate: sums.bookedCount > 0 ? nominatedCount / sums.bookedCount : null,
        newCustomers: people?.new_customers ?? 0,
        returningCustomers: people?.returning_customers ?? 0,
        serviceAmount: sums.completedAmount - retailAmount,
        retailAmount,
        averageSpend:
          sums.completedCount > 0 ? Math.round(sums.completedAmount / sums.completedCount) : null,
      };
    });

  const totalScheduled = [...scheduled.byStaff.values()].reduce((sum, m) => sum + m, 0);
  const total = figures.buckets.reduce<Sums>(
    (sum, row) => ({
      booked_count: sum.booked_count + row.booked_count,
      booked_amount: sum.booked_amount + row.booked_amount,
      completed_count: sum.completed_count + row.completed_count,
      completed_amount: sum.completed_amount + row.completed_amount,
      paid_count: sum.paid_count + row.paid_count,
      paid_amount: sum.paid_amount + row.paid_amount,
      unpaid_count: sum.unpaid_count + row.unpaid_count,
      unpaid_amount: sum.unpaid_amount + row.unpaid_amount,
      booked_minutes: sum.booked_minutes + row.booked_minutes,
    }),
    {
      booked_count: 0,
      booked_amount: 0,
      completed_count: 0,
      completed_amount: 0,
      paid_count: 0,
      paid_amount: 0,
      unpaid_count: 0,
      unpaid_amount: 0,
      booked_minutes: 0,
    },
  );
  const totals: ReportTotals = {
    ...sumsOf(total, totalScheduled),
    cancelledCount: figures.buckets.reduce((sum, row) => sum + row.cancelled_count, 0),
    noShowCount: figures.buckets.reduce((sum, row) => sum + row.no_show_count, 0),
  };

  // One row per menu: the sums of its names, under the name of its newest booking.
  const menusById = new Map<string, ReportMenu & { lastBooked: number }>();
  for (const row of figures.menus) {
    const seen = menusById.get(row.menu_id);
    const newer = !seen || row.last_booked > seen.lastBooked;
    menusById.set(row.menu_id, {
      menuId: row.menu_id,
      name: newer ? row.name : (seen?.name ?? row.name),
      lastBooked: newer ? row.last_booked : (seen?.lastBooked ?? row.last_booked),
      bookedCount: (seen?.bookedCount ?? 0) + row.booked_count,
      bookedAmount: (seen?.bookedAmount ?? 0) + row.booked_amount,
      completedCount: (seen?.completedCount ?? 0) + row.completed_count,
      completedAmount: (seen?.completedAmount ?? 0) + row.completed_amount,
    });
  }
  const menus = [...menusById.values()]
    .map(({ lastBooked: _last, ...menu }) => menu)
    .sort((x, y) => y.bookedAmount - x.bookedAmount || x.name.localeCompare(y.name, "ja"));

  const ranked = figures.hours
    .filter((row) => row.booked_ahead > 0 && row.median_lead_hours !== null)
    .sort((x, y) => (y.median_lead_hours ?? 0) - (x.median_lead_hours ?? 0) || x.hour - y.hour);
  const rankOf = new Map(ranked.map((row, index) => [row.hour, index + 1]));
  const hours = figures.hours
    .map((row) => ({ hour: row.hour, ...leadOf(row), rank: rankOf.get(row.hour) ?? null }))
    .sort((x, y) => x.hour - y.hour);
  const weekdays = figures.weekdays
    .map((row) => ({ weekday: row.weekday, ...leadOf(row) }))
    .sort((x, y) => ((x.weekday + 6) % 7) - ((y.weekday + 6) % 7));

  const couponRows: ReportCoupon[] = figures.coupons
    .map((row) => ({
      couponId: row.coupon_id,
      title: row.title ?? "クーポンなし",
      target: row.target,
      bookedCount: row.booked_count,
      bookedAmount: row.booked_amount,
      completedCount: row.completed_count,
      completedAmount: row.completed_amount,
    }))
    .filter((row) => row.bookedCount > 0 || row.completedCount > 0)
    .sort(
      (x, y) =>
        Number(x.couponId === null) - Number(y.couponId === null) ||
        y.bookedCount - x.bookedCount ||
        y.bookedAmount - x.bookedAmount ||
        x.title.localeCompare(y.title, "ja"),
    );
  const couponTargetRows: ReportCouponTarget[] = [...couponTargets, "none" as const].map(
    (target) => {
      const rows = couponRows.filter((row) => (row.target ?? "none") === target);
      return {
        target,
        bookedCount: rows.reduce((sum, row) => sum + row.bookedCount, 0),
        bookedAmount: rows.reduce((sum, row) => sum + row.bookedAmount, 0),
        completedCount: rows.reduce((sum, row) => sum + row.completedCount, 0),
        completedAmount: rows.reduce((sum, row) => sum + row.completedAmount, 0),
      };
    },
  );

  const c = figures.cancellations;
  const p = figures.customers;
  return {
    salon: { id: salon.id, name: salon.name, timeZone: salon.timeZone },
    query,
    totals,
    buckets,
    stylists,
    menus,
    coupons: couponRows,
    couponTargets: couponTargetRows,
    cancellations: {
      customer: c.customer,
      customer_advance: c.customer_advance,
      customer_same_day: c.customer_same_day,
      no_contact: c.no_contact,
      salon: c.salon,
      noShow: c.no_show,
    },
    customers: {
      newCustomers: p.new_customers,
      returningCustomers: p.returning_customers,
      newBookings: p.new_bookings,
      returningBookings: p.returning_bookings,
      unknownBookings: p.unknown_bookings,
    },
    hours,
    weekdays,
  };
}

/**
 * The reports page: the frame, the report of the asked period, and the
 * query's errors with what was typed (a bad query shows the current month
 * below the errors, answered 400 by the route).
 */
export async function reportsPage(db: Database, access: SalonAccess, url: URL, now: Date) {
  const today = toLocal(now, access.salon.timeZone).date;
  const parsed = parseReportQuery(
    {
      from: url.searchParams.get("from"),
      to: url.searchParams.get("to"),
      group: url.searchParams.get("group"),
    },
    today,
  );
  const report = await salonReport(db, access.salon, parsed.query);
  return {
    salon: ownerPageSalon(access),
    report,
    values: parsed.values,
    errors: parsed.ok ? [] : parsed.errors,
  };
}
