import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { addDays, toLocal } from "../../common/local-time";
import { changedFields } from "../audit/audit";
import type { Database } from "../db/client";
import { bookings, couponMenus, coupons, menus, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { type RetirablePart, retireOrDelete } from "./salon-part-retire.server";
import { findPartRow, recordPartAudit } from "./salon-part-rows.server";
import type { CouponInput } from "./salon-parts.schema";
import { editSalonPart, type SalonPartEdit, salonTimeZone } from "./salon-parts.server";

/**
 * The クーポン tab. A coupon is offered on the days of its validity, which
 * every reader already honours (the salon page, the booking flow, pricing
 * at hold time), so retiring one ends its validity yesterday in the salon's
 * time zone rather than adding a second switch (decision 0018). Bookings
 * made with it keep it (bookings.coupon_id); one never used can be deleted.
 */

/** Coupons do not change when a salon is free. */
const noFreeTime = { affectsFreeTime: false };

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
  const stylists = await db
    .select({ id: staff.id, name: staff.name, active: staff.active })
    .from(staff)
    .where(eq(staff.salonId, salonId))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
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
    stylists,
    editing: list.find((coupon) => coupon.id === editingId) ?? null,
  };
}

const fieldsOfCoupon = (row: typeof coupons.$inferSelect | CouponInput) => ({
  title: row.title,
  description: row.description,
  discountKind: row.discountKind,
  discountValue: row.discountValue,
  conditions: row.conditions,
  target: row.target,
  oncePerCustomer: row.oncePerCustomer,
  weekdays: row.weekdays,
  fromMinute: row.fromMinute,
  untilMinute: row.untilMinute,
  staffId: row.staffId,
  studentOnly: row.studentOnly,
  validFrom: row.validFrom,
  validUntil: row.validUntil,
  prepaymentExempt: row.prepaymentExempt,
});

/** The stylist a coupon names must be the salon's (a form could send any id). */
async function requireSalonStylist(tx: Database, salonId: string, staffId: string | null) {
  if (staffId === null) return;
  const [found] = await tx
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.id, staffId)));
  if (!found) {
    throw new DomainError(
      "staff_not_found",
      "選択されたスタイリストが見つかりません。画面を読み込み直してください。",
      400,
    );
  }
}

async function menuNamesOf(tx: Database, couponId: string) {
  const rows = await tx
    .select({ name: menus.name })
    .from(couponMenus)
    .innerJoin(menus, eq(menus.id, couponMenus.menuId))
    .where(eq(couponMenus.couponId, couponId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  return rows.map((row) => row.name);
}

/** A coupon is retired by ending its validity; it is deleted only when no booking used it. */
const couponRows: RetirablePart<typeof coupons> = {
  table: coupons,
  label: "クーポン",
  targetType: "coupon",
  actions: { retire: "coupon.retire", delete: "coupon.delete" },
  affectsFreeTime: false,
  references: [
    {
      table: bookings,
      where: (salonId, coupon) =>
        and(eq(bookings.salonId, salonId), eq(bookings.couponId, coupon.id)),
      code: "coupon_used",
      message: (coupon) =>
        `「${coupon.title}」は予約に使われているため削除できません。「配布を終了」を使ってください。`,
    },
  ],
  deletedView: async (tx, coupon) => ({
    ...fieldsOfCoupon(coupon),
    // Read first: its coupon_menus rows go with it.
    menus: await menuNamesOf(tx, coupon.id),
  }),
};

const couponOf = (tx: Database, salonId: string, couponId: string) =>
  findPartRow(tx, couponRows, salonId, couponId);

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
      await requireSalonStylist(tx, edit.salonId, input.staffId);
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
      await requireSalonStylist(tx, edit.salonId, input.staffId);
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
export function retireCoupon(
  db: Database,
  edit: SalonPartEdit & { timeZone: string },
  couponId: string,
) {
  const yesterday = addDays(toLocal(edit.now, edit.timeZone).date, -1);
  return retireOrDelete(db, edit, couponRows, couponId, {
    action: "retire",
    columns: (coupon) =>
      coupon.validUntil !== null && coupon.validUntil <= yesterday
        ? null
        : {
            // A coupon that had not started yet ends the same way (its validity must stay ordered).
            validFrom: [coupon.validFrom, yesterday].sort()[0] ?? yesterday,
            validUntil: yesterday,
          },
  });
}

/** Deletes a coupon no booking used; a used one can only be retired. */
export function deleteCoupon(db: Database, edit: SalonPartEdit, couponId: string) {
  return retireOrDelete(db, edit, couponRows, couponId, { action: "delete" });
}
