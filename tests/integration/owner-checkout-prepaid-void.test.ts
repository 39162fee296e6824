import { and, eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import * as checkoutRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.checkout";
import * as receiptRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.receipt";
import * as receiptPdfRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.receipt[.pdf]";
import * as csvRoute from "../../app/routes/owner.salons.$id.bookings.csv";
import * as dayCloseRoute from "../../app/routes/owner.salons.$id.day-close";
import { toLocal } from "../../common/local-time";
import {
  auditLog,
  bookingMenus,
  bookings,
  checkoutPayments,
  checkouts,
  dayCloses,
  payments,
  salonMembers,
  salonOwners,
} from "../../server/db/schema";
import {
  type CheckoutInput,
  type CheckoutPageData,
  computeCheckout,
  type ReceiptPageData,
  voidCheckout,
} from "../../server/owner/checkout.server";
import {
  closeDay,
  type DayClosePageData,
  dayFigures,
  figuresFingerprint,
  reopenDay,
} from "../../server/owner/day-close.server";
import { salonAccessFor } from "../../server/salon-access/salon-access.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * 会計 and the online payments (issue 40; decision 0085): what was paid
 * online in advance is the 事前決済 part of the 会計, computed by the server
 * (a typed one is not read), shown on the form, the receipt, its PDF and the
 * 日計 apart from the cash; and a saved 会計 voided (取消) by a manager with a
 * reason, audited, then taken again — refused while its day is closed.
 */
const database = withTestDatabase();

const routes = () =>
  createRouteApp(database, [
    { path: "/owner/salons/:id/bookings/:bookingId/checkout", module: checkoutRoute },
    { path: "/owner/salons/:id/bookings/:bookingId/receipt", module: receiptRoute },
    { path: "/owner/salons/:id/bookings/:bookingId/receipt.pdf", module: receiptPdfRoute },
    { path: "/owner/salons/:id/day-close", module: dayCloseRoute },
    { path: "/owner/salons/:id/bookings.csv", module: csvRoute },
  ]);

type Body<T> = { status: number; loaderData: T; actionData: Record<string, unknown> | null };

const blank = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
  version: "1",
  menuPrices: [],
  nominationFee: "",
  discount: "",
  quantities: {},
  method: "cash",
  parts: { cash: "", card: "", qr: "", prepaid: "" },
  cashReceived: "",
  ...overrides,
});

const booked = (prepaid: number) => ({
  menus: [{ menuId: "00000000-0000-4000-8000-000000000001", name: "カット", price: 5500 }],
  nominationFee: 0,
  totalPrice: 5500,
  prepaid,
});

