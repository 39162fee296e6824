import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { addDays, toLocal } from "../bookings/local-time";
import type { Database } from "../db/client";
import { bookings, couponMenus, coupons, menus } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { recordPartAudit } from "./salon-part-rows.server";
import type { CouponInput } from "./salon-parts.schema";
import {
  changedFields,
  editSalonPart,
  type SalonPartEdit,
  salonTimeZone,
} from "./salon-parts.server";

/**
 * The クーポン tab. A coupon is offered on the days of its validity, which
 * every reader already honours (the salon page, the booking flow, pricing
 * at hold time), so retiring one ends its validity yesterday in the salon's
 * time zone rather than adding a second switch (decision 0018). Bookings
 * made with it keep it (bookings.coupon_id); one never used can be deleted.
 */

/** Coupons do not change when a salon is free. */
const noFreeTime = { affectsFreeTime: false };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CouponState = "active" | "scheduled" | "ended";

export function couponState(
  coupon: { validFrom: string; validUntil: string | null },
  today: string,
): CouponState {
  if (coupon.validUntil !== null && coupon.validUntil < today) return "ended";
  if (coupon.validFrom > today) return "scheduled";
  return "active";
}

/** Everything the tab shows: the list, the salon's menus, and the coupon being edited (?coupon=). */
export async function couponsTab(
  db: Database,
  salonId: string,
  editingId: string | null,
  now: Date,
) {
  const today = toLocal(now, await salonTimeZone(db, salonId)).date;
  const rows = await db
    .select()
    .from(coupons)
    .where(eq(coupons.salonId, salonId))
    .orderBy(desc(coupons.validFrom), asc(coupons.title), asc(coupons.id));
  const links = await db
    .select({ couponId: couponMenus.couponId, menuId: couponMenus.menuId })
    .from(couponMenus)
    .innerJoin(coupons, eq(coupons.id, couponMenus.couponId))
    .where(eq(coupons.salonId, salonId));
  const used = await db
    .select({ couponId: bookings.couponId, n: count() })
    .from(bookings)
    .where(eq(bookings.salonId, salonId))
    .groupBy(bookings.couponId);
  const salonMenus = await db
    .select({
      id: menus.id,
      name: menus.name,
      category: menus.category,
      price: menus.price,
      published: menus.published,
    })
    .from(menus)
    .where(eq(menus.salonId, salonId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  const list = rows.map(({ salonId: _salonId, createdAt: _createdAt, ...coupon }) => ({
    ...coupon,
    state: couponState(coupon, today),
    menuIds: links.filter((l) => l.couponId === coupon.id).map((l) => l.menuId),
    bookings: used.find((u) => u.couponId === coupon.id)?.n ?? 0,
  }));
  return {
    today,
    coupons: list,
    menus: salonMenus,
    editing: list.find((coupon) => coupon.id === editingId) ?? null,
  };
}

async function couponOf(tx: Database, salonId: string, couponId: string) {
  if (!UUID.test(couponId)) throw new NotFoundError("クーポンが見つかりません。");
  const [coupon] = await tx
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, couponId.toLowerCase()), eq(coupons.salonId, salonId)));
  if (!coupon) {
    throw new NotFoundError(
      "クーポンが見つかりません。ほかの管理者が削除した可能性があります。一覧を確認してください。",
    );
  }
  return coupon;
}

const fieldsOfCoupon = (row: typeof coupons.$inferSelect | CouponInput) => ({
  title: row.title,
  description: row.description,
  discountKind: row.discountKind,
  discountValue: row.discountValue,
  conditions: row.conditions,
  newCustomersOnly: row.newCustomersOnly,
  validFrom: row.validFrom,
  validUntil: row.validUntil,
});

