import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as dayCloseRoute from "../../app/routes/owner.salons.$id.day-close";
import type { PaymentMethod } from "../../common/checkout";
import {
  auditLog,
  checkoutPayments,
  checkouts,
  dayCloses,
  payments,
  salonMembers,
  salonOwners,
} from "../../server/db/schema";
import {
  closeDay,
  type DayClosePageData,
  DayCloseRefusedError,
  dayFigures,
  figuresFingerprint,
  readCloseInput,
} from "../../server/owner/day-close.server";
import { salonAccessFor } from "../../server/salon-access/salon-access.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * 日計 (issue 40 §4; decision 0082) on a known day, 2026-11-20 in Tokyo
 * (in the past whenever this runs, so the page's real clock does not
 * matter). The day's four 会計:
 *   現金 5,500 (お預かり 10,000, お釣り 4,500); カード 8,800;
 *   組み合わせ 5,000 = 現金 3,000 + QR 2,000 (お預かり 3,000, お釣り 0);
 *   事前決済 4,400;
 * and one 会計 just before and one just after the day (not counted), and an
 * online refund of 1,000 made that day. Totals: 4 会計, 23,700; 現金 8,500,
 * カード 8,800, QR 2,000, 事前決済 4,400; お預かり 13,000, お釣り 4,500.
 * With a float of 20,000 the drawer should hold 28,500.
 */
const database = withTestDatabase();

const DAY = "2026-11-20";
const at = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);

const routes = () =>
  createRouteApp(database, [{ path: "/owner/salons/:id/day-close", module: dayCloseRoute }]);

type Body<T> = { status: number; loaderData: T; actionData: Record<string, unknown> | null };

async function scene() {
  const { salon, stylists } = await buildSalonWithStaff(database.db, { staffCount: 1 });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const env = routes();
  const owner = await signedInMember(database, env, "owner");
  await setRole(database.db, owner.email, "owner");
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
  let slot = 0;
  /** A completed visit and its 会計 saved at `when`. */
  const checkout = async (
    when: Date,
    total: number,
    parts: [PaymentMethod, number][],
    cash?: { received: number; change: number },
  ) => {
    const startsAt = new Date(at("2026-11-01", "10:00").getTime() + slot++ * 3_600_000);
    const booking = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 30 * 60_000),
      status: "completed",
      customerName: `お客様${slot}`,
      totalPrice: total,
    });
    const [row] = await database.db
      .insert(checkouts)
      .values({
        salonId: salon.id,
        bookingId: booking.id,
        subtotal: total,
        total,
        tax: Math.floor((total * 10) / 110),
        method: parts.length > 1 ? "split" : (parts[0]?.[0] ?? "cash"),
        cashReceived: cash?.received ?? null,
        change: cash?.change ?? null,
        createdAt: when,
      })
      .returning();
    if (!row) throw new Error("no checkout");
    await database.db.insert(checkoutPayments).values(
      parts.map(([method, amount]) => ({
        salonId: salon.id,
        checkoutId: row.id,
        method,
        amount,
      })),
    );
    return booking;
  };
  await checkout(at(DAY, "10:40"), 5500, [["cash", 5500]], { received: 10000, change: 4500 });
  await checkout(at(DAY, "12:10"), 8800, [["card", 8800]]);
  await checkout(
    at(DAY, "15:00"),
    5000,
    [
      ["cash", 3000],
      ["qr", 2000],
    ],
    { received: 3000, change: 0 },
  );
  const prepaid = await checkout(at(DAY, "19:59"), 4400, [["prepaid", 4400]]);
  // Outside the day: the evening before and just after midnight.
  await checkout(at("2026-11-19", "23:59"), 1100, [["cash", 1100]], { received: 1100, change: 0 });
  await checkout(at("2026-11-21", "00:00"), 2200, [["card", 2200]]);
  const [paid] = await database.db
    .insert(payments)
    .values({
      salonId: salon.id,
      bookingId: prepaid.id,
      kind: "deposit",
      amount: 4400,
      status: "refunded",
      idempotencyKey: `deposit:${prepaid.id}`,
      settledAt: at("2026-11-18", "10:00"),
    })
    .returning();
  await database.db.insert(payments).values({
    salonId: salon.id,
    bookingId: prepaid.id,
    kind: "refund",
    amount: 1000,
    status: "succeeded",
    idempotencyKey: `refund:${paid?.id}:1`,
    refundOf: paid?.id ?? null,
    settledAt: at(DAY, "18:00"),
  });
  const page = `/owner/salons/${salon.id}/day-close`;
  return { salon, stylist, env, owner, b: owner.b, page, checkout };
}