describe("computeCheckout with what was paid online", () => {
  it("counts the 事前決済 first and asks the rest at the counter; a typed 事前決済 part is not read", () => {
    const cash = computeCheckout(booked(1100), blank({ cashReceived: "5000" }), []);
    if (!cash.ok) throw new Error(JSON.stringify(cash.errors));
    expect(cash.figures).toMatchObject({
      total: 5500,
      prepaid: 1100,
      due: 4400,
      overpaid: 0,
      method: "split",
      payments: [
        { method: "prepaid", amount: 1100 },
        { method: "cash", amount: 4400 },
      ],
      cashReceived: 5000,
      change: 600,
    });
    // 組み合わせ of the rest: the parts add up to what is due; a typed 事前決済 part is ignored.
    const split = computeCheckout(
      booked(1100),
      blank({ method: "split", parts: { cash: "2000", card: "2400", qr: "", prepaid: "99999" } }),
      [],
    );
    if (!split.ok) throw new Error(JSON.stringify(split.errors));
    expect(split.figures.payments).toEqual([
      { method: "prepaid", amount: 1100 },
      { method: "cash", amount: 2000 },
      { method: "card", amount: 2400 },
    ]);
    const short = computeCheckout(
      booked(1100),
      blank({ method: "split", parts: { cash: "3000", card: "2500", qr: "", prepaid: "" } }),
      [],
    );
    expect(short.ok ? null : short.errors.parts).toBe(
      "支払い方法ごとの金額の合計（￥5,500）が、事前決済を除いたお店でのお支払い額（￥4,400）と合いません。",
    );
  });

  it("refuses 事前決済 as the counter's method; paid in full online, nothing is asked; more than the total is said", () => {
    const none = computeCheckout(booked(0), blank({ method: "prepaid" }), []);
    expect(none.ok ? null : none.errors.method).toBe(
      "この予約にはオンラインでの事前決済がありません。別のお支払い方法を選んでください。",
    );
    const partly = computeCheckout(booked(1100), blank({ method: "prepaid" }), []);
    expect(partly.ok ? null : partly.errors.method).toMatch(/お店でのお支払い（￥4,400）の方法/);
    const full = computeCheckout(booked(5500), blank({ method: "bitcoin" }), []);
    if (!full.ok) throw new Error(JSON.stringify(full.errors));
    expect(full.figures).toMatchObject({
      method: "prepaid",
      payments: [{ method: "prepaid", amount: 5500 }],
      due: 0,
      cashReceived: null,
    });
    // A discount at the counter below what was prepaid: never negative, the difference said.
    const less = computeCheckout(booked(5500), blank({ discount: "1000" }), []);
    if (!less.ok) throw new Error(JSON.stringify(less.errors));
    expect(less.figures).toMatchObject({
      total: 4500,
      prepaid: 4500,
      due: 0,
      overpaid: 1000,
      payments: [{ method: "prepaid", amount: 4500 }],
    });
  });
});

/** A salon, its owner, a visit of カット 5,500 begun 30 minutes ago, with its payments. */
async function scene() {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 1 });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const env = routes();
  const owner = await signedInMember(database, env, "owner");
  await setRole(database.db, owner.email, "owner");
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
  const startsAt = new Date(Date.now() - 30 * 60_000);
  const booking = await buildBooking(database.db, {
    salonId: salon.id,
    staffId: stylist.id,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 60 * 60_000),
    status: "confirmed",
    customerName: "前払 花子",
    totalPrice: 5500,
  });
  await database.db.insert(bookingMenus).values({
    salonId: salon.id,
    bookingId: booking.id,
    position: 0,
    menuId: menu.id,
    name: "カット",
    price: 5500,
    durationMinutes: 60,
  });
  const base = `/owner/salons/${salon.id}/bookings/${booking.id}`;
  const member = async (role: "manager" | "reception") => {
    const m = await signedInMember(database, env, role);
    await database.db.insert(salonMembers).values({ salonId: salon.id, userId: m.userId, role });
    return m;
  };
  return { salon, env, owner, booking, base, member };
}

/** A 予約金 of 2,200 paid online, 500 of it refunded, and a キャンセル料 that is not the visit's. */
async function paidOnline(s: Awaited<ReturnType<typeof scene>>) {
  const [deposit] = await database.db
    .insert(payments)
    .values({
      salonId: s.salon.id,
      bookingId: s.booking.id,
      kind: "deposit",
      amount: 2200,
      status: "refunded",
      idempotencyKey: `deposit:${s.booking.id}`,
      settledAt: new Date(Date.now() - 86_400_000),
    })
    .returning();
  await database.db.insert(payments).values([
    {
      salonId: s.salon.id,
      bookingId: s.booking.id,
      kind: "refund",
      amount: 500,
      status: "succeeded",
      refundOf: deposit?.id ?? null,
      idempotencyKey: `refund:${deposit?.id}:1`,
      settledAt: new Date(Date.now() - 3_600_000),
    },
    {
      salonId: s.salon.id,
      bookingId: s.booking.id,
      kind: "fee",
      amount: 3000,
      status: "succeeded",
      feeWindow: "same_day",
      idempotencyKey: `fee:${s.booking.id}:late_cancel`,
      settledAt: new Date(Date.now() - 3_600_000),
    },
  ]);
}

