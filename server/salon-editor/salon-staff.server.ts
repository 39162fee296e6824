import { randomBytes } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { changedFields } from "../audit/audit";
import type { Database } from "../db/client";
import { bookings, coupons, menuStaff, menus, salons, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { type RetirablePart, retireOrDelete } from "./salon-part-retire.server";
import { findPartRow, moveInSalonOrder, recordPartAudit } from "./salon-part-rows.server";
import type { StaffInput } from "./salon-parts.schema";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";

/**
 * The スタッフ tab's stylists: add, edit (with the menus they can do),
 * reorder, retire or bring back, delete. Their page data is
 * salon-staff-tab.server.ts, their weekly patterns
 * salon-staff-schedules.server.ts, their dated exceptions
 * salon-staff-exceptions.server.ts. Every change goes through editSalonPart
 * (version check, audit entry, derived columns, one transaction).
 */

/** The salon's menus, each with the stylists restricted to it (null: anyone). */
export async function menusWithStaff(db: Database, salonId: string) {
  const rows = await db
    .select({
      id: menus.id,
      name: menus.name,
      category: menus.category,
      published: menus.published,
    })
    .from(menus)
    .where(eq(menus.salonId, salonId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  const links = await db
    .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
    .from(menuStaff)
    .innerJoin(menus, eq(menus.id, menuStaff.menuId))
    .where(eq(menus.salonId, salonId));
  return rows.map((menu) => {
    const allowed = links.filter((l) => l.menuId === menu.id).map((l) => l.staffId);
    return { ...menu, allowed: allowed.length > 0 ? new Set(allowed) : null };
  });
}

const profileOf = (row: typeof staff.$inferSelect | StaffInput) => ({
  name: row.name,
  kana: row.kana,
  role: row.role,
  profile: row.profile,
  photoUrl: row.photoUrl,
  yearsOfExperience: row.yearsOfExperience,
  nominationFee: row.nominationFee,
  specialties: row.specialties,
});

/**
 * A stylist is retired with active = false (left out of the salon page,
 * stylist pages and booking, which ask for active staff; their bookings,
 * schedules and reviews stay); deleted only when they never had a booking.
 */
const stylistRows = {
  table: staff,
  label: "スタッフ",
  targetType: "staff",
  actions: { retire: "staff.retire", reinstate: "staff.reinstate", delete: "staff.delete" },
  affectsFreeTime: true,
  references: [
    {
      table: bookings,
      where: (salonId, member) =>
        and(eq(bookings.salonId, salonId), eq(bookings.staffId, member.id)),
      code: "staff_has_bookings",
      message: (member) =>
        `${member.name}さんには予約があるため削除できません。「退職」にすると予約画面や公開ページから外れ、予約は残ります。`,
    },
    {
      table: coupons,
      where: (salonId, member) => and(eq(coupons.salonId, salonId), eq(coupons.staffId, member.id)),
      code: "staff_has_coupons",
      message: (member) =>
        `${member.name}さんを指名するクーポンがあるため削除できません。クーポンの対象スタイリストを変えてから削除するか、「退職」にしてください。`,
    },
  ],
  deletedView: async (_tx, member) => ({
    ...profileOf(member),
    slug: member.slug,
    active: member.active,
  }),
} satisfies RetirablePart<typeof staff>;

/** A stylist of this salon, or 404 (also for a malformed id or one of another salon). */
export const memberOf = (tx: Database, salonId: string, staffId: string) =>
  findPartRow(tx, stylistRows, salonId, staffId);

/**
 * Makes `wanted` the menus this stylist can do. A menu open to anyone (no
 * menu_staff rows) stays open when wanted; unwanted, it is restricted to the
 * salon's other stylists. A menu must keep at least one stylist: a menu
 * with no rows would mean anyone, the opposite of what was asked.
 */
async function setAbilities(tx: Database, salonId: string, staffId: string, wanted: string[]) {
  const salonMenus = await menusWithStaff(tx, salonId);
  const known = new Set(salonMenus.map((m) => m.id));
  if (!wanted.every((id) => known.has(id))) {
    throw new DomainError(
      "menu_not_found",
      "選択されたメニューが見つかりません。画面を読み込み直してください。",
      400,
    );
  }
  const others = (
    await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.salonId, salonId), ne(staff.id, staffId)))
  ).map((row) => row.id);
  const want = new Set(wanted);
  const added: string[] = [];
  const removed: string[] = [];
  for (const menu of salonMenus) {
    const can = !menu.allowed || menu.allowed.has(staffId);
    if (want.has(menu.id) === can) continue;
    if (want.has(menu.id)) {
      await tx.insert(menuStaff).values({ menuId: menu.id, staffId }).onConflictDoNothing();
      added.push(menu.name);
      continue;
    }
    const remaining = menu.allowed ? [...menu.allowed].filter((id) => id !== staffId) : others;
    if (remaining.length === 0) {
      throw new DomainError(
        "menu_without_staff",
        `「${menu.name}」を担当できるスタッフがいなくなります。先にほかのスタッフを担当にするか、メニューの掲載をやめてください。`,
        400,
      );
    }
    if (menu.allowed) {
      await tx
        .delete(menuStaff)
        .where(and(eq(menuStaff.menuId, menu.id), eq(menuStaff.staffId, staffId)));
    } else {
      await tx.insert(menuStaff).values(remaining.map((id) => ({ menuId: menu.id, staffId: id })));
    }
    removed.push(menu.name);
  }
  return { added, removed };
}

