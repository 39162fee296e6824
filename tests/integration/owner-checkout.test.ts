import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as checkoutRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.checkout";
import * as receiptRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.receipt";
import * as productsRoute from "../../app/routes/owner.salons.$id.products";
import { salonActor } from "../../server/bookings/booking-history.server";
import {
  auditLog,
  bookingEvents,
  bookingMenus,
  bookings,
  checkoutLines,
  checkoutPayments,
  checkouts,
  products,
  salonMembers,
  salonOwners,
  salons,
} from "../../server/db/schema";
import { BookingActionRefusedError, undoStatus } from "../../server/owner/booking-actions.server";
import {
  type CheckoutInput,
  type CheckoutPageData,
  computeCheckout,
  type ReceiptPageData,
  saveCheckout,
} from "../../server/owner/checkout.server";
import { salonAccessFor } from "../../server/salon-access/salon-access.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildMenu, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const routes = () =>
  createRouteApp(database, [
    { path: "/owner/salons/:id/bookings/:bookingId/checkout", module: checkoutRoute },
    { path: "/owner/salons/:id/bookings/:bookingId/receipt", module: receiptRoute },
    { path: "/owner/salons/:id/products", module: productsRoute },
  ]);

const blankInput = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
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

const booked = {
  menus: [
    { menuId: "00000000-0000-4000-8000-000000000001", name: "カット", price: 5500 },
    { menuId: "00000000-0000-4000-8000-000000000002", name: "カラー", price: 4400 },
  ],
  nominationFee: 550,
  totalPrice: 9950,
};
const shampoo = { id: "00000000-0000-4000-8000-0000000000aa", name: "シャンプー", price: 3300 };

describe("computeCheckout: the amounts come from the server, every one bounded", () => {
  it("prefills the booked prices, adds retail items, computes 内消費税 and the change", () => {
    const result = computeCheckout(
      booked,
      blankInput({
        menuPrices: ["５，０００", ""],
        discount: "500",
        quantities: { [shampoo.id]: "2" },
        cashReceived: "20000",
      }),
      [shampoo],
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const f = result.figures;
    expect(f.lines.map((l) => [l.kind, l.name, l.unitPrice, l.quantity, l.amount])).toEqual([
      ["menu", "カット", 5000, 1, 5000],
      ["menu", "カラー", 4400, 1, 4400],
      ["nomination", "指名料", 550, 1, 550],
      ["product", "シャンプー", 3300, 2, 6600],
    ]);
    expect(f.subtotal).toBe(16550);
    expect(f.total).toBe(16050);
    // floor(16050 × 10 / 110) = floor(1459.09…)
    expect(f.tax).toBe(1459);
    expect(f.payments).toEqual([{ method: "cash", amount: 16050 }]);
    expect(f.cashReceived).toBe(20000);
    expect(f.change).toBe(3950);
  });

  it("refuses out-of-range amounts with Japanese messages per field", () => {
    const result = computeCheckout(
      booked,
      blankInput({
        menuPrices: ["abc", "2000000"],
        nominationFee: "-1",
        quantities: { [shampoo.id]: "100" },
        method: "bitcoin",
      }),
      [shampoo],
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      "menu.0": "「カット」の金額は0〜1,000,000円の半角数字で入力してください。",
      "menu.1": "「カラー」の金額は0〜1,000,000円の半角数字で入力してください。",
      nominationFee: "指名料は0〜1,000,000円の半角数字で入力してください。",
      [`product.${shampoo.id}`]: "「シャンプー」の数量は0〜99の半角数字で入力してください。",
      method: "お支払い方法を選んでください。",
    });
    const tooMuch = computeCheckout(booked, blankInput({ discount: "12000" }), []);
    expect(tooMuch).toEqual({
      ok: false,
      errors: { discount: "割引は小計（￥10,450）以下にしてください。" },
    });
    const gone = computeCheckout(booked, blankInput({ quantities: { [shampoo.id]: "1" } }), []);
    expect(gone.ok ? null : gone.errors.products).toMatch(/販売を終了した商品/);
  });

  it("組み合わせ: the parts must add up to the total; cash short of its part is refused", () => {
    const short = computeCheckout(
      booked,
      blankInput({ method: "split", parts: { cash: "5000", card: "4000", qr: "", prepaid: "" } }),
      [],
    );
    expect(short).toEqual({
      ok: false,
      errors: {
        parts: "支払い方法ごとの金額の合計（￥9,000）が合計金額（￥10,450）と合いません。",
      },
    });
    const single = computeCheckout(
      booked,
      blankInput({ method: "split", parts: { cash: "10450", card: "", qr: "", prepaid: "" } }),
      [],
    );
    expect(single.ok ? null : single.errors.parts).toMatch(/2つ以上/);
    const cashShort = computeCheckout(
      booked,
      blankInput({
        method: "split",
        parts: { cash: "5000", card: "5450", qr: "", prepaid: "" },
        cashReceived: "4000",
      }),
      [],
    );
    expect(cashShort.ok ? null : cashShort.errors.cashReceived).toBe(
      "お預かり金額が現金でのお支払い額（￥5,000）に足りません。",
    );
    const fine = computeCheckout(
      booked,
      blankInput({
        method: "split",
        parts: { cash: "5000", card: "5450", qr: "", prepaid: "" },
        cashReceived: "10000",
      }),
      [],
    );
    if (!fine.ok) throw new Error(JSON.stringify(fine.errors));
    expect(fine.figures.payments).toEqual([
      { method: "cash", amount: 5000 },
      { method: "card", amount: 5450 },
    ]);
    expect(fine.figures.change).toBe(5000);
    // No cash part: no amount received, no change.
    const card = computeCheckout(booked, blankInput({ method: "card", cashReceived: "99999" }), []);
    expect(card.ok && [card.figures.cashReceived, card.figures.change]).toEqual([null, null]);
  });
});

