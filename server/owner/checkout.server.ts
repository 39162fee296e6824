import { and, asc, eq, inArray } from "drizzle-orm";
import {
  type CheckoutLineKind,
  type CheckoutMethod,
  checkoutBounds,
  checkoutMethodLabels,
  checkoutMethods,
  type PaymentMethod,
  paymentMethods,
  taxIncluded,
} from "../../common/checkout";
import { formatDate, formatYen } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { recordAudit } from "../audit/audit";
import { leftOf } from "../bookings/booking-fees.server";
import { salonActor } from "../bookings/booking-history.server";
import type { Database } from "../db/client";
import {
  bookingMenus,
  bookings,
  checkoutLines,
  checkoutPayments,
  checkouts,
  dayCloses,
  payments,
  prefectures,
  products,
  salons,
  users,
} from "../db/schema";
import { sqlState, UNIQUE_VIOLATION } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { can, ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import {
  BookingActionRefusedError,
  BookingNotFoundForSalonError,
  checkVersion,
  completeLocked,
  lockBooking,
} from "./booking-actions.server";

/**
 * 会計 at the counter (issue 40, §4; decision 0079): what a visit was
 * actually paid. The form sends only what a person decides — each menu's
 * final price, the discount, how many of each retail item, the method and
 * its parts, the cash handed over; every amount the server can compute
 * (products' prices, line amounts, the total, 内消費税, the change) is
 * computed here from the booking and the product list, never read from the
 * browser. Saving writes the 会計 and completes the visit (施術完了, the one
 * completion path) in one transaction; a second 会計 for the booking is
 * refused.
 */

type Booked = {
  menus: { menuId: string; name: string; price: number }[];
  nominationFee: number;
  totalPrice: number;
  /**
   * Yen paid online in advance and still kept (全額事前決済 or 予約金, less
   * refunds; decision 0085): counted as the 事前決済 part, never typed.
   */
  prepaid?: number;
};

export type CheckoutProduct = { id: string; name: string; price: number };

/** What the person entered, as read from the form (numbers still raw text). */
export type CheckoutInput = {
  version: string;
  /** Final price per booked menu, by position. */
  menuPrices: string[];
  nominationFee: string;
  discount: string;
  /** Quantity per product id (empty or 0: none). */
  quantities: Record<string, string>;
  method: string;
  /** 組み合わせ: the amount per method. */
  parts: Record<PaymentMethod, string>;
  cashReceived: string;
};

export type CheckoutLine = {
  kind: CheckoutLineKind;
  itemId: string | null;
  name: string;
  listPrice: number;
  unitPrice: number;
  quantity: number;
  amount: number;
};

export type CheckoutFigures = {
  lines: CheckoutLine[];
  subtotal: number;
  discount: number;
  total: number;
  tax: number;
  method: CheckoutMethod;
  payments: { method: PaymentMethod; amount: number }[];
  cashReceived: number | null;
  change: number | null;
  /** The 事前決済 part: what was paid online, at most the total. */
  prepaid: number;
  /** What is paid at the counter: the total less the 事前決済 part (never negative). */
  due: number;
  /** What was paid online beyond the total (the salon refunds it from the booking detail). */
  overpaid: number;
};

export type CheckoutErrors = Record<string, string>;

/** Half- or full-width digits, commas and a trailing 円 allowed; else null. */
function yenOf(raw: string): number | null {
  const text = raw
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/g, "")
    .replace(/円$/, "");
  if (!/^\d{1,9}$/.test(text)) return null;
  return Number(text);
}

const yenRange = (max: number) => `0〜${max.toLocaleString("ja-JP")}円`;

/**
 * The 会計 from what was entered, or the messages of what is wrong, field
 * by field (menu.N, nominationFee, discount, product.ID, method,
 * part.METHOD, cashReceived, total). Pure: the tests call it directly.
 */
