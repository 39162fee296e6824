import { and, asc, eq } from "drizzle-orm";
import { checkoutBounds, INVOICE_NUMBER } from "../../common/checkout";
import { formatYen } from "../../common/format";
import { isUuid } from "../../common/uuid";
import { changedFields, recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { products, salons } from "../db/schema";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";

/**
 * The salon's retail items (店販) for 会計, and the 適格請求書発行事業者
 * registration number its receipts print (issue 40, §4; decision 0079).
 * Items are never deleted (a 会計 keeps its own copy of the name and
 * price); 販売終了 takes one off the 会計 form. Every change is audited.
 */

export type ProductsPageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  products: { id: string; name: string; price: number; priceLabel: string; active: boolean }[];
  invoiceNumber: string;
  saved: string | null;
};

const savedMessages: Record<string, string> = {
  added: "商品を追加しました。",
  updated: "商品を変更しました。",
  invoice: "登録番号を保存しました。",
};

export async function productsPage(
  db: Database,
  access: SalonAccess,
  url: URL,
): Promise<ProductsPageData> {
  const rows = await db
    .select()
    .from(products)
    .where(eq(products.salonId, access.salon.id))
    .orderBy(asc(products.name), asc(products.id));
  const [salon] = await db
    .select({ invoiceNumber: salons.invoiceNumber })
    .from(salons)
    .where(eq(salons.id, access.salon.id));
  const saved = url.searchParams.get("saved");
  return {
    salon: ownerPageSalon(access),
    products: rows.map((p) => ({
      id: p.id,
      name: p.name,
      price: p.price,
      priceLabel: formatYen(p.price),
      active: p.active,
    })),
    invoiceNumber: salon?.invoiceNumber ?? "",
    saved: saved ? (savedMessages[saved] ?? null) : null,
  };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Full-width digits and letters made half-width (what a Japanese keyboard often sends). */
const halfWidth = (value: string) =>
  value.replace(/[Ａ-Ｚａ-ｚ０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));

export type ProductFormOutcome =
  | { ok: true; saved: "added" | "updated" | "invoice" }
  | {
      ok: false;
      status: number;
      intent: string;
      errors: Record<string, string>;
      values: Record<string, string>;
    };

function readProduct(form: FormData) {
  const name = text(form, "name").trim();
  const rawPrice = halfWidth(text(form, "price").trim()).replace(/[,，]/g, "");
  const errors: Record<string, string> = {};
  const { max } = checkoutBounds.productName;
  if (name === "") errors.name = "商品名を入力してください。";
  else if (name.length > max) errors.name = `商品名は${max}文字以内で入力してください。`;
  const price = /^\d{1,9}$/.test(rawPrice) ? Number(rawPrice) : null;
  const bound = checkoutBounds.productPrice;
  if (price === null || price < bound.min || price > bound.max) {
    errors.price = `価格（税込）は${bound.min}〜${bound.max.toLocaleString("ja-JP")}円の半角数字で入力してください。`;
  }
  return {
    name,
    price,
    errors,
    values: { name: name.slice(0, 200), price: rawPrice.slice(0, 20) },
  };
}

/** One post of the page: intent add | update | invoice. */
export async function submitProductsForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<ProductFormOutcome> {
  const salonId = access.salon.id;
  const intent = text(form, "intent");
  const refused = (errors: Record<string, string>, values: Record<string, string>, status = 400) =>
    ({ ok: false, status, intent: intent.slice(0, 20), errors, values }) as const;
  if (intent === "invoice") {
    const raw = halfWidth(text(form, "invoiceNumber").trim()).toUpperCase().replace(/-/g, "");
    if (raw !== "" && !INVOICE_NUMBER.test(raw)) {
      return refused(
        { invoiceNumber: "登録番号は「T」と13桁の数字で入力してください（例：T1234567890123）。" },
        { invoiceNumber: raw.slice(0, 40) },
      );
    }
    const value = raw === "" ? null : raw;
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ invoiceNumber: salons.invoiceNumber })
        .from(salons)
        .where(eq(salons.id, salonId))
        .for("update");
      await tx.update(salons).set({ invoiceNumber: value }).where(eq(salons.id, salonId));
      const diff = changedFields(
        { invoiceNumber: before?.invoiceNumber ?? null },
        { invoiceNumber: value },
      );
      if (diff) {
        await recordAudit(
          tx,
          {
            actorUserId: access.user.id,
            action: "salon.invoice_number",
            targetType: "salon",
            targetId: salonId,
            salonId,
            ...diff,
          },
          now,
        );
      }
    });
    return { ok: true, saved: "invoice" };
  }
  if (intent === "add") {
    const read = readProduct(form);
    if (read.price === null || Object.keys(read.errors).length > 0) {
      return refused(read.errors, read.values);
    }
    const price = read.price;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(products)
        .values({ salonId, name: read.name, price, createdAt: now, updatedAt: now })
        .returning({ id: products.id });
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "product.create",
          targetType: "product",
          targetId: row?.id ?? "",
          salonId,
          after: { name: read.name, price },
        },
        now,
      );
    });
    return { ok: true, saved: "added" };
  }
  if (intent === "update") {
    const id = text(form, "productId");
    const read = readProduct(form);
    const active = text(form, "active") === "on";
    if (read.price === null || Object.keys(read.errors).length > 0) {
      return refused(read.errors, { ...read.values, productId: id.slice(0, 40) });
    }
    const price = read.price;
    const found = await db.transaction(async (tx) => {
      if (!isUuid(id)) return false;
      const [before] = await tx
        .select()
        .from(products)
        .where(and(eq(products.id, id), eq(products.salonId, salonId)))
        .for("update");
      if (!before) return false;
      const after = { name: read.name, price, active };
      await tx
        .update(products)
        .set({ ...after, updatedAt: now })
        .where(eq(products.id, id));
      const diff = changedFields(
        { name: before.name, price: before.price, active: before.active },
        after,
      );
      if (diff) {
        await recordAudit(
          tx,
          {
            actorUserId: access.user.id,
            action: "product.update",
            targetType: "product",
            targetId: id,
            salonId,
            ...diff,
          },
          now,
        );
      }
      return true;
    });
    if (!found) {
      return refused({ form: "商品が見つかりません。画面を読み込み直してください。" }, {}, 404);
    }
    return { ok: true, saved: "updated" };
  }
  return refused({ form: "操作の種類が正しくありません。画面を読み込み直してください。" }, {});
}
