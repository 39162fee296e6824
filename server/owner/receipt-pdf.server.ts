import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { Database } from "../db/client";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { type Receipt, receiptPage } from "./checkout.server";

/**
 * The 領収書 as a PDF (issue 40 §4; decision 0083): the same receipt the
 * page prints (receiptOf), drawn by pdfkit in Noto Sans JP. pdfkit embeds
 * only the glyphs used (a subset), so a receipt is a few tens of KB although
 * each font file is 5 MB; the files come from the npm package and are read
 * once per process. Server-only: nothing here reaches the browser.
 */

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf",
} as const;

let fonts: Promise<{ regular: Buffer; bold: Buffer }> | null = null;

function loadFonts() {
  fonts ??= Promise.all([
    readFile(require.resolve(FONT_FILES.regular)),
    readFile(require.resolve(FONT_FILES.bold)),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return fonts;
}

/** A5 portrait, in points (148 × 210 mm). */
const PAGE = { width: 419.53, height: 595.28, margin: 36 };

/** The receipt's file name: its number, ASCII only. */
export function receiptPdfFilename(receipt: Pick<Receipt, "receiptNumber">): string {
  return `receipt-${receipt.receiptNumber.replace(/[^\w-]/g, "")}.pdf`;
}

/** The PDF bytes of one 領収書. */
export async function receiptPdf(receipt: Receipt, now: Date): Promise<Uint8Array<ArrayBuffer>> {
  const { regular, bold } = await loadFonts();
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    info: {
      Title: `領収書 No.${receipt.receiptNumber}`,
      Author: receipt.salonName,
      Producer: "Salon Navi",
      Creator: "Salon Navi",
      CreationDate: now,
    },
    lang: "ja-JP",
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  draw(doc, receipt);
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

function draw(doc: PDFKit.PDFDocument, r: Receipt) {
  const left = PAGE.margin;
  const width = PAGE.width - PAGE.margin * 2;
  const right = left + width;

  doc.font("bold").fontSize(22).text("領収書", left, PAGE.margin, {
    width,
    // No character spacing: a reader's search and copy find 領収書 as one word.
    align: "center",
  });
  doc.moveDown(0.8);
  doc
    .font("regular")
    .fontSize(13)
    .text(r.customerName ? `${r.customerName} 様` : "　　　　　　　　様", left, doc.y, { width });
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(right, doc.y + 2)
    .lineWidth(0.8)
    .stroke();
  doc.moveDown(1);
  doc.font("bold").fontSize(24).text(r.totalLabel, left, doc.y, { width, align: "center" });
  doc
    .font("regular")
    .fontSize(9)
    .text("（税込）上記正に領収いたしました", left, doc.y, { width, align: "center" });
  doc.moveDown(0.8);
  doc.fontSize(9).text(`日付　${r.dateLabel}`, left, doc.y, { width });
  doc.text(`No.　${r.receiptNumber}`, left, doc.y, { width });
  doc.moveDown(0.8);

  // 明細: 品目, 数量, 金額.
  const qtyX = left + width * 0.62;
  const qtyWidth = width * 0.12;
  const amountX = qtyX + qtyWidth;
  const amountWidth = right - amountX;
  const row = (
    name: string,
    quantity: string,
    amount: string,
    font: "regular" | "bold" = "regular",
  ) => {
    const y = doc.y;
    doc.font(font).fontSize(9);
    doc.text(name, left, y, { width: qtyX - left - 6 });
    const after = doc.y;
    doc.text(quantity, qtyX, y, { width: qtyWidth, align: "right" });
    doc.text(amount, amountX, y, { width: amountWidth, align: "right" });
    doc.y = Math.max(after, doc.y) + 2;
  };
  const rule = (weight = 0.5) => {
    doc
      .moveTo(left, doc.y)
      .lineTo(right, doc.y)
      .lineWidth(weight)
      .strokeColor("#555555")
      .stroke()
      .strokeColor("#000000");
    doc.y += 3;
  };
  row("品目", "数量", "金額", "bold");
  rule();
  for (const line of r.lines) row(line.name, String(line.quantity), line.amountLabel);
  rule();

  // Totals: label on the left, amount on the right (`split`: the label's share of the width).
  const total = (
    label: string,
    amount: string,
    font: "regular" | "bold" = "regular",
    split = 0.6,
  ) => {
    const y = doc.y;
    doc.font(font).fontSize(font === "bold" ? 11 : 9);
    doc.text(label, left, y, { width: width * split });
    const after = doc.y;
    doc.text(amount, left + width * split, y, { width: width * (1 - split), align: "right" });
    doc.y = Math.max(after, doc.y) + 2;
  };
  total("小計", r.subtotalLabel);
  if (r.discountLabel) total("割引", r.discountLabel);
  total("合計（税込）", r.totalLabel, "bold");
  total(`（10%対象 ${r.totalLabel}）内消費税`, r.taxLabel);
  // The method may be long (事前決済（オンラインで支払い済み）): its amount column is wider.
  total("お支払い方法", r.methodLabel, "regular", 0.3);
  if (r.payments.length > 1) {
    for (const part of r.payments) total(`　${part.label}`, part.amountLabel);
  }
  if (r.cashReceivedLabel) {
    total("お預かり", r.cashReceivedLabel);
    total("お釣り", r.changeLabel ?? "");
  }

  doc.moveDown(1.2);
  doc.font("bold").fontSize(10).text(r.salonName, left, doc.y, { width });
  doc.font("regular").fontSize(8.5);
  doc.text(`〒${r.postalCode} ${r.address}`, left, doc.y, { width });
  if (r.phone) doc.text(`TEL ${r.phone}`, left, doc.y, { width });
  if (r.invoiceNumber) doc.text(`登録番号 ${r.invoiceNumber}`, left, doc.y, { width });
  if (r.staffName) doc.text(`担当 ${r.staffName}`, left, doc.y, { width });
}

/**
 * GET …/bookings/{bookingId}/receipt.pdf for someone the route let in: the
 * PDF of this salon's 会計 for the booking; before its 会計, a redirect to
 * the receipt page (which says 会計未登録 and links the form); null for a
 * booking that is not this salon's, which the route answers with the 404.
 */
export async function receiptPdfResponse(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  url: URL,
  now: Date,
): Promise<Response | null> {
  const page = await receiptPage(db, access, bookingId, url);
  if (!page) return null;
  const receiptPath = `/owner/salons/${access.salon.id}/bookings/${page.bookingId}/receipt`;
  if (!page.receipt) return new Response(null, { status: 302, headers: { Location: receiptPath } });
  const body = await receiptPdf(page.receipt, now);
  return new Response(body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${receiptPdfFilename(page.receipt)}"`,
      "Content-Length": String(body.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