export function computeCheckout(
  booked: Booked,
  input: CheckoutInput,
  productList: readonly CheckoutProduct[],
): { ok: true; figures: CheckoutFigures } | { ok: false; errors: CheckoutErrors } {
  const errors: CheckoutErrors = {};
  const maxLine = checkoutBounds.linePrice.max;
  const lines: CheckoutLine[] = [];
  booked.menus.forEach((menu, index) => {
    const raw = input.menuPrices[index] ?? "";
    const price = raw.trim() === "" ? menu.price : yenOf(raw);
    if (price === null || price > maxLine) {
      errors[`menu.${index}`] =
        `「${menu.name}」の金額は${yenRange(maxLine)}の半角数字で入力してください。`;
      return;
    }
    lines.push({
      kind: "menu",
      itemId: menu.menuId,
      name: menu.name,
      listPrice: menu.price,
      unitPrice: price,
      quantity: 1,
      amount: price,
    });
  });
  if (booked.nominationFee > 0) {
    const raw = input.nominationFee;
    const fee = raw.trim() === "" ? booked.nominationFee : yenOf(raw);
    if (fee === null || fee > maxLine) {
      errors.nominationFee = `指名料は${yenRange(maxLine)}の半角数字で入力してください。`;
    } else if (fee > 0) {
      lines.push({
        kind: "nomination",
        itemId: null,
        name: "指名料",
        listPrice: booked.nominationFee,
        unitPrice: fee,
        quantity: 1,
        amount: fee,
      });
    }
  }
  const byId = new Map(productList.map((p) => [p.id, p]));
  let productLines = 0;
  for (const [id, raw] of Object.entries(input.quantities)) {
    const product = byId.get(id);
    const text = raw.trim();
    if (text === "" || text === "0") continue;
    if (!product) {
      errors.products = "販売を終了した商品が含まれています。画面を読み込み直してください。";
      continue;
    }
    const quantity = yenOf(text);
    const { min, max } = checkoutBounds.quantity;
    if (quantity === null || quantity < min || quantity > max) {
      errors[`product.${id}`] =
        `「${product.name}」の数量は0〜${max}の半角数字で入力してください。`;
      continue;
    }
    productLines += 1;
    lines.push({
      kind: "product",
      itemId: product.id,
      name: product.name,
      listPrice: product.price,
      unitPrice: product.price,
      quantity,
      amount: product.price * quantity,
    });
  }
  if (productLines > checkoutBounds.productLines) {
    errors.products = `店販商品は${checkoutBounds.productLines}品目までです。`;
  }
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const discount = input.discount.trim() === "" ? 0 : yenOf(input.discount);
  if (discount === null) {
    errors.discount = "割引は半角数字（円）で入力してください。";
  } else if (discount > subtotal && Object.keys(errors).length === 0) {
    errors.discount = `割引は小計（${formatYen(subtotal)}）以下にしてください。`;
  }
  const total = subtotal - (discount ?? 0);
  if (total > checkoutBounds.total.max) {
    errors.total = `合計は${formatYen(checkoutBounds.total.max)}までです。金額を確かめてください。`;
  }
  // 事前決済 (decision 0085): what was paid online counts first, computed here, never typed.
  const prepaidKept = Math.max(0, booked.prepaid ?? 0);
  const prepaid = Math.min(prepaidKept, Math.max(0, total));
  const due = Math.max(0, total - prepaid);
  const overpaid = prepaidKept - prepaid;
  const chosen = (checkoutMethods as readonly string[]).includes(input.method)
    ? (input.method as CheckoutMethod)
    : null;
  let method: CheckoutMethod | null = chosen;
  if (prepaidKept > 0 && due === 0) {
    // Paid in full online: nothing is asked at the counter, whatever the form says.
    method = "prepaid";
  } else if (!chosen) {
    errors.method = "お支払い方法を選んでください。";
  } else if (chosen === "prepaid") {
    errors.method =
      prepaidKept === 0
        ? "この予約にはオンラインでの事前決済がありません。別のお支払い方法を選んでください。"
        : `事前決済（${formatYen(prepaid)}）のほかに、お店でのお支払い（${formatYen(due)}）の方法を選んでください。`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (!method || discount === null) return { ok: false, errors };

  let counter: { method: PaymentMethod; amount: number }[] = [];
  if (method === "split") {
    // The 事前決済 part is the server's; a typed one is not read.
    for (const part of paymentMethods) {
      if (part === "prepaid") continue;
      const raw = input.parts[part] ?? "";
      if (raw.trim() === "") continue;
      const amount = yenOf(raw);
      if (amount === null || amount > checkoutBounds.total.max) {
        errors[`part.${part}`] =
          `${checkoutMethodLabels[part]}の金額は${yenRange(checkoutBounds.total.max)}の半角数字で入力してください。`;
        continue;
      }
      if (amount > 0) counter.push({ method: part, amount });
    }
    if (Object.keys(errors).length > 0) return { ok: false, errors };
    const paid = counter.reduce((sum, p) => sum + p.amount, 0);
    if (counter.length < 2) {
      errors.parts = "組み合わせでは、2つ以上の支払い方法に金額を入力してください。";
    } else if (paid !== due) {
      errors.parts =
        prepaid > 0
          ? `支払い方法ごとの金額の合計（${formatYen(paid)}）が、事前決済を除いたお店でのお支払い額（${formatYen(due)}）と合いません。`
          : `支払い方法ごとの金額の合計（${formatYen(paid)}）が合計金額（${formatYen(total)}）と合いません。`;
    }
  } else if (method !== "prepaid" && due > 0) {
    counter = [{ method, amount: due }];
  }
  const payments =
    prepaid > 0 ? [{ method: "prepaid" as const, amount: prepaid }, ...counter] : counter;
  // Paid partly online: a 組み合わせ of 事前決済 and what was paid at the counter.
  if (prepaid > 0 && counter.length > 0) method = "split";
  const cash = payments.find((p) => p.method === "cash")?.amount ?? 0;
  let cashReceived: number | null = null;
  let change: number | null = null;
  if (cash > 0) {
    const raw = input.cashReceived.trim();
    const received = raw === "" ? cash : yenOf(raw);
    if (received === null || received > checkoutBounds.cashReceived.max) {
      errors.cashReceived = `お預かり金額は${yenRange(checkoutBounds.cashReceived.max)}の半角数字で入力してください。`;
    } else if (received < cash) {
      errors.cashReceived = `お預かり金額が現金でのお支払い額（${formatYen(cash)}）に足りません。`;
    } else {
      cashReceived = received;
      change = received - cash;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    figures: {
      lines,
      subtotal,
      discount,
      total,
      tax: taxIncluded(total),
      method,
      payments,
      cashReceived,
      change,
      prepaid,
      due,
      overpaid,
    },
  };
}

export class CheckoutExistsError extends DomainError {
  constructor() {
    super(
      "checkout_exists",
      "この予約の会計はすでに登録されています。領収書を確認してください。",
      409,
    );
  }
}

export class CheckoutInvalidError extends DomainError {
  constructor(readonly errors: CheckoutErrors) {
    super("checkout_invalid", "入力内容を確認してください。", 400, { errors });
  }
}

type Tx = Database;

async function readBooked(tx: Pick<Database, "select">, salonId: string, bookingId: string) {
  return tx
    .select({ menuId: bookingMenus.menuId, name: bookingMenus.name, price: bookingMenus.price })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.salonId, salonId), eq(bookingMenus.bookingId, bookingId)))
    .orderBy(asc(bookingMenus.position));
}

