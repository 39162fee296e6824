import { describe, expect, it } from "vitest";
import * as stylistsCsvRoute from "../../app/routes/owner.salons.$id.stylists.csv";
import type { CheckoutLineKind } from "../../common/checkout";
import type { BookingStatus } from "../../server/db/schema";
import {
  checkoutLines,
  checkoutPayments,
  checkouts,
  salonCustomers,
  salonMembers,
  salonOwners,
} from "../../server/db/schema";
import { salonReport } from "../../server/owner/reports.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The stylist figures (issue 40 §4; decision 0082) on a small month with
 * known numbers, November 2026 in Tokyo, two stylists:
 *
 * | booking | stylist | date  | person        | 指名 | status    | paid (会計)                         |
 * | 1       | S1      | 11-03 | P (since 10-10) | yes | completed | 7,700 = カット 5,500 + 店販 2,200     |
 * | 2       | S1      | 11-05 | Q (first)     | no   | completed | 3,900 = カット 4,400 − 割引 500       |
 * | 3       | S2      | 11-12 | R (first)     | yes  | completed | none (booked 6,600: 会計未登録)        |
 * | 4       | S2      | 11-20 | Q             | yes  | confirmed | —                                   |
 * | 5       | S1      | 11-25 | R2 (merged → R) | yes | completed | 7,700 = カット 5,500 + 店販 1,100 × 2 |
 * | 6       | S1      | 11-26 | P             | yes  | cancelled | — (never counted)                   |
 *
 * S1: 3 booked, 2 指名 (2/3); 新規 Q, 再来 P and R; 3 visits, 売上 19,300
 * (技術 14,900, 店販 4,400), 客単価 round(19,300 / 3) = 6,433.
 * S2: 2 booked, 2 指名 (100 %); 新規 R, 再来 Q; 1 visit, 売上 6,600 (技術,
 * 会計未登録 1 件 6,600), 客単価 6,600.
 */
const database = withTestDatabase();

const at = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);
const month = { from: "2026-11-01", to: "2026-11-30" };

async function scene() {
  const { salon, stylists } = await buildSalonWithStaff(database.db, {
    staffCount: 2,
    salon: { timeZone: "Asia/Tokyo" },
  });
  const [s1, s2] = stylists;
  if (!s1 || !s2) throw new Error("no stylists");
  const person = async (name: string, mergedIntoId: string | null = null) => {
    const [row] = await database.db
      .insert(salonCustomers)
      .values({
        salonId: salon.id,
        name,
        mergedIntoId,
        mergedAt: mergedIntoId ? at("2026-11-15", "10:00") : null,
      })
      .returning();
    if (!row) throw new Error("no customer");
    return row.id;
  };
  const p = await person("P 様");
  const q = await person("Q 様");
  const r = await person("R 様");
  const r2 = await person("R 様（電話）", r);
  const book = async (
    staffId: string,
    date: string,
    customerId: string,
    staffRequested: boolean,
    status: BookingStatus,
    totalPrice: number,
    paid?: { lines: [CheckoutLineKind, number, number][]; discount?: number },
  ) => {
    const booking = await buildBooking(database.db, {
      salonId: salon.id,
      staffId,
      startsAt: at(date, "11:00"),
      endsAt: at(date, "12:00"),
      status,
      customerId,
      staffRequested,
      totalPrice,
      cancelledAt: status === "cancelled_by_user" ? at(date, "09:00") : null,
      cancelledBy: status === "cancelled_by_user" ? "user" : null,
    });
    if (!paid) return;
    const subtotal = paid.lines.reduce((sum, [, price, quantity]) => sum + price * quantity, 0);
    const discount = paid.discount ?? 0;
    const total = subtotal - discount;
    const [row] = await database.db
      .insert(checkouts)
      .values({
        salonId: salon.id,
        bookingId: booking.id,
        subtotal,
        discount,
        total,
        tax: Math.floor((total * 10) / 110),
        method: "card",
        createdAt: at(date, "12:00"),
      })
      .returning();
    if (!row) throw new Error("no checkout");
    await database.db.insert(checkoutLines).values(
      paid.lines.map(([kind, unitPrice, quantity], position) => ({
        salonId: salon.id,
        checkoutId: row.id,
        position,
        kind,
        name: kind === "product" ? "ヘアオイル" : "カット",
        listPrice: unitPrice,
        unitPrice,
        quantity,
        amount: unitPrice * quantity,
      })),
    );
    await database.db
      .insert(checkoutPayments)
      .values({ salonId: salon.id, checkoutId: row.id, method: "card", amount: total });
  };
  // P's first visit, before the month.
  await book(s1.id, "2026-10-10", p, true, "completed", 5500);
  await book(s1.id, "2026-11-03", p, true, "completed", 5500, {
    lines: [
      ["menu", 5500, 1],
      ["product", 2200, 1],
    ],
  });
  await book(s1.id, "2026-11-05", q, false, "completed", 4400, {
    lines: [["menu", 4400, 1]],
    discount: 500,
  });
  await book(s2.id, "2026-11-12", r, true, "completed", 6600);
  await book(s2.id, "2026-11-20", q, true, "confirmed", 3300);
  await book(s1.id, "2026-11-25", r2, true, "completed", 5500, {
    lines: [
      ["menu", 5500, 1],
      ["product", 1100, 2],
    ],
  });
  await book(s1.id, "2026-11-26", p, true, "cancelled_by_user", 5500);
  return { salon, s1, s2 };
}

