import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { addDays } from "../common/local-time";
import type { CurrentUser } from "../server/accounts/current-user";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { coupons } from "../server/db/schema";
import { createLogger } from "../server/logger";
import type { BookingsExportRange } from "../server/owner/bookings-export.schema";
import { bookingsCsv } from "../server/owner/bookings-export.server";
import { type SalonAccess, salonAccessFor } from "../server/salon-access/salon-access.server";
import { buildMenu, buildSalon, buildStaff, buildUser } from "../tests/support/builders";
import { cleanUp, pgliteEngine, throwawayDatabaseFromEnv } from "./harness";

/**
 * `npm run bench:export` (issue 29, point 5; decision 0049): the bookings
 * CSV of a salon with 100 bookings a day for a year (366 days, 36,600
 * bookings with one to three menus each, written by two INSERT … SELECT
 * statements), exported for a week, a month and the whole year, on PGlite
 * and, when TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server, on
 * a throwaway `bench_export_<uuid>` database there (dropped at the end).
 *
 * Each export is read to the end as a download would be, without keeping
 * the chunks: rows, bytes and time, and memory sampled at every chunk —
 * the peak growth of the main heap (heapUsed) and of the process (RSS,
 * which includes PGlite's worker thread) over the value before the export.
 * Run with --expose-gc (the npm script does) and a second pass per range
 * collects garbage before each sample, so its peak is what the export
 * keeps alive rather than garbage the collector has not reached yet. The
 * point is the ratio year ÷ week: memory must not grow with the range.
 */
const DAYS = 366;
const PER_DAY = 100;
const STYLISTS = 10;
const FIRST_DAY = "2025-01-01";
const TIME_ZONE = "Asia/Tokyo";
const gc = (globalThis as { gc?: () => void }).gc;

const ranges: { name: string; range: BookingsExportRange }[] = [
  { name: "week", range: { from: "2025-06-02", to: "2025-06-08" } },
  { name: "month", range: { from: "2025-06-01", to: "2025-06-30" } },
  { name: "year", range: { from: FIRST_DAY, to: addDays(FIRST_DAY, DAYS - 1) } },
];

/** Crockford base32 without I, L, O, U: the booking numbers' alphabet. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** BNCH-XXXX from the row number n, in SQL: unique per salon and of the checked format. */
const numberOf = (n: string) =>
  sql.raw(
    `'BNCH-' || ${[15, 10, 5, 0]
      .map((shift) => `substr('${ALPHABET}', ((${n} >> ${shift}) & 31) + 1, 1)`)
      .join(" || ")}`,
  );

async function seed(handle: DatabaseHandle) {
  const db = handle.db;
  const salon = await buildSalon(db, { name: "ベンチ 書き出しサロン", timeZone: TIME_ZONE });
  for (let i = 0; i < STYLISTS; i++) {
    await buildStaff(db, salon.id, { sortOrder: i, name: `スタイリスト${i + 1}` });
  }
  const cut = await buildMenu(db, salon.id, { name: "カット", price: 5500, durationMinutes: 15 });
  const color = await buildMenu(db, salon.id, { name: "カラー", price: 7700, durationMinutes: 15 });
  const care = await buildMenu(db, salon.id, {
    name: "トリートメント",
    price: 3300,
    durationMinutes: 15,
  });
  const [coupon] = await db
    .insert(coupons)
    .values({
      salonId: salon.id,
      title: "平日 1,000円オフ",
      discountKind: "amount",
      discountValue: 1000,
      validFrom: FIRST_DAY,
    })
    .returning();
  const total = DAYS * PER_DAY;
  const firstMidnight = `${FIRST_DAY} 00:00:00+09`;
  // Booking n: day n / 100, stylist n % 10, hour 9 + (n % 100) / 10, 45 minutes: nobody
  // overlaps. Menus: the first 1 + n % 3 of カット, カラー, トリートメント; 指名料 550 on even n;
  // the coupon on every 7th; a cancellation, a salon cancellation or a no-show in every 20.
  await db.execute(sql`
    insert into bookings (
      salon_id, staff_id, booking_number, starts_at, ends_at, occupied_until,
      nomination_fee, total_price, status, source, staff_requested, coupon_id,
      customer_name, customer_kana, cancelled_at, cancelled_by, cancel_category
    )
    select
      ${salon.id}, s.ids[(g.n % ${STYLISTS}) + 1], ${numberOf("g.n")},
      t.starts_at, t.starts_at + interval '45 minutes', t.starts_at + interval '45 minutes',
      case when g.n % 2 = 0 then 550 else 0 end,
      (array[5500, 13200, 16500])[(g.n % 3) + 1]
        + case when g.n % 2 = 0 then 550 else 0 end
        - case when g.n % 7 = 0 then 1000 else 0 end,
      case g.n % 20 when 0 then 'cancelled_by_user' when 1 then 'cancelled_by_salon'
        when 2 then 'no_show' else 'completed' end,
      (array['web', 'web', 'phone', 'walk_in'])[(g.n % 4) + 1],
      g.n % 2 = 0,
      case when g.n % 7 = 0 then ${coupon?.id ?? null}::uuid end,
      case when g.n % 50 = 0 then '山田, "太郎" ' || g.n else '予約 ' || g.n end,
      'ヨヤク タロウ',
      case when g.n % 20 in (0, 1) then t.starts_at - interval '1 day' end,
      case g.n % 20 when 0 then 'user' when 1 then 'salon' end,
      case when g.n % 20 = 1 then 'customer_same_day' end
    from generate_series(0, ${total - 1}) as g(n)
    cross join (
      select array_agg(id order by sort_order) as ids from staff where salon_id = ${salon.id}
    ) as s
    cross join lateral (
      select ${firstMidnight}::timestamptz + (g.n / ${PER_DAY}) * interval '1 day'
        + (9 + (g.n % ${PER_DAY}) / 10) * interval '1 hour' as starts_at
    ) as t
  `);
  await db.execute(sql`
    insert into booking_menus (salon_id, booking_id, position, menu_id, name, price, duration_minutes)
    select b.salon_id, b.id, m.position, m.menu_id, m.name, m.price, 15
    from generate_series(0, ${total - 1}) as g(n)
    join bookings b on b.salon_id = ${salon.id} and b.booking_number = ${numberOf("g.n")}
    cross join (values
      (0, ${cut.id}::uuid, ${cut.name}, ${cut.price}::integer),
      (1, ${color.id}::uuid, ${color.name}, ${color.price}::integer),
      (2, ${care.id}::uuid, ${care.name}, ${care.price}::integer)
    ) as m(position, menu_id, name, price)
    where m.position <= g.n % 3
  `);
  await db.execute(sql`analyze bookings`);
  await db.execute(sql`analyze booking_menus`);
  return salon;
}