/**
 * What the customer paid online in advance for this booking and still has
 * with the salon (decision 0085): each succeeded 全額事前決済 or 予約金 less
 * its refunds not failed. A キャンセル料 is not part of a visit's 会計.
 */
export async function prepaidOf(db: Pick<Database, "select">, salonId: string, bookingId: string) {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.salonId, salonId), eq(payments.bookingId, bookingId)));
  const refunds = rows.filter((r) => r.kind === "refund");
  return rows
    .filter(
      (r) =>
        (r.kind === "deposit" || r.kind === "full") &&
        (r.status === "succeeded" || r.status === "refunded"),
    )
    .reduce((sum, r) => sum + leftOf(r, refunds), 0);
}

/** Whether the booking's 会計 was saved. */
export async function hasCheckout(
  db: Pick<Database, "select">,
  salonId: string,
  bookingId: string,
) {
  const [row] = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.salonId, salonId), eq(checkouts.bookingId, bookingId)));
  return row !== undefined;
}

/** The salon's active retail items, by name. */
export function activeProducts(db: Pick<Database, "select">, salonId: string) {
  return db
    .select({ id: products.id, name: products.name, price: products.price })
    .from(products)
    .where(and(eq(products.salonId, salonId), eq(products.active, true)))
    .orderBy(asc(products.name), asc(products.id));
}