/**
 * A salon with カット 5,500 and カラー 4,400, its owner signed in, a product,
 * and a phone booking of both menus (a 500-yen coupon: 9,400) that started
 * half an hour ago (the pages read the real clock).
 */
async function scene(options: { startsIn?: number } = {}) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 1 });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const color = await buildMenu(database.db, salon.id, {
    name: "カラー",
    price: 4400,
    durationMinutes: 30,
  });
  const env = routes();
  const owner = await signedInMember(database, env, "owner");
  await setRole(database.db, owner.email, "owner");
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
  const startsAt = new Date(Date.now() + (options.startsIn ?? -30) * 60_000);
  const booking = await buildBooking(database.db, {
    salonId: salon.id,
    staffId: stylist.id,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 90 * 60_000),
    status: "confirmed",
    source: "phone",
    customerName: "会計 花子",
    customerKana: "カイケイ ハナコ",
    totalPrice: 9400,
  });
  await database.db.insert(bookingMenus).values([
    {
      salonId: salon.id,
      bookingId: booking.id,
      position: 0,
      menuId: menu.id,
      name: "カット",
      price: 5500,
      durationMinutes: 60,
    },
    {
      salonId: salon.id,
      bookingId: booking.id,
      position: 1,
      menuId: color.id,
      name: "カラー",
      price: 4400,
      durationMinutes: 30,
    },
  ]);
  const [product] = await database.db
    .insert(products)
    .values({ salonId: salon.id, name: "ヘアオイル", price: 2200 })
    .returning();
  if (!product) throw new Error("no product");
  const base = `/owner/salons/${salon.id}/bookings/${booking.id}`;
  return { salon, stylist, env, owner, b: owner.b, booking, product, base };
}

type Body<T> = { status: number; loaderData: T; actionData: Record<string, unknown> | null };

const checkoutRows = (bookingId: string) =>
  database.db.select().from(checkouts).where(eq(checkouts.bookingId, bookingId));

const bookingRow = async (id: string) => {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error("no booking");
  return row;
};