const save = (s: Awaited<ReturnType<typeof scene>>, fields: Record<string, string>) =>
  s.owner.b.request(
    `${s.base}/checkout`,
    postForm({ intent: "save", "menuPrice.0": "5500", discount: "0", ...fields }),
  );

const version = async (id: string) => {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  return String(row?.version ?? -1);
};

async function pdfText(bytes: ArrayBuffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

describe("the 会計 of a booking paid online in advance", () => {
  it("shows 事前決済 済み, records it as the server computes it (tampered amounts ignored), on the receipt, its PDF and the 日計 apart from cash", async () => {
    const s = await scene();
    await paidOnline(s);
    const page = await s.owner.b.request(`${s.base}/checkout`);
    const { loaderData } = (await page.json()) as Body<CheckoutPageData>;
    // 2,200 paid, 500 refunded; the キャンセル料 is not part of the visit.
    expect(loaderData.prepaid).toEqual({
      amountLabel: "￥1,700",
      bookedDueLabel: "￥3,800",
      overpaidLabel: null,
    });
    expect(loaderData.methods.map((m) => m.value)).not.toContain("prepaid");

    const saved = await save(s, {
      version: await version(s.booking.id),
      method: "cash",
      cashReceived: "4000",
      // What a tampered form might send: none of it is read.
      "part.prepaid": "5500",
      prepaid: "5500",
      total: "1",
    });
    expect(saved.status).toBe(302);
    const [checkout] = await database.db
      .select()
      .from(checkouts)
      .where(eq(checkouts.bookingId, s.booking.id));
    expect(checkout).toMatchObject({
      total: 5500,
      method: "split",
      cashReceived: 4000,
      change: 200,
    });
    const parts = await database.db
      .select({ method: checkoutPayments.method, amount: checkoutPayments.amount })
      .from(checkoutPayments)
      .where(eq(checkoutPayments.checkoutId, checkout?.id ?? ""));
    expect(parts.sort((a, b) => a.method.localeCompare(b.method))).toEqual([
      { method: "cash", amount: 3800 },
      { method: "prepaid", amount: 1700 },
    ]);

    const receipt = (await (
      await s.owner.b.request(`${s.base}/receipt`)
    ).json()) as Body<ReceiptPageData>;
    expect(receipt.loaderData.receipt?.payments).toEqual([
      { label: "現金", amountLabel: "￥3,800" },
      { label: "事前決済（オンラインで支払い済み）", amountLabel: "￥1,700" },
    ]);
    const pdf = await pdfText(
      await (await s.owner.b.request(`${s.base}/receipt.pdf`)).arrayBuffer(),
    );
    expect(pdf).toMatch(/事前決済（オンラインで支払い済み） ￥1,700/);

    const day = (await (
      await s.owner.b.request(`/owner/salons/${s.salon.id}/day-close`)
    ).json()) as Body<DayClosePageData>;
    expect(day.loaderData.figures).toMatchObject({
      salesTotal: 5500,
      cashAmount: 3800,
      prepaidAmount: 1700,
    });
  });

  it("paid in full online: nothing asked at the counter; a total below it says how much to refund", async () => {
    const s = await scene();
    await database.db.insert(payments).values({
      salonId: s.salon.id,
      bookingId: s.booking.id,
      kind: "full",
      amount: 5500,
      status: "succeeded",
      idempotencyKey: `full:${s.booking.id}`,
      settledAt: new Date(),
    });
    const preview = await s.owner.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "preview", version: "1", "menuPrice.0": "5000", discount: "0" }),
    );
    expect(((await preview.json()) as Body<unknown>).actionData?.preview).toMatchObject({
      totalLabel: "￥5,000",
      prepaidLabel: "￥5,000",
      dueLabel: "￥0",
      overpaidLabel: "￥500",
    });
    const saved = await save(s, { version: await version(s.booking.id), "menuPrice.0": "5000" });
    expect(saved.status).toBe(302);
    const [checkout] = await database.db
      .select()
      .from(checkouts)
      .where(eq(checkouts.bookingId, s.booking.id));
    expect(checkout).toMatchObject({ total: 5000, method: "prepaid", cashReceived: null });
  });
});

