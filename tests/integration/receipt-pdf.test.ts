import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import * as checkoutRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.checkout";
import * as receiptRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.receipt";
import * as receiptPdfRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId.receipt[.pdf]";
import { bookingMenus, salonMembers, salonOwners, salons } from "../../server/db/schema";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The 領収書 as a PDF (issue 40 §4; decision 0083): fetched through the
 * real route, parsed by a PDF reader (unpdf, PDF.js), its text read back;
 * the same people as the receipt page may open it, no one else.
 */
const database = withTestDatabase();

const routes = () =>
  createRouteApp(database, [
    { path: "/owner/salons/:id/bookings/:bookingId/checkout", module: checkoutRoute },
    { path: "/owner/salons/:id/bookings/:bookingId/receipt", module: receiptRoute },
    { path: "/owner/salons/:id/bookings/:bookingId/receipt.pdf", module: receiptPdfRoute },
  ]);

/** A salon (with a registration number or not), its owner, and a visit of カット 5,500 begun 30 minutes ago. */
async function scene({ invoiceNumber = null }: { invoiceNumber?: string | null } = {}) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 1 });
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  await database.db.update(salons).set({ invoiceNumber }).where(eq(salons.id, salon.id));
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
    source: "phone",
    customerName: "領収 花子",
    customerKana: "リョウシュウ ハナコ",
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
  return { salon, stylist, env, owner, booking, base };
}

async function checkOut(s: Awaited<ReturnType<typeof scene>>) {
  const saved = await s.owner.b.request(
    `${s.base}/checkout`,
    postForm({
      intent: "save",
      version: String(s.booking.version),
      "menuPrice.0": "5500",
      discount: "0",
      method: "cash",
      cashReceived: "10000",
    }),
  );
  expect(saved.status).toBe(302);
}

/** The PDF's text, as a reader extracts it (whitespace collapsed). */
async function pdfText(bytes: ArrayBuffer) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text, totalPages } = await extractText(pdf, { mergePages: true });
  return { totalPages, text: text.replace(/\s+/g, " ") };
}

describe("the 領収書 PDF /owner/salons/:id/bookings/:bookingId/receipt.pdf", () => {
  it("is a PDF of the 会計: the salon, the date, the items, the total with 内消費税, the method, the registration number", async () => {
    const s = await scene({ invoiceNumber: "T1234567890123" });
    await checkOut(s);
    // The receipt page links it.
    const page = await s.owner.b.request(`${s.base}/receipt`);
    expect(page.status).toBe(200);

    const response = await s.owner.b.request(`${s.base}/receipt.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="receipt-${s.booking.bookingNumber}.pdf"`,
    );
    const bytes = await response.arrayBuffer();
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    // The font is embedded as a subset: a 5 MB font file, a small receipt.
    expect(bytes.byteLength).toBeLessThan(60_000);

    const { totalPages, text } = await pdfText(bytes);
    expect(totalPages).toBe(1);
    expect(text).toContain("領収書");
    expect(text).toContain("領収 花子 様");
    expect(text).toContain(s.salon.name);
    expect(text).toMatch(/日付 \d{4}年\d{1,2}月\d{1,2}日\(.\)/);
    expect(text).toContain(`No. ${s.booking.bookingNumber}`);
    expect(text).toMatch(/カット 1 ￥5,500/);
    expect(text).toMatch(/合計（税込） ￥5,500/);
    // floor(5,500 × 10 / 110) = 500.
    expect(text).toMatch(/内消費税 ￥500/);
    expect(text).toMatch(/お支払い方法 現金/);
    expect(text).toMatch(/お預かり ￥10,000 お釣り ￥4,500/);
    expect(text).toContain("登録番号 T1234567890123");
  });

  it("says no registration number when the salon has none", async () => {
    const s = await scene();
    await checkOut(s);
    const response = await s.owner.b.request(`${s.base}/receipt.pdf`);
    expect(response.status).toBe(200);
    const { text } = await pdfText(await response.arrayBuffer());
    expect(text).toContain("内消費税");
    expect(text).not.toContain("登録番号");
  });

  it("is for those who may take 会計: the 404 for a stylist and another salon's owner; a guest signs in", async () => {
    const s = await scene();
    // Before the 会計: the receipt page, which says 会計未登録.
    const early = await s.owner.b.request(`${s.base}/receipt.pdf`);
    expect(early.status).toBe(302);
    expect(early.headers.get("location")).toBe(`${s.base}/receipt`);
    await checkOut(s);

    const reception = await signedInMember(database, s.env, "reception");
    await database.db
      .insert(salonMembers)
      .values({ salonId: s.salon.id, userId: reception.userId, role: "reception" });
    expect((await reception.b.request(`${s.base}/receipt.pdf`)).status).toBe(200);

    const stylist = await signedInMember(database, s.env, "stylist");
    await database.db.insert(salonMembers).values({
      salonId: s.salon.id,
      userId: stylist.userId,
      role: "stylist",
      staffId: s.stylist.id,
    });
    expect((await stylist.b.request(`${s.base}/receipt.pdf`)).status).toBe(404);

    const other = await scene();
    const theirs = await other.owner.b.request(`${s.base}/receipt.pdf`);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get("content-type")).not.toBe("application/pdf");
    // This booking under their own salon's id.
    const underTheirs = `/owner/salons/${other.salon.id}/bookings/${s.booking.id}/receipt.pdf`;
    expect((await other.owner.b.request(underTheirs)).status).toBe(404);

    const guest = await s.env.app.request(`${s.base}/receipt.pdf`);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toMatch(/^\/signin\?redirect=/);
  });
});
