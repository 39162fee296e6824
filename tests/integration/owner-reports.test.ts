import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportsPage } from "../../app/components/owner/reports";
import * as reportsRoute from "../../app/routes/owner.salons.$id.reports";
import * as signinRoute from "../../app/routes/signin";
import type { BookingStatus, SalonCancelCategory } from "../../server/db/schema";
import {
  bookingMenus,
  bookings,
  checkoutPayments,
  checkouts,
  salonCustomers,
  salonOwners,
  scheduleExceptions,
  users,
} from "../../server/db/schema";
import { parseReportQuery } from "../../server/owner/reports.schema";
import { salonReport } from "../../server/owner/reports.server";
import { browser, setRole } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildMenu, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The reports (issue 29, point 6; decision 0050): the figures on a known
 * data set in the salon's zone (Tokyo), the query's checks, the page's guard
 * and the JSON answer.
 *
 * The week of 2026-11-23 (Mon, 勤労感謝の日) to 11-29 (Sun). Two stylists
 * work 10:00–20:00 every day; the salon closes on public holidays (11-23)
 * and on 11-25 (臨時休業); stylist 2 is off on 11-27 and works 10:00–14:00
 * on 11-28. Scheduled minutes: stylist 1 5 × 600 = 3000, stylist 2
 * 600 + 600 + 240 + 600 = 2040.
 */
const database = withTestDatabase();

const at = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);

type Built = Awaited<ReturnType<typeof buildSalonWithStaff>>;
let a: Built;
let b: Built;
const customer: Record<string, string> = {};
const menu: Record<string, string> = {};

type Spec = {
  stylist: 0 | 1;
  date: string;
  from: string;
  to: string;
  status?: BookingStatus;
  category?: SalonCancelCategory;
  price?: number;
  customer?: string;
  created?: Date;
  source?: "web" | "phone" | "walk_in";
  menus?: [string, string, number][];
  kind?: "booking" | "block";
  salon?: Built;
};

async function book(spec: Spec) {
  const salon = spec.salon ?? a;
  const status = spec.status ?? "confirmed";
  const endDate = spec.to === "24:00" ? "2026-11-30" : spec.date;
  const row = await buildBooking(database.db, {
    salonId: salon.salon.id,
    staffId: salon.stylists[spec.stylist]?.id ?? "",
    startsAt: at(spec.date, spec.from),
    endsAt: at(endDate, spec.to === "24:00" ? "00:00" : spec.to),
    status,
    kind: spec.kind ?? "booking",
    source: spec.source ?? "web",
    totalPrice: spec.price ?? 5500,
    customerId: spec.customer ? (customer[spec.customer] ?? null) : null,
    cancelledAt: status.startsWith("cancelled") ? at(spec.date, "09:00") : null,
    // A reason means the salon entered it (decision 0065), whoever's cancellation it is.
    cancelledBy: spec.category
      ? "salon"
      : status === "cancelled_by_user"
        ? "user"
        : status === "cancelled_by_salon"
          ? "salon"
          : null,
    cancelCategory: spec.category ?? null,
    holdExpiresAt: status === "held" ? at("2026-12-31", "00:00") : null,
    createdAt: spec.created ?? at("2026-11-01", "09:00"),
  });
  if (spec.menus) {
    await database.db.insert(bookingMenus).values(
      spec.menus.map(([key, name, price], position) => ({
        salonId: salon.salon.id,
        bookingId: row.id,
        position,
        menuId: menu[key] ?? "",
        name,
        price,
        durationMinutes: 30,
      })),
    );
  }
  return row;
}

async function person(key: string, mergedInto?: string) {
  const [row] = await database.db
    .insert(salonCustomers)
    .values({
      salonId: a.salon.id,
      name: `${key} 様`,
      mergedIntoId: mergedInto ? (customer[mergedInto] ?? null) : null,
      mergedAt: mergedInto ? at("2026-11-15", "10:00") : null,
    })
    .returning();
  customer[key] = row?.id ?? "";
}