type Pass = {
  rows: number;
  bytes: number;
  ms: number;
  /** Peak growth over the value before the export, in bytes. */
  heapPeak: number;
  rssPeak: number;
  /** The peaks themselves: the process's whole heap and RSS. */
  heapMax: number;
  rssMax: number;
};

/** Reads the whole export as a download would, keeping nothing but counts and memory peaks. */
async function exportOnce(
  handle: DatabaseHandle,
  access: SalonAccess,
  range: BookingsExportRange,
  /** Collect garbage before each sample, so the peak is what the export keeps alive. */
  live: boolean,
): Promise<Pass> {
  gc?.();
  const before = process.memoryUsage();
  let heapPeak = before.heapUsed;
  let rssPeak = before.rss;
  const started = performance.now();
  const stream = await bookingsCsv(handle.db, access, range, new Date());
  const reader = stream.getReader();
  let bytes = 0;
  let lineEnds = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = 1; i < value.length; i++)
      if (value[i] === 0x0a && value[i - 1] === 0x0d) lineEnds++;
    if (live) gc?.();
    const now = process.memoryUsage();
    heapPeak = Math.max(heapPeak, now.heapUsed);
    rssPeak = Math.max(rssPeak, now.rss);
  }
  const ms = performance.now() - started;
  return {
    rows: lineEnds - 1,
    bytes,
    ms,
    heapPeak: heapPeak - before.heapUsed,
    rssPeak: rssPeak - before.rss,
    heapMax: heapPeak,
    rssMax: rssPeak,
  };
}

async function measure(engineName: string, url: string) {
  const handle = await openDatabase(url, createLogger("error"));
  try {
    await handle.migrate();
    const seeding = performance.now();
    const salon = await seed(handle);
    const seedMs = performance.now() - seeding;
    // The audit entry of each export names a real account: an administrator.
    const user = await buildUser(handle.db, { role: "admin" });
    const admin = { id: user.id, role: "admin", emailVerified: true } as unknown as CurrentUser;
    const access = await salonAccessFor(handle.db, admin, salon.id);
    if (!access) throw new Error("no access to the bench salon");
    // Warm-up: the first export pays for query plans, code and PGlite's buffers.
    await exportOnce(handle, access, { from: "2025-03-03", to: "2025-03-09" }, false);
    const results = [];
    for (const { name, range } of ranges) {
      const plain = await exportOnce(handle, access, range, false);
      const collected = gc ? await exportOnce(handle, access, range, true) : null;
      results.push({ name, range, plain, collected });
    }
    return { engine: engineName, seedMs, results };
  } finally {
    await handle.close();
  }
}

const postgresUrl = () => throwawayDatabaseFromEnv("bench_export");

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(0);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "—");
try {
  console.error(`gc exposed: ${Boolean(gc)}, load ${loadavg()[0]?.toFixed(2)}`);
  const all = [await measure("PGlite", (await pgliteEngine()).url)];
  const postgres = await postgresUrl();
  if (postgres) all.push(await measure("PostgreSQL", postgres));
  for (const result of all) console.log(JSON.stringify(result));
  console.log("");
  console.log(
    "| engine | range | rows | bytes | ms | heap peak growth MiB | RSS peak growth MiB | live heap: peak MiB (growth KiB) | RSS peak MiB |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const { engine, results } of all) {
    for (const { name, range, plain, collected } of results) {
      const live = collected ? `${mib(collected.heapMax)} (${kib(collected.heapPeak)})` : "—";
      console.log(
        `| ${engine} | ${name} (${range.from} – ${range.to}) | ${plain.rows.toLocaleString("en")} | ${plain.bytes.toLocaleString("en")} | ${plain.ms.toFixed(0)} | ${mib(plain.heapPeak)} | ${mib(plain.rssPeak)} | ${live} | ${mib(plain.rssMax)} |`,
      );
    }
    const week = results.find((r) => r.name === "week");
    const year = results.find((r) => r.name === "year");
    if (week && year) {
      const live =
        year.collected && week.collected
          ? ratio(year.collected.heapMax, week.collected.heapMax)
          : "—";
      console.log(
        `| ${engine} | year ÷ week | ${ratio(year.plain.rows, week.plain.rows)} | ${ratio(year.plain.bytes, week.plain.bytes)} | ${ratio(year.plain.ms, week.plain.ms)} | ${ratio(year.plain.heapPeak, week.plain.heapPeak)} | — | ${live} | ${ratio(year.plain.rssMax, week.plain.rssMax)} |`,
      );
    }
  }
  console.error(`load ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await cleanUp();
}