const dayRow = async (salonId: string, date = DAY) => {
  const [row] = await database.db
    .select()
    .from(dayCloses)
    .where(and(eq(dayCloses.salonId, salonId), eq(dayCloses.date, date)));
  return row;
};

const readPage = async (b: { request: (path: string) => Promise<Response> }, path: string) => {
  const response = await b.request(path);
  return {
    status: response.status,
    data: ((await response.json()) as Body<DayClosePageData>).loaderData,
  };
};

describe("readCloseInput: what a manager enters, bounded, in Japanese", () => {
  const today = "2026-11-29";
  const input = { date: DAY, openingFloat: "", countedCash: "", note: "", seen: "" };
  it("refuses a missing, negative, fractional or too large amount and a future date", () => {
    expect(readCloseInput(input, today)).toEqual({
      ok: false,
      errors: { countedCash: "実際に数えた現金の額を入力してください。" },
    });
    for (const countedCash of ["-1", "1.5", "abc", "100000001"]) {
      const read = readCloseInput({ ...input, countedCash }, today);
      expect(read.ok ? null : read.errors.countedCash, countedCash).toBe(
        "実際の現金は0〜100,000,000円の整数（半角数字）で入力してください。",
      );
    }
    const read = readCloseInput(
      {
        ...input,
        date: "2026-11-30",
        openingFloat: "1000001",
        countedCash: "0",
        note: "あ".repeat(201),
      },
      today,
    );
    expect(read).toEqual({
      ok: false,
      errors: {
        date: "まだ来ていない日は締められません。今日までの日付を選んでください。",
        openingFloat: "釣銭準備金は0〜1,000,000円の整数（半角数字）で入力してください。",
        note: "メモは200文字以内で入力してください。",
      },
    });
    expect(readCloseInput({ ...input, date: "2026-02-30", countedCash: "0" }, today)).toMatchObject(
      {
        ok: false,
        errors: { date: expect.stringMatching(/実在する日付/) },
      },
    );
  });

  it("reads full-width digits, commas and 円; an empty float is 0", () => {
    expect(
      readCloseInput({ ...input, countedCash: "２８，０００円", note: " 釣り銭ミス " }, today),
    ).toEqual({
      ok: true,
      date: DAY,
      openingFloat: 0,
      countedCash: 28000,
      note: "釣り銭ミス",
    });
  });
});