describe("the 会計 page /owner/salons/:id/bookings/:bookingId/checkout", () => {
  it("prefills the booked menus and the coupon's discount; bad input is a 400 with messages, nothing saved", async () => {
    const s = await scene();
    const page = await s.b.request(`${s.base}/checkout`);
    expect(page.status).toBe(200);
    const { loaderData } = (await page.json()) as Body<CheckoutPageData>;
    expect(loaderData.refusal).toBeNull();
    expect(loaderData.booking).toMatchObject({
      version: s.booking.version,
      menus: [
        { name: "カット", price: 5500 },
        { name: "カラー", price: 4400 },
      ],
      bookedDiscount: 500,
    });
    expect(loaderData.products).toEqual([
      { id: s.product.id, name: "ヘアオイル", priceLabel: "￥2,200" },
    ]);

    const bad = await s.b.request(
      `${s.base}/checkout`,
      postForm({
        intent: "save",
        version: String(s.booking.version),
        "menuPrice.0": "５５００００００",
        "menuPrice.1": "4400",
        discount: "500",
        method: "cash",
        cashReceived: "100",
      }),
    );
    expect(bad.status).toBe(400);
    const refused = (await bad.json()) as Body<unknown>;
    expect(refused.actionData?.errors).toEqual({
      "menu.0": "「カット」の金額は0〜1,000,000円の半角数字で入力してください。",
    });
    // What was typed comes back to the form.
    expect(refused.actionData?.values).toMatchObject({ cashReceived: "100", discount: "500" });
    expect(await checkoutRows(s.booking.id)).toEqual([]);
    expect((await bookingRow(s.booking.id)).status).toBe("confirmed");
  });

  it("計算する shows the server's figures and saves nothing; a tampered total is not read", async () => {
    const s = await scene();
    const response = await s.b.request(
      `${s.base}/checkout`,
      postForm({
        intent: "preview",
        version: String(s.booking.version),
        "menuPrice.0": "5500",
        "menuPrice.1": "4400",
        discount: "500",
        [`qty.${s.product.id}`]: "1",
        method: "cash",
        cashReceived: "20000",
        total: "1",
        tax: "0",
      }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Body<unknown>;
    expect(body.actionData?.preview).toMatchObject({
      totalLabel: "￥11,600",
      taxLabel: "￥1,054",
      changeLabel: "￥8,400",
    });
    expect(await checkoutRows(s.booking.id)).toEqual([]);
  });

  it("saves the 会計 and completes the visit in the same transaction, audited; the receipt shows it; a second is refused", async () => {
    const s = await scene();
    // The registration number: a wrong format is refused in Japanese, then saved.
    const wrong = await s.b.request(
      `/owner/salons/${s.salon.id}/products`,
      postForm({ intent: "invoice", invoiceNumber: "T123" }),
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as Body<unknown>).actionData?.errors).toEqual({
      invoiceNumber: "登録番号は「T」と13桁の数字で入力してください（例：T1234567890123）。",
    });
    const saved = await s.b.request(
      `/owner/salons/${s.salon.id}/products`,
      postForm({ intent: "invoice", invoiceNumber: "ｔ1234567890123" }),
    );
    expect(saved.status).toBe(302);
    const [salon] = await database.db.select().from(salons).where(eq(salons.id, s.salon.id));
    expect(salon?.invoiceNumber).toBe("T1234567890123");

    const response = await s.b.request(
      `${s.base}/checkout`,
      postForm({
        intent: "save",
        version: String(s.booking.version),
        "menuPrice.0": "5000",
        "menuPrice.1": "4400",
        discount: "0",
        [`qty.${s.product.id}`]: "2",
        method: "cash",
        cashReceived: "15000",
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${s.base}/receipt?done=1`);

    const [checkout] = await checkoutRows(s.booking.id);
    expect(checkout).toMatchObject({
      subtotal: 13800,
      discount: 0,
      total: 13800,
      tax: 1254,
      method: "cash",
      cashReceived: 15000,
      change: 1200,
      createdBy: s.owner.userId,
    });
    if (!checkout) throw new Error("no checkout");
    const lines = await database.db
      .select()
      .from(checkoutLines)
      .where(eq(checkoutLines.checkoutId, checkout.id))
      .orderBy(checkoutLines.position);
    expect(lines.map((l) => [l.name, l.listPrice, l.unitPrice, l.quantity, l.amount])).toEqual([
      ["カット", 5500, 5000, 1, 5000],
      ["カラー", 4400, 4400, 1, 4400],
      ["ヘアオイル", 2200, 2200, 2, 4400],
    ]);
    const row = await bookingRow(s.booking.id);
    expect(row.status).toBe("completed");
    expect(row.version).toBe(s.booking.version + 1);
    const events = await database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, s.booking.id));
    expect(events.map((e) => e.kind)).toContain("completed");
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "checkout.create"), eq(auditLog.targetId, s.booking.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.after).toMatchObject({ total: 13800, method: "cash" });

    const receipt = await s.b.request(`${s.base}/receipt?done=1`);
    expect(receipt.status).toBe(200);
    const { loaderData } = (await receipt.json()) as Body<ReceiptPageData>;
    expect(loaderData.done).toBe(true);
    expect(loaderData.receipt).toMatchObject({
      salonName: "Hair Salon TEST",
      postalCode: "150-0001",
      address: "東京都渋谷区神宮前1-1-1",
      invoiceNumber: "T1234567890123",
      customerName: "会計 花子",
      totalLabel: "￥13,800",
      taxLabel: "￥1,254",
      methodLabel: "現金",
      cashReceivedLabel: "￥15,000",
      changeLabel: "￥1,200",
      lines: [
        { name: "カット", quantity: 1, amountLabel: "￥5,000" },
        { name: "カラー", quantity: 1, amountLabel: "￥4,400" },
        { name: "ヘアオイル", quantity: 2, amountLabel: "￥4,400" },
      ],
    });
    expect(loaderData.receipt?.dateLabel).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日\(.\)$/);

    // A second 会計 (the page re-posted, or another counter) is refused; nothing changes.
    const again = await s.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "save", version: String(row.version), method: "card" }),
    );
    expect(again.status).toBe(409);
    expect(((await again.json()) as Body<unknown>).actionData?.errors).toEqual({
      form: "この予約の会計はすでに登録されています。領収書を確認してください。",
    });
    expect(await checkoutRows(s.booking.id)).toHaveLength(1);

    // 施術完了 is not taken back while a 会計 stands.
    await expect(
      undoStatus(
        database.db,
        { salonId: s.salon.id, bookingId: s.booking.id, version: row.version, undo: "completed" },
        salonActor(s.owner.userId),
        new Date(),
      ),
    ).rejects.toThrow(BookingActionRefusedError);
    expect((await bookingRow(s.booking.id)).status).toBe("completed");
  });

  it("組み合わせ is saved part by part; a stale version is refused (409) and writes nothing", async () => {
    const s = await scene();
    const stale = await s.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "save", version: String(s.booking.version + 5), method: "card" }),
    );
    expect(stale.status).toBe(409);
    expect(await checkoutRows(s.booking.id)).toEqual([]);
    const response = await s.b.request(
      `${s.base}/checkout`,
      postForm({
        intent: "save",
        version: String(s.booking.version),
        discount: "500",
        method: "split",
        "part.card": "6000",
        "part.qr": "3400",
      }),
    );
    expect(response.status).toBe(302);
    const [checkout] = await checkoutRows(s.booking.id);
    expect(checkout).toMatchObject({ total: 9400, method: "split", cashReceived: null });
    const parts = await database.db
      .select({ method: checkoutPayments.method, amount: checkoutPayments.amount })
      .from(checkoutPayments)
      .where(eq(checkoutPayments.checkoutId, checkout?.id ?? ""));
    expect(parts.sort((a, b) => a.amount - b.amount)).toEqual([
      { method: "qr", amount: 3400 },
      { method: "card", amount: 6000 },
    ]);
  });

  it("is refused before the visit (not arrived, not started); the receipt says 会計未登録", async () => {
    const s = await scene({ startsIn: 120 });
    const page = (await (await s.b.request(`${s.base}/checkout`)).json()) as Body<CheckoutPageData>;
    expect(page.loaderData.refusal).toBe(
      "会計は、来店を記録してから、または予約の開始時刻を過ぎてから登録できます。",
    );
    const post = await s.b.request(
      `${s.base}/checkout`,
      postForm({ intent: "save", version: String(s.booking.version), method: "card" }),
    );
    expect(post.status).toBe(422);
    expect(await checkoutRows(s.booking.id)).toEqual([]);
    const receipt = (await (
      await s.b.request(`${s.base}/receipt`)
    ).json()) as Body<ReceiptPageData>;
    expect(receipt.loaderData.receipt).toBeNull();
  });

  it("reception may take 会計; a stylist and another salon's owner get the 404", async () => {
    const s = await scene();
    const reception = await signedInMember(database, s.env, "reception");
    await database.db
      .insert(salonMembers)
      .values({ salonId: s.salon.id, userId: reception.userId, role: "reception" });
    expect((await reception.b.request(`${s.base}/checkout`)).status).toBe(200);
    // The product list is the menus' kind of page: not reception's.
    expect((await reception.b.request(`/owner/salons/${s.salon.id}/products`)).status).toBe(404);

    const stylist = await signedInMember(database, s.env, "stylist");
    await database.db.insert(salonMembers).values({
      salonId: s.salon.id,
      userId: stylist.userId,
      role: "stylist",
      staffId: s.stylist.id,
    });
    const body = { intent: "save", version: String(s.booking.version), method: "card" };
    expect((await stylist.b.request(`${s.base}/checkout`)).status).toBe(404);
    expect((await stylist.b.request(`${s.base}/checkout`, postForm(body))).status).toBe(404);
    expect((await stylist.b.request(`${s.base}/receipt`)).status).toBe(404);

    const other = await scene();
    // Another salon's owner, on this salon's booking, and this booking under their salon.
    expect((await other.b.request(`${s.base}/checkout`, postForm(body))).status).toBe(404);
    expect(
      (
        await other.b.request(
          `/owner/salons/${other.salon.id}/bookings/${s.booking.id}/checkout`,
          postForm(body),
        )
      ).status,
    ).toBe(404);
    expect(await checkoutRows(s.booking.id)).toEqual([]);
  });
});

describe("the product list /owner/salons/:id/products", () => {
  it("adds and changes items with bounded fields; an item off sale leaves the 会計 form", async () => {
    const s = await scene();
    const path = `/owner/salons/${s.salon.id}/products`;
    const bad = await s.b.request(path, postForm({ intent: "add", name: "", price: "1000001" }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Body<unknown>).actionData?.errors).toEqual({
      name: "商品名を入力してください。",
      price: "価格（税込）は0〜1,000,000円の半角数字で入力してください。",
    });
    const added = await s.b.request(
      path,
      postForm({ intent: "add", name: "ワックス", price: "1,650" }),
    );
    expect(added.status).toBe(302);
    const [wax] = await database.db
      .select()
      .from(products)
      .where(and(eq(products.salonId, s.salon.id), eq(products.name, "ワックス")));
    expect(wax?.price).toBe(1650);
    const off = await s.b.request(
      path,
      postForm({ intent: "update", productId: s.product.id, name: "ヘアオイル", price: "2200" }),
    );
    expect(off.status).toBe(302);
    const page = (await (await s.b.request(`${s.base}/checkout`)).json()) as Body<CheckoutPageData>;
    expect(page.loaderData.products.map((p) => p.name)).toEqual(["ワックス"]);
    // Posting the retired item's quantity anyway is refused.
    const post = await s.b.request(
      `${s.base}/checkout`,
      postForm({
        intent: "save",
        version: String(s.booking.version),
        [`qty.${s.product.id}`]: "1",
        method: "card",
      }),
    );
    expect(post.status).toBe(400);
    const audits = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.salonId, s.salon.id));
    expect(audits.map((a) => a.action).sort()).toEqual(["product.create", "product.update"]);
  });
});

describe("saveCheckout's transaction", () => {
  /** The owner's access as the guard gives it (the same read: salonAccessFor). */
  const accessOf = async (s: Awaited<ReturnType<typeof scene>>) => {
    const user = {
      id: s.owner.userId,
      email: s.owner.email,
      emailVerified: true,
      name: "山田 花子",
      role: "owner" as const,
      profile: null,
    };
    const access = await salonAccessFor(database.db, user, s.salon.id);
    if (!access) throw new Error("no access");
    return access;
  };
  const input = (version: number): CheckoutInput =>
    blankInput({ version: String(version), method: "card" });

  it("writes no 会計 when the completion in the same transaction fails", async () => {
    const s = await scene();
    const access = await accessOf(s);
    const run = (statement: string) => database.db.execute(sql.raw(statement));
    // The completion's history entry fails: the 会計 written before it must go too.
    await run(`create function test_refuse_completed() returns trigger language plpgsql as $$
      begin
        if new.kind = 'completed' then raise exception 'completion refused by the test'; end if;
        return new;
      end $$`);
    await run(`create trigger test_refuse_completed before insert on booking_events
      for each row execute function test_refuse_completed()`);
    try {
      await expect(
        saveCheckout(database.db, access, s.booking.id, input(s.booking.version), new Date()),
      ).rejects.toThrow();
    } finally {
      await run("drop trigger test_refuse_completed on booking_events");
      await run("drop function test_refuse_completed()");
    }
    expect(await checkoutRows(s.booking.id)).toEqual([]);
    expect((await bookingRow(s.booking.id)).status).toBe("confirmed");
    // Without the fault, the same call saves both.
    await saveCheckout(database.db, access, s.booking.id, input(s.booking.version), new Date());
    expect(await checkoutRows(s.booking.id)).toHaveLength(1);
    expect((await bookingRow(s.booking.id)).status).toBe("completed");
  });

  it.skipIf(transactionsTakeTurns)(
    "two counters at once: one 会計, the other refused",
    async () => {
      const s = await scene();
      const access = await accessOf(s);
      const results = await Promise.allSettled([
        saveCheckout(database.db, access, s.booking.id, input(s.booking.version), new Date()),
        saveCheckout(database.db, access, s.booking.id, input(s.booking.version), new Date()),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [refused] = results.filter((r) => r.status === "rejected");
      // The loser waited on the row lock and met the bumped version (409) or the 会計 (409).
      expect((refused as PromiseRejectedResult).reason.status).toBe(409);
      expect(await checkoutRows(s.booking.id)).toHaveLength(1);
    },
  );
});