type BookingRow = typeof bookings.$inferSelect;

/** Why 会計 cannot be taken for this booking now, or null when it can. */
export function checkoutRefusal(row: BookingRow, now: Date): string | null {
  if (row.kind !== "booking") return "ブロックには会計を登録できません。";
  if (row.status === "completed") return null;
  if (row.status !== "confirmed")
    return "キャンセル・無断キャンセルの予約には会計を登録できません。";
  if (!row.arrivedAt && now.getTime() < row.startsAt.getTime()) {
    return "会計は、来店を記録してから、または予約の開始時刻を過ぎてから登録できます。";
  }
  return null;
}

/**
 * Saves the 会計 and completes the visit (if it is not yet) in one
 * transaction under the booking's row lock and version; audited.
 */
export async function saveCheckout(
  db: Database,
  access: SalonAccess,
  bookingId: string,
  input: CheckoutInput,
  now: Date,
) {
  const salonId = access.salon.id;
  const actor = salonActor(access.user.id);
  try {
    return await db.transaction(async (tx: Tx) => {
      const row = await lockBooking(tx, { salonId, bookingId });
      const version = /^\d{1,10}$/.test(input.version) ? Number(input.version) : -1;
      checkVersion(row, version);
      const refusal = checkoutRefusal(row, now);
      if (refusal) throw new BookingActionRefusedError(refusal, "checkout_not_allowed");
      const [existing] = await tx
        .select({ id: checkouts.id })
        .from(checkouts)
        .where(and(eq(checkouts.salonId, salonId), eq(checkouts.bookingId, row.id)));
      if (existing) throw new CheckoutExistsError();
      const menus = await readBooked(tx, salonId, row.id);
      // The booking's row lock orders this with a refund (which locks it first).
      const prepaid = await prepaidOf(tx, salonId, row.id);
      const computed = computeCheckout(
        { menus, nominationFee: row.nominationFee, totalPrice: row.totalPrice, prepaid },
        input,
        await activeProducts(tx, salonId),
      );
      if (!computed.ok) throw new CheckoutInvalidError(computed.errors);
      const f = computed.figures;
      const [saved] = await tx
        .insert(checkouts)
        .values({
          salonId,
          bookingId: row.id,
          subtotal: f.subtotal,
          discount: f.discount,
          total: f.total,
          tax: f.tax,
          method: f.method,
          cashReceived: f.cashReceived,
          change: f.change,
          createdBy: access.user.id,
          createdAt: now,
        })
        .returning({ id: checkouts.id });
      if (!saved) throw new Error("checkout not inserted");
      if (f.lines.length > 0) {
        await tx
          .insert(checkoutLines)
          .values(
            f.lines.map((line, position) => ({ salonId, checkoutId: saved.id, position, ...line })),
          );
      }
      if (f.payments.length > 0) {
        await tx
          .insert(checkoutPayments)
          .values(f.payments.map((p) => ({ salonId, checkoutId: saved.id, ...p })));
      }
      if (row.status === "confirmed") await completeLocked(tx, row, actor, now);
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "checkout.create",
          targetType: "booking",
          targetId: row.id,
          salonId,
          after: {
            checkoutId: saved.id,
            total: f.total,
            discount: f.discount,
            method: f.method,
            payments: f.payments,
            prepaid: f.prepaid,
            lines: f.lines.map((l) => ({
              name: l.name,
              unitPrice: l.unitPrice,
              quantity: l.quantity,
            })),
          },
        },
        now,
      );
      return { id: saved.id, figures: f };
    });
  } catch (error) {
    // Two counters at once: the unique (salon, booking) lets one through.
    if (sqlState(error) === UNIQUE_VIOLATION) throw new CheckoutExistsError();
    throw error;
  }
}

/** 取消: the reason asked for, bounded (decision 0085). */
export const VOID_REASON_MAX = 200;

export class CheckoutVoidRefusedError extends DomainError {
  constructor(message: string, status = 409) {
    super("checkout_void_refused", message, status);
  }
}