beforeAll(async () => {
  a = await buildSalonWithStaff(database.db, {
    staffCount: 2,
    salon: { name: "サロンA", timeZone: "Asia/Tokyo" },
    settings: { closedOnPublicHolidays: true },
  });
  b = await buildSalonWithStaff(database.db, { salon: { name: "サロンB" } });
  const stylist2 = a.stylists[1]?.id ?? null;
  await database.db.insert(scheduleExceptions).values([
    { salonId: a.salon.id, staffId: null, date: "2026-11-25", kind: "closed" },
    { salonId: a.salon.id, staffId: stylist2, date: "2026-11-27", kind: "closed" },
    {
      salonId: a.salon.id,
      staffId: stylist2,
      date: "2026-11-28",
      kind: "hours",
      startsAt: "10:00",
      endsAt: "14:00",
    },
  ]);
  menu.cut = a.menu.id;
  menu.treatment = (await buildMenu(database.db, a.salon.id, { name: "トリートメント" })).id;
  // Retired and renamed since: the bookings keep what they were booked as.
  menu.bangs = (
    await buildMenu(database.db, a.salon.id, { name: "前髪カット（旧）", published: false })
  ).id;

  for (const key of ["c1", "c2", "c3", "c4"]) await person(key);
  await person("c4b", "c4");

  // Booked (confirmed or completed) in the week.
  await book({
    stylist: 0,
    date: "2026-11-24",
    from: "10:00",
    to: "11:00",
    status: "completed",
    price: 5500,
    customer: "c1",
    created: at("2026-11-20", "10:00"),
    menus: [["cut", "カット", 5500]],
  });
  // 00:30 in Tokyo is still 23 November in UTC: it counts for the 24th.
  await book({
    stylist: 0,
    date: "2026-11-24",
    from: "00:30",
    to: "01:00",
    price: 3000,
    customer: "c2",
    created: at("2026-11-23", "00:30"),
    // Booked under an older name: the menu shows under its newest booking's name.
    menus: [["bangs", "前髪カット（旧名）", 3000]],
  });
  await book({
    stylist: 1,
    date: "2026-11-26",
    from: "14:00",
    to: "15:30",
    price: 8800,
    customer: "c3",
    created: at("2026-11-26", "12:00"),
    source: "phone",
    menus: [
      ["cut", "カット", 5500],
      ["treatment", "トリートメント", 3300],
    ],
  });
  // 23:30 local on the period's last day counts for that day.
  await book({
    stylist: 1,
    date: "2026-11-29",
    from: "23:30",
    to: "24:00",
    price: 2000,
    customer: "c1",
    created: at("2026-11-28", "23:30"),
    menus: [["bangs", "前髪カット", 2000]],
  });
  // A walk-in under a record merged into c4 (not booked ahead).
  await book({
    stylist: 0,
    date: "2026-11-29",
    from: "12:00",
    to: "13:00",
    status: "completed",
    price: 4400,
    customer: "c4b",
    created: at("2026-11-29", "12:00"),
    source: "walk_in",
    menus: [["cut", "カット", 4400]],
  });
  // Cancellations and a no-show.
  await book({
    stylist: 0,
    date: "2026-11-27",
    from: "15:00",
    to: "16:00",
    status: "cancelled_by_user",
    customer: "c3",
  });
  await book({
    stylist: 0,
    date: "2026-11-28",
    from: "11:00",
    to: "12:00",
    status: "cancelled_by_salon",
  });
  await book({
    stylist: 0,
    date: "2026-11-28",
    from: "13:00",
    to: "14:00",
    status: "cancelled_by_user",
    category: "customer_same_day",
  });
  await book({
    stylist: 0,
    date: "2026-11-28",
    from: "15:00",
    to: "16:00",
    status: "cancelled_by_user",
    category: "customer_advance",
  });
  await book({
    stylist: 1,
    date: "2026-11-24",
    from: "13:00",
    to: "14:00",
    status: "cancelled_by_user",
    category: "no_contact",
  });
  await book({
    stylist: 1,
    date: "2026-11-24",
    from: "15:00",
    to: "16:00",
    status: "no_show",
    customer: "c4",
  });
  // Never counted: a hold, a block, another salon's booking.
  await book({ stylist: 0, date: "2026-11-26", from: "10:00", to: "11:00", status: "held" });
  await book({ stylist: 1, date: "2026-11-26", from: "10:00", to: "11:00", kind: "block" });
  await book({ stylist: 0, date: "2026-11-26", from: "10:00", to: "11:00", salon: b });
  // Outside the week: the next day's 00:30 (still the 29th in UTC), and
  // earlier visits that make c3 and c4 (through c4b's chain) returning.
  await book({ stylist: 0, date: "2026-11-30", from: "00:30", to: "01:00", price: 1000 });
  await book({
    stylist: 1,
    date: "2026-11-20",
    from: "10:00",
    to: "11:00",
    status: "completed",
    customer: "c3",
  });
  await book({
    stylist: 0,
    date: "2026-11-10",
    from: "10:00",
    to: "11:00",
    status: "completed",
    customer: "c4",
  });
  // c2 cancelled once before: a cancellation is no visit, so c2 is still new.
  await book({
    stylist: 0,
    date: "2026-11-05",
    from: "10:00",
    to: "11:00",
    status: "cancelled_by_user",
    customer: "c2",
  });
});

