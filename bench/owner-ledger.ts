import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  useLoaderData,
} from "react-router";
import { LedgerPage } from "../app/components/owner/ledger-page";
import { localToInstant, toLocal } from "../common/local-time";
import type { CurrentUser } from "../server/accounts/current-user";
import { newBookingNumber } from "../server/bookings/booking-number";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { bookingMenus, bookings, scheduleExceptions } from "../server/db/schema";
import { createLogger } from "../server/logger";
import { type LedgerPage as LedgerPageData, ledgerPage } from "../server/owner/ledger.server";
import type { SalonAccess } from "../server/salon-access/salon-access.server";
import { buildMenu, buildSalon, buildSchedule, buildStaff } from "../tests/support/builders";
import { cleanUp, pgliteEngine, throwawayDatabaseFromEnv } from "./harness";

/**
 * `npm run bench:ledger` (issue 28, point 3; decision 0038): the server's
 * time for the owner's ledger of a busy day — a salon with 15 stylists and
 * 150 bookings that day (a few of them holds, blocks and cancellations) —
 * on PGlite and, when TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL
 * server, on a throwaway database there. One run is the page's loader
 * (ledgerPage: the stylists, the schedules through the availability
 * function, the bookings with their menus: three queries) and React's
 * renderToString of the page in React Router's static router, as the
 * server renders it. Prints median and p95 of BENCH_RUNS (default 200)
 * runs after 20 warm-up runs; the target is under 50 ms. Run with
 * NODE_ENV=production (the npm script does) to time React's production build.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const STYLISTS = 15;
const PER_STYLIST = 10;
const DATE = "2026-12-08";
const TIME_ZONE = "Asia/Tokyo";
/** The clock of every run: that morning, so the holds are live. */
const NOW = localToInstant(DATE, "08:00", TIME_ZONE);

async function seed(handle: DatabaseHandle) {
  const db = handle.db;
  const everyDay = [0, 1, 2, 3, 4, 5, 6];
  const salon = await buildSalon(db, {
    name: "ベンチ 予約台帳サロン",
    openingHours: everyDay.map((weekday) => ({ weekday, opens: "09:00", closes: "21:00" })),
  });
  const menus = [
    await buildMenu(db, salon.id, { name: "カット", price: 5500, durationMinutes: 30 }),
    await buildMenu(db, salon.id, { name: "カラー", price: 7700, durationMinutes: 15 }),
    await buildMenu(db, salon.id, { name: "トリートメント", price: 3300, durationMinutes: 15 }),
  ];
  const rows: (typeof bookings.$inferInsert)[] = [];
  const menuRows: (typeof bookingMenus.$inferInsert)[] = [];
  for (let i = 0; i < STYLISTS; i++) {
    const member = await buildStaff(db, salon.id, { sortOrder: i, name: `スタイリスト${i + 1}` });
    // Two working intervals a day: a break at a different hour for each.
    const breakAt = 12 + (i % 4);
    await buildSchedule(db, member, [
      ...everyDay.map((weekday) => ({ weekday, startsAt: "09:00", endsAt: `${breakAt}:00` })),
      ...everyDay.map((weekday) => ({ weekday, startsAt: `${breakAt}:30`, endsAt: "21:00" })),
    ]);
    if (i === 14) {
      await db.insert(scheduleExceptions).values({
        salonId: salon.id,
        staffId: member.id,
        date: DATE,
        kind: "hours",
        startsAt: "09:00",
        endsAt: "17:00",
      });
    }
    for (let n = 0; n < PER_STYLIST; n++) {
      const hour = 9 + n + (9 + n >= breakAt ? 1 : 0);
      const startsAt = localToInstant(DATE, `${String(hour).padStart(2, "0")}:00`, TIME_ZONE);
      const endsAt = new Date(startsAt.getTime() + 45 * 60_000);
      const id = randomUUID();
      const kind = n === 4 && i % 3 === 0 ? "block" : "booking";
      const status =
        kind === "block"
          ? "confirmed"
          : n === 9 && i % 5 === 0
            ? "held"
            : n === 8 && i % 4 === 0
              ? "cancelled_by_user"
              : n < 3
                ? "completed"
                : "confirmed";
      rows.push({
        id,
        salonId: salon.id,
        staffId: member.id,
        kind,
        bookingNumber: newBookingNumber(),
        startsAt,
        endsAt,
        occupiedUntil: endsAt,
        totalPrice: kind === "block" ? 0 : 13_200,
        status,
        holdExpiresAt: status === "held" ? new Date(NOW.getTime() + 600_000) : null,
        source: n % 3 === 0 ? "phone" : "web",
        staffRequested: n % 2 === 0,
        customerName: kind === "block" ? "" : `予約 ${i + 1}-${n + 1}`,
        customerKana: kind === "block" ? "" : "ヨヤク タロウ",
        salonNote: kind === "block" ? "打ち合わせ" : "",
        cancelledAt: status === "cancelled_by_user" ? new Date() : null,
        cancelledBy: status === "cancelled_by_user" ? "user" : null,
      });
      if (kind === "booking") {
        menus.slice(0, 1 + (n % 3)).forEach((menu, position) => {
          menuRows.push({
            salonId: salon.id,
            bookingId: id,
            position,
            menuId: menu.id,
            name: menu.name,
            price: menu.price,
            durationMinutes: menu.durationMinutes,
          });
        });
      }
    }
  }
  // The days around it are busy too, so the queries have to pick the day out.
  for (const offset of [-1, 1]) {
    for (const row of rows.slice(0, 60)) {
      const shift = offset * 86_400_000;
      const startsAt = new Date((row.startsAt as Date).getTime() + shift);
      const endsAt = new Date((row.endsAt as Date).getTime() + shift);
      rows.push({
        ...row,
        id: randomUUID(),
        bookingNumber: newBookingNumber(),
        startsAt,
        endsAt,
        occupiedUntil: endsAt,
        status: row.status === "held" ? "confirmed" : row.status,
        holdExpiresAt: null,
      });
    }
  }
  await db.insert(bookings).values(rows);
  await db.insert(bookingMenus).values(menuRows);
  return salon;
}