/**
 * 取消 of a saved 会計 (decision 0085): a manager's or owner's correction,
 * with a reason. The 会計 (its lines and parts) is removed under the
 * booking's row lock and kept whole in the audit entry `checkout.void`; the
 * visit stays 施術完了 and its 会計 can be taken again. Reports, the CSV
 * and 日計 read the 会計 that stand, so they follow. A 会計 of a day whose
 * 日計 is closed is refused until a manager reopens that day (締めを取り消す):
 * the close's row is locked meanwhile, so a re-close waits and then sees
 * the change.
 */
export async function voidCheckout(
  db: Database,
  access: SalonAccess,
  bookingId: string,
  rawReason: string,
  now: Date,
) {
  // The page offers the button to no other role; a forged post is the guard's 404.
  if (!can(access, "checkout.void")) throw new BookingNotFoundForSalonError();
  const salonId = access.salon.id;
  const reason = rawReason.trim();
  if (reason === "") {
    throw new CheckoutInvalidError({ reason: "取り消しの理由を入力してください。" });
  }
  if (reason.length > VOID_REASON_MAX) {
    throw new CheckoutInvalidError({
      reason: `取り消しの理由は${VOID_REASON_MAX}文字以内で入力してください。`,
    });
  }
  return db.transaction(async (tx: Tx) => {
    const row = await lockBooking(tx, { salonId, bookingId });
    const [saved] = await tx
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.salonId, salonId), eq(checkouts.bookingId, row.id)));
    if (!saved) {
      throw new CheckoutVoidRefusedError(
        "この予約の会計は登録されていません（すでに取り消されています）。画面を読み込み直してください。",
      );
    }
    const day = toLocal(saved.createdAt, access.salon.timeZone).date;
    const [close] = await tx
      .select({ status: dayCloses.status })
      .from(dayCloses)
      .where(and(eq(dayCloses.salonId, salonId), eq(dayCloses.date, day)))
      .for("update");
    if (close?.status === "closed") {
      throw new CheckoutVoidRefusedError(
        `この会計の日（${formatDate(day)}）の日計は締められています。取り消すには、店長またはオーナーが日計で「締めを取り消す」を押してから、もう一度お試しください。`,
      );
    }
    const lines = await tx
      .select()
      .from(checkoutLines)
      .where(and(eq(checkoutLines.salonId, salonId), eq(checkoutLines.checkoutId, saved.id)))
      .orderBy(asc(checkoutLines.position));
    const parts = await tx
      .select({ method: checkoutPayments.method, amount: checkoutPayments.amount })
      .from(checkoutPayments)
      .where(and(eq(checkoutPayments.salonId, salonId), eq(checkoutPayments.checkoutId, saved.id)));
    // Its lines and parts go with it (on delete cascade); the audit entry keeps them.
    await tx
      .delete(checkouts)
      .where(and(eq(checkouts.salonId, salonId), eq(checkouts.id, saved.id)));
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "checkout.void",
        targetType: "booking",
        targetId: row.id,
        salonId,
        before: {
          checkoutId: saved.id,
          day,
          createdAt: saved.createdAt.toISOString(),
          createdBy: saved.createdBy,
          subtotal: saved.subtotal,
          discount: saved.discount,
          total: saved.total,
          tax: saved.tax,
          method: saved.method,
          cashReceived: saved.cashReceived,
          change: saved.change,
          payments: parts,
          lines: lines.map((l) => ({
            kind: l.kind,
            name: l.name,
            unitPrice: l.unitPrice,
            quantity: l.quantity,
            amount: l.amount,
          })),
        },
        after: { reason },
      },
      now,
    );
    return { day, total: saved.total };
  });
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The form post as the input (field names: menuPrice.N, qty.ID, part.METHOD …). */
export function checkoutInputOf(form: FormData): CheckoutInput {
  const menuPrices: string[] = [];
  const quantities: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const menu = /^menuPrice\.(\d{1,2})$/.exec(key);
    if (menu) menuPrices[Number(menu[1])] = value.slice(0, 20);
    const qty = /^qty\.(.+)$/.exec(key);
    if (qty?.[1] && isUuid(qty[1]) && Object.keys(quantities).length < 200) {
      quantities[qty[1]] = value.slice(0, 10);
    }
  }
  const parts = Object.fromEntries(
    paymentMethods.map((m) => [m, text(form, `part.${m}`).slice(0, 20)]),
  ) as Record<PaymentMethod, string>;
  return {
    version: text(form, "version").slice(0, 12),
    menuPrices: Array.from(menuPrices, (v) => v ?? ""),
    nominationFee: text(form, "nominationFee").slice(0, 20),
    discount: text(form, "discount").slice(0, 20),
    quantities,
    method: text(form, "method").slice(0, 20),
    parts,
    cashReceived: text(form, "cashReceived").slice(0, 20),
  };
}