const salonA = () => ({ id: a.salon.id, name: a.salon.name, timeZone: a.salon.timeZone });
const week = { from: "2026-11-23", to: "2026-11-29" };

describe("the report's figures (salonReport)", () => {
  it("adds up the booked and completed amounts, bookings and utilisation of the week", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "week" });
    expect(report.totals).toEqual({
      bookedCount: 5,
      bookedAmount: 23_700,
      completedCount: 2,
      completedAmount: 9900,
      paidCount: 0,
      paidAmount: 0,
      unpaidCount: 2,
      unpaidAmount: 9900,
      bookedMinutes: 270,
      scheduledMinutes: 5040,
      utilisation: 270 / 5040,
      cancelledCount: 5,
      noShowCount: 1,
    });
    expect(report.buckets).toHaveLength(1);
    expect(report.buckets[0]).toMatchObject({ from: "2026-11-23", to: "2026-11-29" });
  });

  it("groups by day in the salon's zone: the holiday and the closure have no schedule, 00:30 and 23:30 count for their own day", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    expect(
      report.buckets.map((day) => [
        day.from,
        day.bookedCount,
        day.bookedAmount,
        day.scheduledMinutes,
        day.cancelledCount,
        day.noShowCount,
      ]),
    ).toEqual([
      ["2026-11-23", 0, 0, 0, 0, 0],
      ["2026-11-24", 2, 8500, 1200, 1, 1],
      ["2026-11-25", 0, 0, 0, 0, 0],
      ["2026-11-26", 1, 8800, 1200, 0, 0],
      ["2026-11-27", 0, 0, 600, 1, 0],
      ["2026-11-28", 0, 0, 840, 3, 0],
      ["2026-11-29", 2, 6400, 1200, 0, 0],
    ]);
    expect(report.buckets[1]?.utilisation).toBe(90 / 1200);
    expect(report.buckets[0]?.utilisation).toBeNull();
  });

  it("gives each stylist's figures and utilisation against their own schedule", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    expect(report.stylists).toEqual([
      {
        staffId: a.stylists[0]?.id,
        staffName: "スタイリスト1",
        active: true,
        bookedCount: 3,
        bookedAmount: 12_900,
        completedCount: 2,
        completedAmount: 9900,
        paidCount: 0,
        paidAmount: 0,
        unpaidCount: 2,
        unpaidAmount: 9900,
        bookedMinutes: 150,
        scheduledMinutes: 3000,
        utilisation: 0.05,
        // Decision 0082: every booking here was made with the stylist chosen (the default);
        // c1 and c2 came first, c4 (through c4b) came back; 9,900 over 2 visits, no 会計.
        nominatedCount: 3,
        nominationRate: 1,
        newCustomers: 2,
        returningCustomers: 1,
        serviceAmount: 9900,
        retailAmount: 0,
        averageSpend: 4950,
      },
      {
        staffId: a.stylists[1]?.id,
        staffName: "スタイリスト2",
        active: true,
        bookedCount: 2,
        bookedAmount: 10_800,
        completedCount: 0,
        completedAmount: 0,
        paidCount: 0,
        paidAmount: 0,
        unpaidCount: 0,
        unpaidAmount: 0,
        bookedMinutes: 120,
        scheduledMinutes: 2040,
        utilisation: 120 / 2040,
        // c3 (since 11-20) and c1 (first at stylist 1 on the 24th) come back.
        nominatedCount: 2,
        nominationRate: 1,
        newCustomers: 0,
        returningCustomers: 2,
        serviceAmount: 0,
        retailAmount: 0,
        averageSpend: null,
      },
    ]);
  });

  it("counts menus by the price they were booked with, under the newest booking's name, a retired menu too", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    expect(report.menus).toEqual([
      {
        menuId: menu.cut,
        name: "カット",
        bookedCount: 3,
        bookedAmount: 15_400,
        completedCount: 2,
        completedAmount: 9900,
      },
      {
        menuId: menu.bangs,
        name: "前髪カット",
        bookedCount: 2,
        bookedAmount: 5000,
        completedCount: 0,
        completedAmount: 0,
      },
      {
        menuId: menu.treatment,
        name: "トリートメント",
        bookedCount: 1,
        bookedAmount: 3300,
        completedCount: 0,
        completedAmount: 0,
      },
    ]);
  });

  it("counts cancellations by category and no-shows", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    // A customer who phoned (ahead or that day) or never came is the customer's, not the salon's.
    expect(report.cancellations).toEqual({
      customer: 1,
      customer_advance: 1,
      customer_same_day: 1,
      no_contact: 1,
      salon: 1,
      noShow: 1,
    });
  });

  it("tells new customers (first visit in the period) from returning ones, following merges", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    // c1's second visit of the week is 再来 (issue 38, §1.9): c1 counts in both.
    expect(report.customers).toEqual({
      newCustomers: 2,
      returningCustomers: 3,
      newBookings: 2,
      returningBookings: 3,
      unknownBookings: 0,
    });
    // From the 15th on, c3's visit of the 20th is inside the period (c3 is new, and returns on
    // the 26th); c4's of the 10th is still before it, so c4 (c4b's walk-in) returns; c1 is new
    // and returns.
    const later = await salonReport(database.db, salonA(), {
      from: "2026-11-15",
      to: "2026-11-29",
      group: "month",
    });
    expect(later.customers).toMatchObject({ newCustomers: 3, returningCustomers: 3 });
  });

  it("counts a visit as 新規 only when it is the customer's first ever at the salon (issue 38, §1.9)", async () => {
    // Salon B's own customers: x first came before the week and once in it; y first came in
    // the week and came back in it; z came once, in the week.
    const people: Record<string, string> = {};
    for (const key of ["x", "y", "z"]) {
      const [row] = await database.db
        .insert(salonCustomers)
        .values({ salonId: b.salon.id, name: `${key} 様` })
        .returning();
      people[key] = row?.id ?? "";
    }
    const visits: [string, string, string, BookingStatus][] = [
      ["x", "2026-11-02", "10:00", "completed"],
      ["x", "2026-11-24", "10:00", "confirmed"],
      ["y", "2026-11-24", "12:00", "completed"],
      ["y", "2026-11-27", "12:00", "completed"],
      ["z", "2026-11-28", "12:00", "confirmed"],
    ];
    for (const [key, date, from, status] of visits) {
      await book({
        salon: b,
        stylist: 0,
        date,
        from,
        to: `${Number(from.slice(0, 2)) + 1}:00`,
        status,
      }).then((row) =>
        database.db
          .update(bookings)
          .set({ customerId: people[key] ?? null })
          .where(eq(bookings.id, row.id)),
      );
    }
    const salonB = { id: b.salon.id, name: b.salon.name, timeZone: b.salon.timeZone };
    const report = await salonReport(database.db, salonB, { ...week, group: "day" });
    expect(report.customers).toEqual({
      newCustomers: 2,
      returningCustomers: 2,
      newBookings: 2,
      returningBookings: 2,
      // Salon B's booking of the 26th without a customer record.
      unknownBookings: 1,
    });
  });

  it("ranks the hours by median lead time, walk-ins left out, and gives the weekdays", async () => {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    expect(report.hours).toEqual([
      { hour: 0, bookings: 1, bookedAhead: 1, medianLeadHours: 24, rank: 2 },
      { hour: 10, bookings: 1, bookedAhead: 1, medianLeadHours: 96, rank: 1 },
      { hour: 12, bookings: 1, bookedAhead: 0, medianLeadHours: null, rank: null },
      { hour: 14, bookings: 1, bookedAhead: 1, medianLeadHours: 2, rank: 4 },
      { hour: 23, bookings: 1, bookedAhead: 1, medianLeadHours: 24, rank: 3 },
    ]);
    expect(report.weekdays).toEqual([
      { weekday: 2, bookings: 2, bookedAhead: 2, medianLeadHours: 60 },
      { weekday: 4, bookings: 1, bookedAhead: 1, medianLeadHours: 2 },
      { weekday: 0, bookings: 2, bookedAhead: 1, medianLeadHours: 24 },
    ]);
  });

  it("groups by week (Monday first) and month in the salon's zone, clipping the buckets to the period", async () => {
    const byMonth = await salonReport(database.db, salonA(), {
      from: "2026-11-29",
      to: "2026-12-01",
      group: "month",
    });
    expect(byMonth.buckets.map((m) => [m.from, m.to, m.bookedCount, m.bookedAmount])).toEqual([
      ["2026-11-29", "2026-11-30", 3, 7400],
      ["2026-12-01", "2026-12-01", 0, 0],
    ]);
    const byWeek = await salonReport(database.db, salonA(), {
      from: "2026-11-29",
      to: "2026-12-01",
      group: "week",
    });
    expect(byWeek.buckets.map((w) => [w.from, w.to, w.bookedCount])).toEqual([
      ["2026-11-29", "2026-11-29", 2],
      ["2026-11-30", "2026-12-01", 1],
    ]);
  });

  it("reads an empty period as zeros", async () => {
    const report = await salonReport(database.db, salonA(), {
      from: "2027-01-01",
      to: "2027-01-03",
      group: "day",
    });
    expect(report.totals.bookedCount).toBe(0);
    expect(report.buckets).toHaveLength(3);
    expect(report.menus).toEqual([]);
    expect(report.hours).toEqual([]);
    expect(report.customers.newCustomers).toBe(0);
  });
});