function LedgerRoute() {
  return createElement(LedgerPage, { data: useLoaderData() as LedgerPageData });
}

async function render(url: string, data: LedgerPageData) {
  const handler = createStaticHandler([
    {
      id: "ledger",
      path: "/owner/salons/:id/bookings",
      loader: () => data,
      Component: LedgerRoute,
    },
  ]);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context }));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;

async function measure(engineName: string, url: string) {
  const handle = await openDatabase(url, createLogger("error"));
  try {
    await handle.migrate();
    const salon = await seed(handle);
    const admin = { id: "bench", role: "admin", emailVerified: true } as unknown as CurrentUser;
    const access: SalonAccess = {
      user: admin,
      role: "admin",
      staffId: null,
      salon: {
        id: salon.id,
        slug: salon.slug,
        name: salon.name,
        timeZone: salon.timeZone,
        status: salon.status,
      },
    };
    const now = NOW;
    const pageUrl = `http://localhost:3000/owner/salons/${salon.id}/bookings?date=${DATE}`;
    const loader: number[] = [];
    const renders: number[] = [];
    const totals: number[] = [];
    let bytes = 0;
    let entries = 0;
    for (let run = 0; run < WARM_UP + RUNS; run++) {
      const started = performance.now();
      const data = await ledgerPage(handle.db, access, { date: DATE, view: "day" }, now);
      const loaded = performance.now();
      const html = await render(pageUrl, data);
      const done = performance.now();
      if (run < WARM_UP) continue;
      loader.push(loaded - started);
      renders.push(done - loaded);
      totals.push(done - started);
      bytes = html.length;
      if (data.kind === "ledger" && data.ledger.view === "day") {
        entries = data.ledger.columns.reduce((sum, c) => sum + c.entries.length, 0);
        entries += data.ledger.cancelled.length;
      }
    }
    const stats = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
    };
    return {
      engine: engineName,
      runs: RUNS,
      bookings: entries,
      htmlKiB: Math.round(bytes / 1024),
      loader: stats(loader),
      render: stats(renders),
      total: stats(totals),
      date: toLocal(now, TIME_ZONE).date,
    };
  } finally {
    await handle.close();
  }
}

const postgresUrl = () => throwawayDatabaseFromEnv("bench_ledger");

const ms = (value: number) => value.toFixed(1);
try {
  console.error(`NODE_ENV=${process.env.NODE_ENV ?? ""}, load ${loadavg()[0]?.toFixed(2)}`);
  const results = [await measure("PGlite", (await pgliteEngine()).url)];
  const postgres = await postgresUrl();
  if (postgres) results.push(await measure("PostgreSQL", postgres));
  for (const result of results) console.log(JSON.stringify(result));
  console.log("");
  console.log(`| ${STYLISTS} stylists, ${RUNS} runs (ms) | p50 | p95 |`);
  console.log("| --- | ---: | ---: |");
  for (const r of results) {
    console.log(`| ${r.engine}: loader (3 queries) | ${ms(r.loader.p50)} | ${ms(r.loader.p95)} |`);
    console.log(`| ${r.engine}: renderToString | ${ms(r.render.p50)} | ${ms(r.render.p95)} |`);
    console.log(`| ${r.engine}: total | ${ms(r.total.p50)} | ${ms(r.total.p95)} |`);
  }
  console.error(`load ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await cleanUp();
}