export type CheckoutPageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  booking: {
    id: string;
    bookingNumber: string;
    version: number;
    customerName: string;
    dateLabel: string;
    timeLabel: string;
    statusCompleted: boolean;
    totalLabel: string;
    menus: { name: string; price: number; priceLabel: string }[];
    nominationFee: number;
    /** The coupon's discount as booked: the form's first discount. */
    bookedDiscount: number;
  } | null;
  /** Why 会計 cannot be taken now (the page says it instead of the form). */
  refusal: string | null;
  /**
   * Paid online in advance (decision 0085): the 事前決済 part the server
   * counts, and what is left at the counter for the booked amount.
   */
  prepaid: {
    amountLabel: string;
    bookedDueLabel: string;
    /** Paid beyond the booked amount: refunded from the booking detail. */
    overpaidLabel: string | null;
  } | null;
  /** The 会計 already saved: the page links its receipt instead of the form. */
  saved: { totalLabel: string; methodLabel: string } | null;
  /** This person may void (取消) the saved 会計 (checkout.void). */
  canVoid: boolean;
  /** The 会計 was just voided (?voided=1): the page says so above the form. */
  voided: boolean;
  products: { id: string; name: string; priceLabel: string }[];
  methods: { value: CheckoutMethod; label: string }[];
  parts: { value: PaymentMethod; label: string }[];
};

/** The 会計 page; null when the salon has no such booking (404). */
export async function checkoutPage(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  now: Date,
  url?: URL,
): Promise<CheckoutPageData | null> {
  const salonId = access.salon.id;
  if (!bookingId || !isUuid(bookingId)) return null;
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.salonId, salonId)));
  if (!row || row.status === "held") return null;
  const zone = access.salon.timeZone;
  const menus = await readBooked(db, salonId, row.id);
  const [saved] = await db
    .select({ total: checkouts.total, method: checkouts.method })
    .from(checkouts)
    .where(and(eq(checkouts.salonId, salonId), eq(checkouts.bookingId, row.id)));
  const start = toLocal(row.startsAt, zone);
  const end = toLocal(row.endsAt, zone);
  const listed = menus.reduce((sum, m) => sum + m.price, 0) + row.nominationFee;
  const prepaid = await prepaidOf(db, salonId, row.id);
  return {
    salon: ownerPageSalon(access),
    booking: {
      id: row.id,
      bookingNumber: row.bookingNumber,
      version: row.version,
      customerName: row.customerName,
      dateLabel: formatDate(start.date),
      timeLabel: `${start.time}〜${end.time}`,
      statusCompleted: row.status === "completed",
      totalLabel: formatYen(row.totalPrice),
      menus: menus.map((m) => ({ name: m.name, price: m.price, priceLabel: formatYen(m.price) })),
      nominationFee: row.nominationFee,
      bookedDiscount: Math.max(0, listed - row.totalPrice),
    },
    prepaid:
      prepaid > 0
        ? {
            amountLabel: formatYen(prepaid),
            bookedDueLabel: formatYen(Math.max(0, row.totalPrice - prepaid)),
            overpaidLabel: prepaid > row.totalPrice ? formatYen(prepaid - row.totalPrice) : null,
          }
        : null,
    refusal: saved ? null : checkoutRefusal(row, now),
    saved: saved
      ? { totalLabel: formatYen(saved.total), methodLabel: checkoutMethodLabels[saved.method] }
      : null,
    canVoid: saved !== undefined && can(access, "checkout.void"),
    voided: !saved && url?.searchParams.get("voided") === "1",
    products: (await activeProducts(db, salonId)).map((p) => ({
      id: p.id,
      name: p.name,
      priceLabel: formatYen(p.price),
    })),
    // 事前決済 is never chosen: the server counts what was paid online (decision 0085).
    methods: checkoutMethods
      .filter((value) => value !== "prepaid")
      .map((value) => ({ value, label: checkoutMethodLabels[value] })),
    parts: paymentMethods
      .filter((value) => value !== "prepaid")
      .map((value) => ({ value, label: checkoutMethodLabels[value] })),
  };
}