/** What DrawnReport draws: set by each render below. */
let drawn: Parameters<typeof ReportsPage>[0]["data"];
function DrawnReport() {
  return createElement(ReportsPage, { data: drawn });
}

describe("the reports page's drawing", () => {
  async function html(errors: { field: "from" | "to" | "group"; message: string }[] = []) {
    const report = await salonReport(database.db, salonA(), { ...week, group: "day" });
    const data = {
      salon: { id: a.salon.id, name: "サロンA" },
      salons: [],
      capabilities: ["reports.read" as const],
      report,
      values: { from: errors.length > 0 ? "2026-13-01" : week.from, to: week.to, group: "day" },
      errors,
    };
    drawn = data;
    const Stub = createRoutesStub([{ path: "/", Component: DrawnReport }]);
    return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll(
      "<!-- -->",
      "",
    );
  }

  it("draws each chart as a named SVG image with its numbers in a table, in Japanese formats", async () => {
    const page = await html();
    const charts = page.match(/<svg role="img" aria-labelledby="[^"]+"/g) ?? [];
    // The two column charts twice (a phone's drawing and a wide one, one shown at a time),
    // the stylists' row chart once.
    expect(charts).toHaveLength(5);
    expect(page.match(/<title id=/g)).toHaveLength(5);
    expect(page.match(/<desc id=/g)).toHaveLength(5);
    // Axes with their units, the utilisation as a line, and the period's last day labelled.
    expect(page).toContain("予約金額（円）");
    expect(page).toContain("稼働率（%）");
    expect(page).toContain("予約から来店まで（時間）");
    expect(page.match(/<path d="M/g)).toHaveLength(2);
    expect(page).toMatch(/text-anchor="middle"[^>]*>11\/29<\/text>/);
    expect(page).toContain("最も多いのは2026年11月26日(木)の￥8,800");
    expect(page).toContain("最も早く埋まるのは10時台");
    expect(page.match(/<table/g)?.length).toBeGreaterThanOrEqual(6);
    expect(page).toContain(
      '<th scope="row" class="border-b border-neutral-200 px-2 py-2 align-top font-normal">2026年11月24日(火)</th>',
    );
    expect(page).toContain("￥23,700");
    expect(page).toContain("5.4%");
    expect(page).toContain("前髪カット");
    expect(page).toContain(
      `href="/owner/salons/${a.salon.id}/bookings.csv?from=2026-11-23&amp;to=2026-11-29"`,
    );
    expect(page).toContain("予約データをCSVでダウンロード");
    expect(page).toContain(`href="/owner/salons/${a.salon.id}/customers.csv"`);
    expect(page).toContain('method="get"');
  });

  it("lists a bad query's errors with what was typed", async () => {
    const page = await html([
      { field: "from", message: "開始日は実在する日付で入力してください。" },
    ]);
    expect(page).toContain('role="alert"');
    expect(page).toContain("開始日は実在する日付で入力してください。（入力：「2026-13-01」）");
    expect(page).toContain('aria-invalid="true"');
  });
});

describe("the report's query", () => {
  const today = "2026-11-26";

  it("defaults to the current month by day", () => {
    expect(parseReportQuery({}, today)).toMatchObject({
      ok: true,
      query: { from: "2026-11-01", to: "2026-11-30", group: "day" },
    });
  });

  it("refuses bad dates, a reversed or too long period and an unknown grouping in Japanese, keeping what was typed", () => {
    const bad = parseReportQuery({ from: "2026-02-30", to: "abc", group: "year" }, today);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.values).toEqual({ from: "2026-02-30", to: "abc", group: "year" });
    expect(bad.errors.map((e) => e.field)).toEqual(["from", "to", "group"]);
    expect(bad.errors[0]?.message).toContain("開始日");
    expect(bad.query).toEqual({ from: "2026-11-01", to: "2026-11-30", group: "day" });
    const reversed = parseReportQuery({ from: "2026-11-10", to: "2026-11-01" }, today);
    expect(reversed.ok ? [] : reversed.errors).toEqual([
      { field: "to", message: "終了日は開始日と同じ日か、それより後の日付にしてください。" },
    ]);
    const long = parseReportQuery({ from: "2025-01-01", to: "2026-01-02" }, today);
    expect(long.ok ? [] : long.errors).toEqual([
      { field: "to", message: "期間は366日以内で指定してください。" },
    ]);
    expect(parseReportQuery({ from: "2024-01-01", to: "2024-12-31" }, today).ok).toBe(true);
    // A date that does not exist beside a real one: that date's message, not a 500.
    const impossible = parseReportQuery({ from: "2026-02-30", to: "2026-03-01" }, today);
    expect(impossible.ok ? [] : impossible.errors.map((e) => e.field)).toEqual(["from"]);
  });
});

describe("the reports page", () => {
  let site: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    site = createRouteApp(database, [
      { path: "/owner/salons/:id/reports", module: reportsRoute },
      { path: "/signin", module: signinRoute },
    ]);
  });
  afterAll(async () => {
    await site.accounts.close();
  });

  async function signedIn(role: "user" | "owner" | "admin", salons: Built[] = []) {
    const member = await signedInMember(database, site, role);
    await setRole(database.db, member.email, role);
    for (const salon of salons) {
      await database.db
        .insert(salonOwners)
        .values({ salonId: salon.salon.id, userId: member.userId });
    }
    return member;
  }

  const pageOf = (salon: Built, query = "") => `/owner/salons/${salon.salon.id}/reports${query}`;

  type PageData = {
    loaderData: {
      report: Awaited<ReturnType<typeof salonReport>>;
      errors: { field: string; message: string }[];
      values: { from: string; to: string; group: string };
    };
  };

  it("shows the salon's owner the report of the asked period", async () => {
    const owner = await signedIn("owner", [a]);
    const page = await owner.b.request(pageOf(a, "?from=2026-11-23&to=2026-11-29&group=week"));
    expect(page.status).toBe(200);
    const { loaderData } = (await page.json()) as PageData;
    expect(loaderData.report.totals.bookedAmount).toBe(23_700);
    expect(loaderData.errors).toEqual([]);
  });

  it("answers a bad query with 400, the Japanese errors, what was typed, and the current month", async () => {
    const owner = await signedIn("owner", [a]);
    const page = await owner.b.request(pageOf(a, "?from=2026-13-01&to=2026-11-29&group=day"));
    expect(page.status).toBe(400);
    const { loaderData } = (await page.json()) as PageData;
    expect(loaderData.errors[0]?.field).toBe("from");
    expect(loaderData.errors[0]?.message).toMatch(/開始日/);
    expect(loaderData.values.from).toBe("2026-13-01");
    expect(loaderData.report.query.group).toBe("day");
  });

  it("lets an administrator in; a guest signs in; another salon's owner and a member get the 404 screen", async () => {
    const admin = await signedIn("admin");
    expect((await admin.b.request(pageOf(a))).status).toBe(200);
    const guest = await browser(site.app).request(pageOf(a));
    expect(guest.status).toBe(302);
    const ownerOfB = await signedIn("owner", [b]);
    expect((await ownerOfB.b.request(pageOf(a))).status).toBe(404);
    expect((await ownerOfB.b.request(pageOf(b))).status).toBe(200);
    const member = await signedIn("user");
    expect((await member.b.request(pageOf(a))).status).toBe(404);
  });
});

