import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { changedFields } from "../audit/audit";
import type { Database } from "../db/client";
import { bookingMenus, couponMenus, menuStaff, menus, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { type RetirablePart, retireOrDelete } from "./salon-part-retire.server";
import { findPartRow, moveInSalonOrder, recordPartAudit } from "./salon-part-rows.server";
import type { MenuInput } from "./salon-parts.schema";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";

/**
 * The メニュー tab: menus with category, price (yen), duration, description
 * and who can do them; ordered, retired (published = false: gone from the
 * salon page, search's price range and booking, kept in past bookings) or,
 * when never booked, deleted.
 */

/** Everything the tab shows: the list, the salon's stylists, and the menu being edited (?menu=). */
export async function menusTab(db: Database, salonId: string, editingId: string | null) {
  const rows = await db
    .select({
      id: menus.id,
      category: menus.category,
      name: menus.name,
      description: menus.description,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
      prepaymentExempt: menus.prepaymentExempt,
      published: menus.published,
      sortOrder: menus.sortOrder,
    })
    .from(menus)
    .where(eq(menus.salonId, salonId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  const links = await db
    .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
    .from(menuStaff)
    .innerJoin(menus, eq(menus.id, menuStaff.menuId))
    .where(eq(menus.salonId, salonId));
  const booked = await db
    .select({ menuId: bookingMenus.menuId, n: count() })
    .from(bookingMenus)
    .where(eq(bookingMenus.salonId, salonId))
    .groupBy(bookingMenus.menuId);
  const members = await db
    .select({ id: staff.id, name: staff.name, active: staff.active })
    .from(staff)
    .where(eq(staff.salonId, salonId))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  const list = rows.map((menu) => ({
    ...menu,
    /** Empty: anyone can do it. */
    staffIds: links.filter((l) => l.menuId === menu.id).map((l) => l.staffId),
    bookings: booked.find((b) => b.menuId === menu.id)?.n ?? 0,
  }));
  return {
    menus: list,
    staff: members,
    categories: [...new Set(rows.map((menu) => menu.category))],
    editing: list.find((menu) => menu.id === editingId) ?? null,
  };
}

const fieldsOfMenu = (row: typeof menus.$inferSelect | MenuInput) => ({
  category: row.category,
  name: row.name,
  description: row.description,
  price: row.price,
  durationMinutes: row.durationMinutes,
  prepaymentExempt: row.prepaymentExempt,
});

/**
 * A menu is retired with published = false; it is deleted only when no
 * booking holds a copy of it and no coupon names it.
 */
const menuRows = {
  table: menus,
  label: "メニュー",
  targetType: "menu",
  actions: { retire: "menu.retire", reinstate: "menu.reinstate", delete: "menu.delete" },
  affectsFreeTime: true,
  references: [
    {
      table: bookingMenus,
      where: (salonId, menu) =>
        and(eq(bookingMenus.salonId, salonId), eq(bookingMenus.menuId, menu.id)),
      code: "menu_has_bookings",
      message: (menu) =>
        `「${menu.name}」は予約に使われているため削除できません。「掲載をやめる」にすると予約画面と公開ページから外れ、予約は残ります。`,
    },
    {
      table: couponMenus,
      where: (_salonId, menu) => eq(couponMenus.menuId, menu.id),
      code: "menu_in_coupon",
      message: (menu) =>
        `「${menu.name}」はクーポンの対象になっているため削除できません。先にクーポンの対象から外すか、「掲載をやめる」を使ってください。`,
    },
  ],
  deletedView: async (_tx, menu) => ({ ...fieldsOfMenu(menu), published: menu.published }),
} satisfies RetirablePart<typeof menus>;

const menuOf = (tx: Database, salonId: string, menuId: string) =>
  findPartRow(tx, menuRows, salonId, menuId);

/** The staff chosen must be this salon's (menu_staff itself does not say which salon). */
async function setMenuStaff(tx: Database, salonId: string, menuId: string, input: MenuInput) {
  const ids = input.staffScope === "all" ? [] : input.staffIds;
  if (ids.length > 0) {
    const found = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.salonId, salonId), inArray(staff.id, ids)));
    if (found.length !== ids.length) {
      throw new DomainError(
        "staff_not_found",
        "選択されたスタッフが見つかりません。画面を読み込み直してください。",
        400,
      );
    }
  }
  await tx.delete(menuStaff).where(eq(menuStaff.menuId, menuId));
  if (ids.length > 0) {
    await tx.insert(menuStaff).values(ids.map((staffId) => ({ menuId, staffId })));
  }
}

async function staffNamesOf(tx: Database, menuId: string) {
  const rows = await tx
    .select({ name: staff.name })
    .from(menuStaff)
    .innerJoin(staff, eq(staff.id, menuStaff.staffId))
    .where(eq(menuStaff.menuId, menuId))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  return rows.length > 0 ? rows.map((row) => row.name) : "全スタッフ";
}

export async function createMenu(db: Database, edit: SalonPartEdit, input: MenuInput) {
  return editSalonPart(db, edit, async (tx) => {
    const [last] = await tx
      .select({ max: sql<number>`coalesce(max(${menus.sortOrder}), -1)::int` })
      .from(menus)
      .where(eq(menus.salonId, edit.salonId));
    const [menu] = await tx
      .insert(menus)
      .values({ salonId: edit.salonId, ...fieldsOfMenu(input), sortOrder: (last?.max ?? -1) + 1 })
      .returning();
    if (!menu) throw new Error("menu not inserted");
    await setMenuStaff(tx, edit.salonId, menu.id, input);
    await recordPartAudit(tx, edit, {
      action: "menu.create",
      targetType: "menu",
      targetId: menu.id,
      before: null,
      after: { ...fieldsOfMenu(menu), staff: await staffNamesOf(tx, menu.id) },
    });
    return menu;
  });
}

export async function updateMenu(
  db: Database,
  edit: SalonPartEdit,
  menuId: string,
  input: MenuInput,
) {
  return editSalonPart(db, edit, async (tx) => {
    const menu = await menuOf(tx, edit.salonId, menuId);
    const staffBefore = await staffNamesOf(tx, menu.id);
    await tx.update(menus).set(fieldsOfMenu(input)).where(eq(menus.id, menu.id));
    await setMenuStaff(tx, edit.salonId, menu.id, input);
    const changes = changedFields(
      { ...fieldsOfMenu(menu), staff: staffBefore },
      { ...fieldsOfMenu(input), staff: await staffNamesOf(tx, menu.id) },
    );
    if (changes) {
      await recordPartAudit(tx, edit, {
        action: "menu.update",
        targetType: "menu",
        targetId: menu.id,
        ...changes,
      });
    }
    return menu;
  });
}

/** Moves a menu one place up or down in the salon page's order. */
export function moveMenu(
  db: Database,
  edit: SalonPartEdit,
  menuId: string,
  direction: "up" | "down",
) {
  return moveInSalonOrder(db, edit, menuRows, menuId, direction);
}

/** Stops (or resumes) offering a menu; its past and future bookings keep their copy of it. */
export function setMenuPublished(
  db: Database,
  edit: SalonPartEdit,
  menuId: string,
  published: boolean,
) {
  return retireOrDelete(db, edit, menuRows, menuId, {
    action: published ? "reinstate" : "retire",
    columns: (menu) => (menu.published === published ? null : { published }),
  });
}

/** Deletes a menu never booked nor named by a coupon; otherwise it can only be retired. */
export function deleteMenu(db: Database, edit: SalonPartEdit, menuId: string) {
  return retireOrDelete(db, edit, menuRows, menuId, { action: "delete" });
}