/** What the 計算する button shows: the lines and amounts as they would be saved. */
export type CheckoutPreview = {
  lines: { name: string; quantity: number; amountLabel: string }[];
  subtotalLabel: string;
  discountLabel: string;
  totalLabel: string;
  taxLabel: string;
  changeLabel: string | null;
  /** 事前決済 済み, what is left at the counter, and what was paid beyond the total. */
  prepaidLabel: string | null;
  dueLabel: string;
  overpaidLabel: string | null;
};

function previewOf(f: CheckoutFigures): CheckoutPreview {
  return {
    lines: f.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      amountLabel: formatYen(l.amount),
    })),
    subtotalLabel: formatYen(f.subtotal),
    discountLabel: formatYen(f.discount),
    totalLabel: formatYen(f.total),
    taxLabel: formatYen(f.tax),
    changeLabel: f.change === null ? null : formatYen(f.change),
    prepaidLabel: f.prepaid > 0 ? formatYen(f.prepaid) : null,
    dueLabel: formatYen(f.due),
    overpaidLabel: f.overpaid > 0 ? formatYen(f.overpaid) : null,
  };
}

export type CheckoutFormOutcome =
  | { kind: "done"; location: string }
  | {
      kind: "preview";
      status: 200;
      preview: CheckoutPreview;
      errors: CheckoutErrors;
      values: CheckoutInput;
    }
  | { kind: "refused"; status: number; errors: CheckoutErrors; values: CheckoutInput };

/**
 * A refused save or void as the form shows it, the typed values kept; an unknown
 * booking (404) and anything unexpected go on up.
 */
function refusalOf(
  error: unknown,
  input: CheckoutInput,
  messageKey: "form" | "void",
): CheckoutFormOutcome {
  if (error instanceof CheckoutInvalidError) {
    return { kind: "refused", status: 400, errors: error.errors, values: input };
  }
  if (error instanceof DomainError && !(error instanceof BookingNotFoundForSalonError)) {
    return {
      kind: "refused",
      status: error.status,
      errors: { [messageKey]: error.message },
      values: input,
    };
  }
  throw error;
}

/** A post of the 会計 form: saved (→ the receipt), or the messages with what was typed. */
export async function submitCheckout(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  form: FormData,
  now: Date,
): Promise<CheckoutFormOutcome> {
  const input = checkoutInputOf(form);
  if (text(form, "intent") === "void") {
    try {
      await voidCheckout(db, access, bookingId ?? "", text(form, "reason").slice(0, 1000), now);
    } catch (error) {
      return refusalOf(error, input, "void");
    }
    return {
      kind: "done",
      location: `/owner/salons/${access.salon.id}/bookings/${bookingId}/checkout?voided=1`,
    };
  }
  if (text(form, "intent") === "preview") {
    // Computed as saving would, from the booking and the product list; nothing written.
    const salonId = access.salon.id;
    const [row] =
      bookingId && isUuid(bookingId)
        ? await db
            .select()
            .from(bookings)
            .where(and(eq(bookings.id, bookingId), eq(bookings.salonId, salonId)))
        : [];
    if (!row || row.status === "held") throw new BookingNotFoundForSalonError();
    const computed = computeCheckout(
      {
        menus: await readBooked(db, salonId, row.id),
        nominationFee: row.nominationFee,
        totalPrice: row.totalPrice,
        prepaid: await prepaidOf(db, salonId, row.id),
      },
      input,
      await activeProducts(db, salonId),
    );
    if (!computed.ok)
      return { kind: "refused", status: 400, errors: computed.errors, values: input };
    return {
      kind: "preview",
      status: 200,
      preview: previewOf(computed.figures),
      errors: {},
      values: input,
    };
  }
  try {
    await saveCheckout(db, access, bookingId ?? "", input, now);
  } catch (error) {
    return refusalOf(error, input, "form");
  }
  return {
    kind: "done",
    location: `/owner/salons/${access.salon.id}/bookings/${bookingId}/receipt?done=1`,
  };
}