describe("取消 of a saved 会計", () => {
  it("a manager voids it with a reason (audited), it is taken again; reception may not; reports, CSV and 日計 follow", async () => {
    const s = await scene();
    expect((await save(s, { version: await version(s.booking.id), method: "card" })).status).toBe(
      302,
    );
    const reception = await s.member("reception");
    const receptionPage = (await (
      await reception.b.request(`${s.base}/checkout`)
    ).json()) as Body<CheckoutPageData>;
    expect(receptionPage.loaderData.canVoid).toBe(false);
    const forged = await reception.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "間違い" }),
    );
    expect(forged.status).toBe(404);

    const manager = await s.member("manager");
    const managerPage = (await (
      await manager.b.request(`${s.base}/checkout`)
    ).json()) as Body<CheckoutPageData>;
    expect(managerPage.loaderData.canVoid).toBe(true);
    const noReason = await manager.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "  " }),
    );
    expect(noReason.status).toBe(400);
    expect(((await noReason.json()) as Body<unknown>).actionData?.errors).toEqual({
      reason: "取り消しの理由を入力してください。",
    });
    const tooLong = await manager.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "あ".repeat(201) }),
    );
    expect(tooLong.status).toBe(400);
    expect(
      await database.db.select().from(checkouts).where(eq(checkouts.bookingId, s.booking.id)),
    ).toHaveLength(1);

    const voided = await manager.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "カードではなく現金でした" }),
    );
    expect(voided.status).toBe(302);
    expect(voided.headers.get("location")).toBe(`${s.base}/checkout?voided=1`);
    expect(
      await database.db.select().from(checkouts).where(eq(checkouts.bookingId, s.booking.id)),
    ).toEqual([]);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "checkout.void"), eq(auditLog.targetId, s.booking.id)));
    expect(entry?.actorUserId).toBe(manager.userId);
    expect(entry?.before).toMatchObject({
      total: 5500,
      method: "card",
      payments: [{ method: "card", amount: 5500 }],
      lines: [{ name: "カット", amount: 5500 }],
    });
    expect(entry?.after).toEqual({ reason: "カードではなく現金でした" });
    // The visit stays completed; the receipt says 会計未登録; 日計 and the CSV follow.
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, s.booking.id));
    expect(row?.status).toBe("completed");
    const receipt = (await (
      await s.owner.b.request(`${s.base}/receipt`)
    ).json()) as Body<ReceiptPageData>;
    expect(receipt.loaderData.receipt).toBeNull();
    const day = async () =>
      (
        (await (
          await s.owner.b.request(`/owner/salons/${s.salon.id}/day-close`)
        ).json()) as Body<DayClosePageData>
      ).loaderData;
    expect((await day()).figures).toMatchObject({ checkoutCount: 0, cardAmount: 0 });
    const today = toLocal(new Date(), s.salon.timeZone).date;
    const csv = async () =>
      (
        await s.owner.b.request(
          `/owner/salons/${s.salon.id}/bookings.csv?from=${today}&to=${today}`,
        )
      ).text();
    expect(await csv()).toContain("会計未登録（金額は予約時の見込み）");

    // Taken again, right this time.
    const again = await save(s, {
      version: await version(s.booking.id),
      method: "cash",
      cashReceived: "10000",
    });
    expect(again.status).toBe(302);
    expect((await day()).figures).toMatchObject({
      checkoutCount: 1,
      cashAmount: 5500,
      cardAmount: 0,
    });
    expect(await csv()).toMatch(/会計済み,5500,500,現金/);
  });

  it("a 会計 of a closed day is refused in Japanese until the day is reopened", async () => {
    const s = await scene();
    expect((await save(s, { version: await version(s.booking.id), method: "card" })).status).toBe(
      302,
    );
    const dayPath = `/owner/salons/${s.salon.id}/day-close`;
    const { loaderData } = (await (
      await s.owner.b.request(dayPath)
    ).json()) as Body<DayClosePageData>;
    const closed = await s.owner.b.request(
      dayPath,
      postForm({ intent: "close", date: loaderData.date, countedCash: "0", seen: loaderData.seen }),
    );
    expect(closed.status).toBe(302);
    const refused = await s.owner.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "金額の誤り" }),
    );
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Body<unknown>).actionData?.errors).toEqual({
      void: expect.stringMatching(
        /^この会計の日（\d{4}年\d{1,2}月\d{1,2}日\(.\)）の日計は締められています。取り消すには、店長またはオーナーが日計で「締めを取り消す」を押してから/,
      ),
    });
    expect(
      await database.db.select().from(checkouts).where(eq(checkouts.bookingId, s.booking.id)),
    ).toHaveLength(1);

    const reopened = await s.owner.b.request(
      dayPath,
      postForm({ intent: "reopen", date: loaderData.date }),
    );
    expect(reopened.status).toBe(302);
    const voided = await s.owner.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "void", reason: "金額の誤り" }),
    );
    expect(voided.status).toBe(302);
    // The reopened day shows the change against its close.
    const after = (await (await s.owner.b.request(dayPath)).json()) as Body<DayClosePageData>;
    expect(after.loaderData.close?.changedSince).toBe(true);
  });

  const accessOf = async (s: Awaited<ReturnType<typeof scene>>) => {
    const access = await salonAccessFor(
      database.db,
      {
        id: s.owner.userId,
        email: s.owner.email,
        emailVerified: true,
        name: "山田 花子",
        role: "owner",
        profile: null,
      },
      s.salon.id,
    );
    if (!access) throw new Error("no access");
    return access;
  };

  it.skipIf(transactionsTakeTurns)(
    "two voids at once: one voids, the other is told it is gone; a void and a re-close at once: never a close counting a voided 会計",
    async () => {
      const s = await scene();
      expect((await save(s, { version: await version(s.booking.id), method: "card" })).status).toBe(
        302,
      );
      const access = await accessOf(s);
      const twice = await Promise.allSettled([
        voidCheckout(database.db, access, s.booking.id, "二重の登録", new Date()),
        voidCheckout(database.db, access, s.booking.id, "二重の登録", new Date()),
      ]);
      expect(twice.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [refused] = twice.filter((r) => r.status === "rejected");
      expect((refused as PromiseRejectedResult).reason.status).toBe(409);

      // Taken again, the day closed and reopened; then a void and the re-close race.
      expect((await save(s, { version: await version(s.booking.id), method: "card" })).status).toBe(
        302,
      );
      const now = new Date();
      const date = toLocal(now, s.salon.timeZone).date;
      const seen = async () =>
        figuresFingerprint(await dayFigures(database.db, s.salon.id, s.salon.timeZone, date));
      const close = async () =>
        closeDay(
          database.db,
          access,
          { date, openingFloat: "", countedCash: "0", note: "", seen: await seen() },
          new Date(),
        );
      await close();
      await reopenDay(database.db, access, date, new Date());
      const fingerprint = await seen();
      const race = await Promise.allSettled([
        voidCheckout(database.db, access, s.booking.id, "金額の誤り", new Date()),
        closeDay(
          database.db,
          access,
          { date, openingFloat: "", countedCash: "0", note: "", seen: fingerprint },
          new Date(),
        ),
      ]);
      expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [row] = await database.db
        .select()
        .from(dayCloses)
        .where(and(eq(dayCloses.salonId, s.salon.id), eq(dayCloses.date, date)));
      const left = await database.db
        .select()
        .from(checkouts)
        .where(eq(checkouts.bookingId, s.booking.id));
      // Either the void won (the close refused: the figures moved) or the close did (the void
      // refused: the day is closed, and the 会計 it counted stands).
      if (row?.status === "closed") {
        expect(left).toHaveLength(1);
        expect(row.checkoutCount).toBe(1);
      } else {
        expect(row?.status).toBe("reopened");
        expect(left).toEqual([]);
      }
    },
  );
});