describe("GET /api/owner/salons/{id}/reports", () => {
  let api: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    api = createApiTestApp(database, { now: () => at("2026-11-26", "12:00") });
  });
  afterAll(async () => {
    await api.close();
    await api.accounts.close();
  });

  async function owner(salons: Built[], role: "owner" | "admin" = "owner") {
    const client = await apiUser(api.app);
    await database.db
      .update(users)
      .set({ role, emailVerified: true })
      .where(eq(users.id, client.userId));
    for (const salon of salons) {
      await database.db
        .insert(salonOwners)
        .values({ salonId: salon.salon.id, userId: client.userId });
    }
    return client;
  }

  const path = (salon: Built, query: string) =>
    `/api/owner/salons/${salon.salon.id}/reports${query}`;

  it("answers the same report as the page, the current month when no period is given", async () => {
    const client = await owner([a]);
    const answer = await client.request(path(a, "?from=2026-11-23&to=2026-11-29&group=day"));
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: Awaited<ReturnType<typeof salonReport>> };
    expect(data.totals.bookedAmount).toBe(23_700);
    expect(data.buckets).toHaveLength(7);
    const month = await client.request(path(a, ""));
    expect(month.status).toBe(200);
    const body = (await month.json()) as { data: { query: unknown } };
    expect(body.data.query).toEqual({ from: "2026-11-01", to: "2026-11-30", group: "day" });
  });

  it("refuses a bad query with 400 in Japanese", async () => {
    const client = await owner([a]);
    const answer = await client.request(path(a, "?from=2025-01-01&to=2026-06-01&group=day"));
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toBe("期間は366日以内で指定してください。");
    const group = await client.request(path(a, "?group=hour"));
    expect(group.status).toBe(400);
  });

  it("lets an administrator read; 401 to a guest and 404 to another salon's owner", async () => {
    const admin = await owner([], "admin");
    expect((await admin.request(path(a, ""))).status).toBe(200);
    expect((await apiClient(api.app).request(path(a, ""))).status).toBe(401);
    const other = await owner([b]);
    expect((await other.request(path(a, ""))).status).toBe(404);
  });
});