describe("the stylist figures: 指名数・指名率, 新規/再来, 客単価, 技術/店販", () => {
  it("adds them up per stylist for the period, in SQL, on a month with known numbers", async () => {
    const { salon, s1, s2 } = await scene();
    const report = await salonReport(database.db, salon, { ...month, group: "month" });
    const figures = report.stylists.map((s) => ({
      staffId: s.staffId,
      bookedCount: s.bookedCount,
      nominatedCount: s.nominatedCount,
      nominationRate: s.nominationRate,
      newCustomers: s.newCustomers,
      returningCustomers: s.returningCustomers,
      completedCount: s.completedCount,
      completedAmount: s.completedAmount,
      serviceAmount: s.serviceAmount,
      retailAmount: s.retailAmount,
      unpaidCount: s.unpaidCount,
      unpaidAmount: s.unpaidAmount,
      averageSpend: s.averageSpend,
    }));
    expect(figures).toEqual([
      {
        staffId: s1.id,
        bookedCount: 3,
        nominatedCount: 2,
        nominationRate: 2 / 3,
        newCustomers: 1,
        returningCustomers: 2,
        completedCount: 3,
        completedAmount: 19300,
        serviceAmount: 14900,
        retailAmount: 4400,
        unpaidCount: 0,
        unpaidAmount: 0,
        averageSpend: 6433,
      },
      {
        staffId: s2.id,
        bookedCount: 2,
        nominatedCount: 2,
        nominationRate: 1,
        newCustomers: 1,
        returningCustomers: 1,
        completedCount: 1,
        completedAmount: 6600,
        serviceAmount: 6600,
        retailAmount: 0,
        unpaidCount: 1,
        unpaidAmount: 6600,
        averageSpend: 6600,
      },
    ]);
    // The salon's own counts agree: Q and R new in the month, P returning (and R through R2, Q at S2).
    expect(report.customers).toMatchObject({ newCustomers: 2, returningCustomers: 3 });

    // A period without bookings: zeros and no rates.
    const empty = await salonReport(database.db, salon, {
      from: "2026-12-01",
      to: "2026-12-31",
      group: "month",
    });
    expect(empty.stylists[0]).toMatchObject({
      bookedCount: 0,
      nominatedCount: 0,
      nominationRate: null,
      newCustomers: 0,
      returningCustomers: 0,
      averageSpend: null,
    });
  });

  it("the CSV /owner/salons/:id/stylists.csv: the columns and a row per stylist; a bad period is a Japanese 400; reception gets the 404", async () => {
    const { salon } = await scene();
    const env = createRouteApp(database, [
      { path: "/owner/salons/:id/stylists.csv", module: stylistsCsvRoute },
    ]);
    const owner = await signedInMember(database, env, "owner");
    await setRole(database.db, owner.email, "owner");
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const path = `/owner/salons/${salon.id}/stylists.csv`;

    const response = await owner.b.request(`${path}?from=${month.from}&to=${month.to}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="stylists-20261101-20261130.csv"',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines).toEqual([
      "期間開始,期間終了,スタッフ,予約件数,指名数,指名率（%）,新規客数,再来客数,来店数（完了）,売上,技術売上,店販売上,会計未登録の件数,会計未登録の金額（予約時の見込み）,客単価",
      "2026-11-01,2026-11-30,スタイリスト1,3,2,66.7,1,2,3,19300,14900,4400,0,0,6433",
      "2026-11-01,2026-11-30,スタイリスト2,2,2,100,1,1,1,6600,6600,0,1,6600,6600",
      "",
    ]);

    const bad = await owner.b.request(`${path}?from=2026-11-31`);
    expect(bad.status).toBe(400);
    const message = await bad.text();
    expect(message).toMatch(/実在する日付/);
    expect(message).toMatch(/スタッフ別のCSVは/);

    const reception = await signedInMember(database, env, "reception");
    await database.db
      .insert(salonMembers)
      .values({ salonId: salon.id, userId: reception.userId, role: "reception" });
    expect((await reception.b.request(`${path}?from=${month.from}&to=${month.to}`)).status).toBe(
      404,
    );
  });
});