export async function createStaff(db: Database, edit: SalonPartEdit, input: StaffInput) {
  return editSalonPart(db, edit, async (tx) => {
    const [salon] = await tx
      .select({ slug: salons.slug })
      .from(salons)
      .where(eq(salons.id, edit.salonId));
    const [last] = await tx
      .select({ max: sql<number>`coalesce(max(${staff.sortOrder}), -1)::int` })
      .from(staff)
      .where(eq(staff.salonId, edit.salonId));
    const [member] = await tx
      .insert(staff)
      .values({
        salonId: edit.salonId,
        // Public URL of the stylist (/salons/staffs/<slug>): the salon's and a random part.
        slug: `${salon?.slug ?? "salon"}-staff-${randomBytes(4).toString("hex")}`,
        ...profileOf(input),
        sortOrder: (last?.max ?? -1) + 1,
      })
      .returning();
    if (!member) throw new Error("staff not inserted");
    // A new stylist can do the menus open to anyone; these calls restrict or add.
    const abilities = await setAbilities(tx, edit.salonId, member.id, input.menuIds);
    const menuNames = await menuNamesFor(tx, edit.salonId, member.id);
    await recordPartAudit(tx, edit, {
      action: "staff.create",
      targetType: "staff",
      targetId: member.id,
      before: null,
      after: {
        ...profileOf(member),
        slug: member.slug,
        menus: menuNames,
        ...abilitiesNote(abilities),
      },
    });
    return member;
  });
}

const abilitiesNote = (abilities: { added: string[]; removed: string[] }) =>
  abilities.removed.length > 0 ? { menusRestricted: abilities.removed } : {};

async function menuNamesFor(tx: Database, salonId: string, staffId: string) {
  const salonMenus = await menusWithStaff(tx, salonId);
  return salonMenus.filter((m) => !m.allowed || m.allowed.has(staffId)).map((m) => m.name);
}

export async function updateStaff(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  input: StaffInput,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const menusBefore = await menuNamesFor(tx, edit.salonId, member.id);
    await tx.update(staff).set(profileOf(input)).where(eq(staff.id, member.id));
    await setAbilities(tx, edit.salonId, member.id, input.menuIds);
    const menusAfter = await menuNamesFor(tx, edit.salonId, member.id);
    const changes = changedFields(
      { ...profileOf(member), menus: menusBefore },
      { ...profileOf(input), menus: menusAfter },
    );
    if (changes) {
      await recordPartAudit(tx, edit, {
        action: "staff.update",
        targetType: "staff",
        targetId: member.id,
        ...changes,
      });
    }
    return member;
  });
}

/**
 * Moves a stylist one place up or down in the salon's order (the order of
 * the salon page and of 指名なし's tie-break). The whole list is renumbered
 * 0…n-1, so equal sort orders left by imports stop mattering.
 */
export function moveStaff(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  direction: "up" | "down",
) {
  return moveInSalonOrder(db, edit, stylistRows, staffId, direction);
}

/** Retires (active = false) or brings back a stylist. */
export function setStaffActive(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  active: boolean,
) {
  return retireOrDelete(db, edit, stylistRows, staffId, {
    action: active ? "reinstate" : "retire",
    columns: (member) => (member.active === active ? null : { active }),
  });
}

/** Deletes a stylist who never had a booking; one with bookings can only be retired. */
export function deleteStaff(db: Database, edit: SalonPartEdit, staffId: string) {
  return retireOrDelete(db, edit, stylistRows, staffId, { action: "delete" });
}