describe("sales from 会計 (decision 0079)", () => {
  it("counts a completed visit's 会計 total as its sales, and one without 会計 at its booked price apart", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db, { staffCount: 1 });
    const staffId = stylists[0]?.id ?? "";
    const visit = (local: string, totalPrice: number, status: BookingStatus = "completed") =>
      buildBooking(database.db, {
        salonId: salon.id,
        staffId,
        startsAt: new Date(`${local}:00+09:00`),
        endsAt: new Date(new Date(`${local}:00+09:00`).getTime() + 3_600_000),
        status,
        source: "phone",
        totalPrice,
      });
    const paid = await visit("2026-11-24T11:00", 5000);
    await visit("2026-11-25T11:00", 6000);
    await visit("2026-11-26T11:00", 4000, "confirmed");
    // Paid 7,000 at the counter: a retail item on top of the menu.
    const [checkout] = await database.db
      .insert(checkouts)
      .values({
        salonId: salon.id,
        bookingId: paid.id,
        subtotal: 7000,
        discount: 0,
        total: 7000,
        tax: 636,
        method: "card",
      })
      .returning();
    await database.db
      .insert(checkoutPayments)
      .values({ salonId: salon.id, checkoutId: checkout?.id ?? "", method: "card", amount: 7000 });
    const report = await salonReport(
      database.db,
      { id: salon.id, name: salon.name, timeZone: salon.timeZone },
      { ...week, group: "day" },
    );
    expect(report.totals).toMatchObject({
      bookedCount: 3,
      bookedAmount: 15_000,
      completedCount: 2,
      completedAmount: 13_000,
      paidCount: 1,
      paidAmount: 7000,
      unpaidCount: 1,
      unpaidAmount: 6000,
    });
    expect(report.buckets[1]).toMatchObject({ from: "2026-11-24", completedAmount: 7000 });
    expect(report.stylists[0]).toMatchObject({ completedAmount: 13_000, paidAmount: 7000 });
  });
});
