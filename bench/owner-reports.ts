import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { addDays } from "../common/local-time";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { scheduleExceptions } from "../server/db/schema";
import { createLogger } from "../server/logger";
import type { ReportQuery } from "../server/owner/reports.schema";
import { salonReport } from "../server/owner/reports.server";
import { buildMenu, buildSalon, buildSchedule, buildStaff } from "../tests/support/builders";
import { cleanUp, pgliteEngine, throwawayDatabaseFromEnv } from "./harness";

/**
 * `npm run bench:reports` (issue 29, point 6; decision 0050): the time of
 * the reports' figures (salonReport: four statements over the period's
 * bookings, and the schedules through the availability function) for a busy
 * salon — 15 stylists, 100 bookings a day for a year (36,600 bookings with
 * one to three menus each, 8,000 customers, some merged), every kind of
 * status and cancellation — on PGlite and, when TEST_DATABASE_URL or
 * DATABASE_URL names a PostgreSQL server, on a throwaway database there.
 * Prints p50 and p95 of BENCH_RUNS (default 50) runs after 5 warm-up runs,
 * for a month by day, a year by month and a year by day. The target: the
 * year under 200 ms on PostgreSQL. The data is written with a few
 * set-based INSERT … SELECT statements (generate_series), not row by row.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARM_UP = 5;
const STYLISTS = 15;
const PER_DAY = 100;
const CUSTOMERS = 8000;
const FIRST = "2025-12-01";
const DAYS = 366;
const TIME_ZONE = "Asia/Tokyo";

const cases: { name: string; query: ReportQuery }[] = [
  { name: "month by day", query: { from: "2026-11-01", to: "2026-11-30", group: "day" } },
  { name: "year by month", query: { from: FIRST, to: addDays(FIRST, 365), group: "month" } },
  { name: "year by day", query: { from: FIRST, to: addDays(FIRST, 365), group: "day" } },
];

async function seed(handle: DatabaseHandle) {
  const db = handle.db;
  const everyDay = [0, 1, 2, 3, 4, 5, 6];
  const salon = await buildSalon(db, {
    name: "ベンチ レポートサロン",
    openingHours: everyDay.map((weekday) => ({ weekday, opens: "09:00", closes: "21:00" })),
  });
  const names = [
    "カット",
    "カラー",
    "パーマ",
    "トリートメント",
    "ヘッドスパ",
    "縮毛矯正",
    "前髪カット",
  ];
  for (const [index, name] of names.entries()) {
    await buildMenu(db, salon.id, {
      name,
      price: 2200 + index * 1100,
      durationMinutes: 30,
      sortOrder: index,
    });
  }
  // A retired menu, still on past bookings.
  await buildMenu(db, salon.id, { name: "旧カラー", price: 6600, published: false, sortOrder: 9 });
  for (let i = 0; i < STYLISTS; i++) {
    const member = await buildStaff(db, salon.id, { sortOrder: i, name: `スタイリスト${i + 1}` });
    const breakAt = 13 + (i % 3);
    // Each stylist has a day off a week and a break.
    const days = everyDay.filter((weekday) => weekday !== i % 7);
    await buildSchedule(db, member, [
      ...days.map((weekday) => ({ weekday, startsAt: "09:00", endsAt: `${breakAt}:00` })),
      ...days.map((weekday) => ({ weekday, startsAt: `${breakAt}:30`, endsAt: "21:00" })),
    ]);
    await db.insert(scheduleExceptions).values(
      Array.from({ length: 12 }, (_, month) => ({
        salonId: salon.id,
        staffId: member.id,
        date: addDays(FIRST, month * 30 + i),
        kind: "closed" as const,
      })),
    );
  }
  await db.execute(sql`
    insert into salon_customers (salon_id, name, kana, phone)
    select ${salon.id}::uuid, 'ベンチ 顧客' || c, 'ベンチ コキャク', lpad(c::text, 11, '0')
      from generate_series(1, ${CUSTOMERS}::int) c`);
  // 100 a day: stylist n % 15, one after the other from 10:00 (70 minutes apart, 60 long).
  // Every 20th is cancelled by the customer, the next by the salon (three categories), the
  // next a no-show; bookings before 2026-11-26 are completed, the rest confirmed.
  await db.execute(sql`
    with cust as (
      select id, (row_number() over (order by id) - 1)::int as idx
        from salon_customers where salon_id = ${salon.id}::uuid),
    members as (
      select id, (row_number() over (order by sort_order) - 1)::int as idx
        from staff where salon_id = ${salon.id}::uuid),
    slots as (
      select d * ${PER_DAY}::int + n as i, n,
             ((${FIRST}::date + d) + time '10:00' + (n / ${STYLISTS}::int) * interval '70 minutes')
               at time zone ${TIME_ZONE}::text as starts
        from generate_series(0, ${DAYS - 1}::int) d, generate_series(0, ${PER_DAY - 1}::int) n)
    insert into bookings (salon_id, staff_id, kind, booking_number, starts_at, ends_at,
      occupied_until, total_price, status, source, customer_name, customer_kana, customer_id,
      created_at, cancelled_at, cancelled_by, cancel_category)
    select ${salon.id}::uuid, m.id, 'booking',
           substr(lpad(upper(to_hex(s.i)), 8, '0'), 1, 4) || '-' ||
             substr(lpad(upper(to_hex(s.i)), 8, '0'), 5, 4),
           s.starts, s.starts + interval '60 minutes', s.starts + interval '60 minutes',
           3300 + (s.i % 7) * 1100,
           case s.i % 20 when 0 then 'cancelled_by_user' when 1 then 'cancelled_by_salon'
             when 2 then 'no_show'
             else case when s.starts < timestamptz '2026-11-26 00:00+09' then 'completed'
               else 'confirmed' end end,
           case when s.i % 10 = 5 then 'walk_in' when s.i % 3 = 0 then 'phone' else 'web' end,
           'ベンチ 様', 'ベンチ サマ', c.id,
           s.starts - ((s.i * 37) % 720) * interval '1 hour',
           case when s.i % 20 in (0, 1) then s.starts - interval '1 day' end,
           case s.i % 20 when 0 then 'user' when 1 then 'salon' end,
           case when s.i % 20 = 1 then (array['salon', 'customer_same_day', 'no_contact'])[1 + s.i % 3] end
      from slots s
      join members m on m.idx = s.n % ${STYLISTS}::int
      join cust c on c.idx = (s.i * 7919) % ${CUSTOMERS}::int`);
  await db.execute(sql`
    with menu_list as (
      select id, name, price, (row_number() over (order by sort_order) - 1)::int as idx
        from menus where salon_id = ${salon.id}::uuid)
    insert into booking_menus (salon_id, booking_id, position, menu_id, name, price, duration_minutes)
    select b.salon_id, b.id, p, m.id, m.name, m.price, 30
      from bookings b
      cross join generate_series(0, 2) p
      join menu_list m on m.idx = ((hashtext(b.id::text) & 2147483647) + p) % 8
     where b.salon_id = ${salon.id}::uuid and p <= (hashtext(b.id::text) & 2147483647) % 3`);
  // 200 records merged into another one (the same person written twice).
  await db.execute(sql`
    with cust as (
      select id, (row_number() over (order by id) - 1)::int as idx
        from salon_customers where salon_id = ${salon.id}::uuid)
    update salon_customers c set merged_into_id = top.id, merged_at = now()
      from cust me, cust top
     where c.id = me.id and me.idx < 200 and top.idx = me.idx + 4000`);
  await db.execute(sql`analyze bookings`);
  await db.execute(sql`analyze booking_menus`);
  await db.execute(sql`analyze salon_customers`);
  const [counts] = (
    (await db.execute(sql`
      select (select count(*) from bookings where salon_id = ${salon.id}::uuid)::int as bookings,
             (select count(*) from booking_menus where salon_id = ${salon.id}::uuid)::int as menus`)) as unknown as {
      rows: { bookings: number; menus: number }[];
    }
  ).rows;
  return { salon, counts };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;

async function measure(engineName: string, url: string) {
  const handle = await openDatabase(url, createLogger("error"));
  try {
    await handle.migrate();
    const seeded = performance.now();
    const { salon, counts } = await seed(handle);
    console.error(
      `${engineName}: seeded ${counts?.bookings} bookings, ${counts?.menus} booking menus in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    const target = { id: salon.id, name: salon.name, timeZone: salon.timeZone };
    const results = [];
    for (const { name, query } of cases) {
      const samples: number[] = [];
      let booked = 0;
      for (let run = 0; run < WARM_UP + RUNS; run++) {
        const started = performance.now();
        const report = await salonReport(handle.db, target, query);
        const took = performance.now() - started;
        booked = report.totals.bookedCount;
        if (run >= WARM_UP) samples.push(took);
      }
      const sorted = samples.sort((a, b) => a - b);
      results.push({
        engine: engineName,
        case: name,
        booked,
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
      });
    }
    return results;
  } finally {
    await handle.close();
  }
}

const postgresUrl = () => throwawayDatabaseFromEnv("bench_reports");

const ms = (value: number) => value.toFixed(1);
try {
  console.error(`load ${loadavg()[0]?.toFixed(2)}`);
  const results = [];
  if (process.env.BENCH_ENGINES !== "postgres") {
    results.push(...(await measure("PGlite", (await pgliteEngine()).url)));
  }
  const postgres = await postgresUrl();
  if (postgres) results.push(...(await measure("PostgreSQL", postgres)));
  for (const result of results) console.log(JSON.stringify(result));
  console.log("");
  console.log(`| ${STYLISTS} stylists, ${PER_DAY} bookings a day, ${RUNS} runs (ms) | p50 | p95 |`);
  console.log("| --- | ---: | ---: |");
  for (const r of results) {
    console.log(`| ${r.engine}: ${r.case} (${r.booked} booked) | ${ms(r.p50)} | ${ms(r.p95)} |`);
  }
  console.error(`load ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await cleanUp();
}