export type Receipt = {
  salonName: string;
  postalCode: string;
  address: string;
  phone: string;
  invoiceNumber: string | null;
  receiptNumber: string;
  dateLabel: string;
  customerName: string;
  lines: { name: string; quantity: number; unitPriceLabel: string; amountLabel: string }[];
  subtotalLabel: string;
  discountLabel: string | null;
  totalLabel: string;
  taxLabel: string;
  methodLabel: string;
  payments: { label: string; amountLabel: string }[];
  cashReceivedLabel: string | null;
  changeLabel: string | null;
  staffName: string | null;
};

/** The 領収書 of a booking's 会計, or null when none was saved. */
export async function receiptOf(
  db: Database,
  salonId: string,
  bookingId: string,
): Promise<Receipt | null> {
  if (!isUuid(bookingId)) return null;
  const [row] = await db
    .select({
      checkout: checkouts,
      bookingNumber: bookings.bookingNumber,
      customerName: bookings.customerName,
      salonName: salons.name,
      postalCode: salons.postalCode,
      prefecture: prefectures.name,
      address: salons.address,
      phone: salons.phone,
      invoiceNumber: salons.invoiceNumber,
      timeZone: salons.timeZone,
      staffName: users.name,
    })
    .from(checkouts)
    .innerJoin(
      bookings,
      and(eq(bookings.id, checkouts.bookingId), eq(bookings.salonId, checkouts.salonId)),
    )
    .innerJoin(salons, eq(salons.id, checkouts.salonId))
    .leftJoin(prefectures, eq(prefectures.code, salons.prefectureCode))
    .leftJoin(users, eq(users.id, checkouts.createdBy))
    .where(and(eq(checkouts.salonId, salonId), eq(checkouts.bookingId, bookingId)));
  if (!row) return null;
  const c = row.checkout;
  const lines = await db
    .select()
    .from(checkoutLines)
    .where(and(eq(checkoutLines.salonId, salonId), eq(checkoutLines.checkoutId, c.id)))
    .orderBy(asc(checkoutLines.position));
  const payments = await db
    .select()
    .from(checkoutPayments)
    .where(
      and(eq(checkoutPayments.salonId, salonId), inArray(checkoutPayments.checkoutId, [c.id])),
    );
  const order = (m: PaymentMethod) => paymentMethods.indexOf(m);
  const address = row.address.startsWith(row.prefecture ?? "\u0000")
    ? row.address
    : `${row.prefecture ?? ""}${row.address}`;
  return {
    salonName: row.salonName,
    postalCode: row.postalCode,
    address,
    phone: row.phone,
    invoiceNumber: row.invoiceNumber,
    receiptNumber: row.bookingNumber,
    dateLabel: formatDate(toLocal(c.createdAt, row.timeZone).date),
    customerName: row.customerName,
    lines: lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unitPriceLabel: formatYen(l.unitPrice),
      amountLabel: formatYen(l.amount),
    })),
    subtotalLabel: formatYen(c.subtotal),
    discountLabel: c.discount > 0 ? `-${formatYen(c.discount)}` : null,
    totalLabel: formatYen(c.total),
    taxLabel: formatYen(c.tax),
    methodLabel: checkoutMethodLabels[c.method],
    payments: payments
      .sort((a, b) => order(a.method) - order(b.method))
      .map((p) => ({ label: checkoutMethodLabels[p.method], amountLabel: formatYen(p.amount) })),
    cashReceivedLabel: c.cashReceived === null ? null : formatYen(c.cashReceived),
    changeLabel: c.change === null ? null : formatYen(c.change),
    staffName: row.staffName ?? null,
  };
}

export type ReceiptPageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  bookingId: string;
  receipt: Receipt | null;
  done: boolean;
};

/** The receipt page: the receipt, or none yet (the page says 会計未登録 and links the form). */
export async function receiptPage(
  db: Database,
  access: SalonAccess,
  bookingId: string | undefined,
  url: URL,
): Promise<ReceiptPageData | null> {
  if (!bookingId || !isUuid(bookingId)) return null;
  const [booking] = await db
    .select({ id: bookings.id, status: bookings.status })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.salonId, access.salon.id)));
  if (!booking || booking.status === "held") return null;
  return {
    salon: ownerPageSalon(access),
    bookingId,
    receipt: await receiptOf(db, access.salon.id, bookingId),
    done: url.searchParams.get("done") === "1",
  };
}