describe("the 日計 page /owner/salons/:id/day-close", () => {
  it("adds up the day's 会計 by method (組み合わせ split into its parts), in the salon's day", async () => {
    const s = await scene();
    const { status, data } = await readPage(s.b, `${s.page}?date=${DAY}`);
    expect(status).toBe(200);
    expect(data.figures).toEqual({
      checkoutCount: 4,
      salesTotal: 23700,
      cashAmount: 8500,
      cardAmount: 8800,
      qrAmount: 2000,
      prepaidAmount: 4400,
      cashReceived: 13000,
      changeGiven: 4500,
      refundCount: 1,
      refundAmount: 1000,
    });
    expect(data.dateLabel).toBe("2026年11月20日(金)");
    expect(data.checkouts.map((c) => [c.time, c.totalLabel, c.methodLabel])).toEqual([
      ["10:40", "￥5,500", "現金"],
      ["12:10", "￥8,800", "カード"],
      ["15:00", "￥5,000", "組み合わせ"],
      ["19:59", "￥4,400", "事前決済（オンラインで支払い済み）"],
    ]);
    expect(data.close).toBeNull();
    // A day without 会計: zeros, nothing listed.
    const empty = await readPage(s.b, `${s.page}?date=2026-11-10`);
    expect(empty.data.figures.checkoutCount).toBe(0);
    expect(empty.data.checkouts).toEqual([]);
    // A bad date: 400 with the message, today's page below it.
    const bad = await readPage(s.b, `${s.page}?date=2026-13-01`);
    expect(bad.status).toBe(400);
    expect(bad.data.dateError).toMatch(/実在する日付/);
  });

  it("closes the day with the cash counted: 過不足 stored, audited, shown with who and when; a second close is refused", async () => {
    const s = await scene();
    const { data } = await readPage(s.b, `${s.page}?date=${DAY}`);
    const bad = await s.b.request(
      s.page,
      postForm({
        intent: "close",
        date: DAY,
        seen: data.seen,
        openingFloat: "20000",
        countedCash: "-5",
      }),
    );
    expect(bad.status).toBe(400);
    const refused = (await bad.json()) as Body<unknown>;
    expect(refused.actionData?.errors).toEqual({
      countedCash: "実際の現金は0〜100,000,000円の整数（半角数字）で入力してください。",
    });
    expect(refused.actionData?.values).toMatchObject({ openingFloat: "20000", countedCash: "-5" });
    expect(await dayRow(s.salon.id)).toBeUndefined();

    const closed = await s.b.request(
      s.page,
      postForm({
        intent: "close",
        date: DAY,
        seen: data.seen,
        openingFloat: "20,000",
        countedCash: "28000",
        note: "500円不足",
      }),
    );
    expect(closed.status).toBe(302);
    expect(closed.headers.get("location")).toBe(`${s.page}?date=${DAY}&saved=closed`);
    expect(await dayRow(s.salon.id)).toMatchObject({
      status: "closed",
      salesTotal: 23700,
      cashAmount: 8500,
      openingFloat: 20000,
      expectedCash: 28500,
      countedCash: 28000,
      difference: -500,
      note: "500円不足",
      closedBy: s.owner.userId,
    });
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.salonId, s.salon.id), eq(auditLog.action, "dayclose.close")));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after).toMatchObject({ date: DAY, expectedCash: 28500, difference: -500 });

    const after = await readPage(s.b, `${s.page}?date=${DAY}&saved=closed`);
    expect(after.data.saved).toBe("日計を締めました。");
    expect(after.data.close).toMatchObject({
      status: "closed",
      countedCash: 28000,
      difference: -500,
      closedBy: "山田 花子",
      changedSince: false,
    });
    expect(after.data.close?.closedAtLabel).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日\(.\) \d\d:\d\d$/);

    const again = await s.b.request(
      s.page,
      postForm({ intent: "close", date: DAY, seen: data.seen, countedCash: "28500" }),
    );
    expect(again.status).toBe(409);
    expect(((await again.json()) as Body<unknown>).actionData?.errors).toEqual({
      form: "この日はすでに締められています。締め直すには、先に「締めを取り消す」を押してください。",
    });
    expect((await dayRow(s.salon.id))?.countedCash).toBe(28000);
  });

  it("a 会計 saved after the page was read refuses the close; one saved after closing shows as a change; reopen and close again, audited", async () => {
    const s = await scene();
    const { data } = await readPage(s.b, `${s.page}?date=${DAY}`);
    await s.checkout(at(DAY, "19:30"), 3300, [["cash", 3300]], { received: 5000, change: 1700 });
    const stale = await s.b.request(
      s.page,
      postForm({ intent: "close", date: DAY, seen: data.seen, countedCash: "8500" }),
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as Body<unknown>).actionData?.errors).toMatchObject({
      form: expect.stringMatching(/会計が登録されたため/),
    });
    expect(await dayRow(s.salon.id)).toBeUndefined();

    const fresh = await readPage(s.b, `${s.page}?date=${DAY}`);
    expect(fresh.data.figures.cashAmount).toBe(11800);
    const closed = await s.b.request(
      s.page,
      postForm({ intent: "close", date: DAY, seen: fresh.data.seen, countedCash: "11800" }),
    );
    expect(closed.status).toBe(302);
    expect((await dayRow(s.salon.id))?.difference).toBe(0);

    await s.checkout(at(DAY, "19:45"), 1100, [["card", 1100]]);
    const changed = await readPage(s.b, `${s.page}?date=${DAY}`);
    expect(changed.data.close?.changedSince).toBe(true);
    expect(changed.data.close?.figures.salesTotal).toBe(27000);
    expect(changed.data.figures.salesTotal).toBe(28100);

    const reopened = await s.b.request(s.page, postForm({ intent: "reopen", date: DAY }));
    expect(reopened.status).toBe(302);
    expect(await dayRow(s.salon.id)).toMatchObject({
      status: "reopened",
      reopenedBy: s.owner.userId,
    });
    const twice = await s.b.request(s.page, postForm({ intent: "reopen", date: DAY }));
    expect(twice.status).toBe(409);

    const reclosed = await s.b.request(
      s.page,
      postForm({ intent: "close", date: DAY, seen: changed.data.seen, countedCash: "11800" }),
    );
    expect(reclosed.status).toBe(302);
    expect(await dayRow(s.salon.id)).toMatchObject({
      status: "closed",
      salesTotal: 28100,
      cardAmount: 9900,
      difference: 0,
    });
    const actions = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.salonId, s.salon.id))
      .orderBy(auditLog.createdAt, auditLog.id);
    expect(actions.map((a) => a.action)).toEqual([
      "dayclose.close",
      "dayclose.reopen",
      "dayclose.close",
    ]);
  });

  it("refuses a day still to come", async () => {
    const s = await scene();
    const response = await s.b.request(
      s.page,
      postForm({ intent: "close", date: "2099-12-31", seen: "", countedCash: "0" }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as Body<unknown>).actionData?.errors).toEqual({
      date: "まだ来ていない日は締められません。今日までの日付を選んでください。",
    });
  });

  it("is a manager's and an owner's: reception and a stylist get the 404, page and post", async () => {
    const s = await scene();
    const { data } = await readPage(s.b, `${s.page}?date=${DAY}`);
    const body = postForm({ intent: "close", date: DAY, seen: data.seen, countedCash: "28500" });
    for (const role of ["reception", "stylist"] as const) {
      const member = await signedInMember(database, s.env, role);
      await database.db.insert(salonMembers).values({
        salonId: s.salon.id,
        userId: member.userId,
        role,
        staffId: role === "stylist" ? s.stylist.id : null,
      });
      expect((await member.b.request(s.page)).status, role).toBe(404);
      expect((await member.b.request(s.page, body)).status, role).toBe(404);
      expect(
        (await member.b.request(s.page, postForm({ intent: "reopen", date: DAY }))).status,
      ).toBe(404);
    }
    expect(await dayRow(s.salon.id)).toBeUndefined();
    const manager = await signedInMember(database, s.env, "manager");
    await database.db
      .insert(salonMembers)
      .values({ salonId: s.salon.id, userId: manager.userId, role: "manager" });
    expect((await manager.b.request(`${s.page}?date=${DAY}`)).status).toBe(200);
    expect((await manager.b.request(s.page, body)).status).toBe(302);
    expect((await dayRow(s.salon.id))?.closedBy).toBe(manager.userId);
  });

  it.skipIf(transactionsTakeTurns)(
    "two managers closing the same day at once: one close, the other refused (PostgreSQL)",
    async () => {
      const s = await scene();
      const users = [];
      for (const name of ["m1", "m2"]) {
        const member = await signedInMember(database, s.env, name);
        await database.db
          .insert(salonMembers)
          .values({ salonId: s.salon.id, userId: member.userId, role: "manager" });
        users.push(member.userId);
      }
      const f = await dayFigures(database.db, s.salon.id, s.salon.timeZone, DAY);
      const outcomes = await Promise.allSettled(
        users.map(async (userId, index) => {
          const access = await salonAccessFor(
            database.db,
            { id: userId, role: "user", emailVerified: true } as never,
            s.salon.id,
          );
          if (!access) throw new Error("no access");
          return closeDay(
            database.db,
            access,
            {
              date: DAY,
              openingFloat: "0",
              countedCash: String(8500 + index),
              note: "",
              seen: figuresFingerprint(f),
            },
            new Date(),
          );
        }),
      );
      const won = outcomes.filter((o) => o.status === "fulfilled");
      const lost = outcomes.filter((o) => o.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const reason = (lost[0] as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(DayCloseRefusedError);
      expect((reason as DayCloseRefusedError).status).toBe(409);
      const closes = await database.db
        .select()
        .from(dayCloses)
        .where(eq(dayCloses.salonId, s.salon.id));
      expect(closes).toHaveLength(1);
      const audits = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.salonId, s.salon.id), eq(auditLog.action, "dayclose.close")));
      expect(audits).toHaveLength(1);
    },
  );
});