async function menuNamesOf(tx: Database, couponId: string) {
  const rows = await tx
    .select({ name: menus.name })
    .from(couponMenus)
    .innerJoin(menus, eq(menus.id, couponMenus.menuId))
    .where(eq(couponMenus.couponId, couponId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  return rows.map((row) => row.name);
}

async function setCouponMenus(tx: Database, salonId: string, couponId: string, ids: string[]) {
  if (ids.length > 0) {
    const found = await tx
      .select({ id: menus.id })
      .from(menus)
      .where(and(eq(menus.salonId, salonId), inArray(menus.id, ids)));
    if (found.length !== ids.length) {
      throw new DomainError(
        "menu_not_found",
        "選択されたメニューが見つかりません。画面を読み込み直してください。",
        400,
      );
    }
  }
  await tx.delete(couponMenus).where(eq(couponMenus.couponId, couponId));
  if (ids.length > 0) {
    await tx.insert(couponMenus).values(ids.map((menuId) => ({ couponId, menuId })));
  }
}

export async function createCoupon(db: Database, edit: SalonPartEdit, input: CouponInput) {
  return editSalonPart(
    db,
    edit,
    async (tx) => {
      const [coupon] = await tx
        .insert(coupons)
        .values({ salonId: edit.salonId, ...fieldsOfCoupon(input) })
        .returning();
      if (!coupon) throw new Error("coupon not inserted");
      await setCouponMenus(tx, edit.salonId, coupon.id, input.menuIds);
      await recordPartAudit(tx, edit, {
        action: "coupon.create",
        targetType: "coupon",
        targetId: coupon.id,
        before: null,
        after: { ...fieldsOfCoupon(coupon), menus: await menuNamesOf(tx, coupon.id) },
      });
      return coupon;
    },
    noFreeTime,
  );
}

export async function updateCoupon(
  db: Database,
  edit: SalonPartEdit,
  couponId: string,
  input: CouponInput,
) {
  return editSalonPart(
    db,
    edit,
    async (tx) => {
      const coupon = await couponOf(tx, edit.salonId, couponId);
      const menusBefore = await menuNamesOf(tx, coupon.id);
      await tx.update(coupons).set(fieldsOfCoupon(input)).where(eq(coupons.id, coupon.id));
      await setCouponMenus(tx, edit.salonId, coupon.id, input.menuIds);
      const changes = changedFields(
        { ...fieldsOfCoupon(coupon), menus: menusBefore },
        { ...fieldsOfCoupon(input), menus: await menuNamesOf(tx, coupon.id) },
      );
      if (changes) {
        await recordPartAudit(tx, edit, {
          action: "coupon.update",
          targetType: "coupon",
          targetId: coupon.id,
          ...changes,
        });
      }
      return coupon;
    },
    noFreeTime,
  );
}

/** Ends the coupon's validity yesterday (salon time): from today it is no longer offered. */
export async function retireCoupon(
  db: Database,
  edit: SalonPartEdit & { timeZone: string },
  couponId: string,
) {
  return editSalonPart(
    db,
    edit,
    async (tx) => {
      const coupon = await couponOf(tx, edit.salonId, couponId);
      const yesterday = addDays(toLocal(edit.now, edit.timeZone).date, -1);
      if (coupon.validUntil !== null && coupon.validUntil <= yesterday) return coupon;
      // A coupon that had not started yet ends the same way (its validity must stay ordered).
      const validFrom = [coupon.validFrom, yesterday].sort()[0] ?? yesterday;
      await tx
        .update(coupons)
        .set({ validFrom, validUntil: yesterday })
        .where(eq(coupons.id, coupon.id));
      const changes = changedFields(
        { validFrom: coupon.validFrom, validUntil: coupon.validUntil },
        { validFrom, validUntil: yesterday },
      );
      await recordPartAudit(tx, edit, {
        action: "coupon.retire",
        targetType: "coupon",
        targetId: coupon.id,
        before: changes?.before ?? null,
        after: changes?.after ?? null,
      });
      return coupon;
    },
    noFreeTime,
  );
}

/** Deletes a coupon no booking used; a used one can only be retired. */
export async function deleteCoupon(db: Database, edit: SalonPartEdit, couponId: string) {
  return editSalonPart(
    db,
    edit,
    async (tx) => {
      const coupon = await couponOf(tx, edit.salonId, couponId);
      const [used] = await tx
        .select({ n: count() })
        .from(bookings)
        .where(and(eq(bookings.salonId, edit.salonId), eq(bookings.couponId, coupon.id)));
      if ((used?.n ?? 0) > 0) {
        throw new DomainError(
          "coupon_used",
          `「${coupon.title}」は予約に使われているため削除できません。「配布を終了」を使ってください。`,
          409,
        );
      }
      const menusBefore = await menuNamesOf(tx, coupon.id);
      await tx.delete(coupons).where(eq(coupons.id, coupon.id));
      await recordPartAudit(tx, edit, {
        action: "coupon.delete",
        targetType: "coupon",
        targetId: coupon.id,
        before: { ...fieldsOfCoupon(coupon), menus: menusBefore },
        after: null,
      });
      return coupon;
    },
    noFreeTime,
  );
}
