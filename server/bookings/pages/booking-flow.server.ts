import { and, asc, eq, gte, inArray, isNull, lte, or } from "drizzle-orm";
import { type CouponTarget, couponLimitNotes } from "../../../common/coupon-eligibility";
import { type CouponTerms, priceWithCoupon } from "../../../common/coupon-pricing";
import { calendarDay, isLocalDate } from "../../../common/local-time";
import { SLUG_PATTERN } from "../../../common/slug";
import { isUuid } from "../../../common/uuid";
import type { Database } from "../../db/client";
import { couponMenus, coupons, menuStaff, menus, salons, staff } from "../../db/schema";
import { MAX_MENUS } from "../availability-data.server";
import { groupMenus, type MenuItem, menuItemColumns } from "../menu-items";

/**
 * The booking flow's selection (/salons/:id/confirm): the URL carries it
 * (menu, staff, coupon, date, hold), so every step is a link or a GET form
 * and works without JavaScript. Parameters are read leniently: a bad one is
 * dropped with a Japanese message (the page answers 400 and keeps the rest),
 * never an exception.
 */

export { MAX_MENUS };

export type FlowParams = {
  menuIds: string[];
  /** A stylist's slug; null for 指名なし. */
  staffSlug: string | null;
  couponId: string | null;
  date: string | null;
  holdId: string | null;
  /** Sent here from a time picked while other menus were ticked (`changed=menus`): say so. */
  menusChanged: boolean;
  problems: string[];
};

export const flowMessages = {
  menu: "選択したメニューはこのサロンでは予約できません。メニューを選び直してください。",
  tooManyMenus: `メニューは${MAX_MENUS}件まで選べます。`,
  staff: "選択したスタイリストはこのサロンでは予約できません。スタイリストを選び直してください。",
  staffCannotDoMenu:
    "選択したスタイリストは、このメニューを担当していません。別のスタイリストか「指名なし」をお選びください。",
  coupon: "このクーポンは見つからないか、有効期限が切れています。クーポンなしで予約できます。",
  couponMenus:
    "このクーポンは選んだメニューには使えません。クーポンの対象メニューを選ぶか、クーポンなしで予約できます。",
  date: "日付の指定が正しくありません（例：2026-11-23）。",
  hold: "お取り置きの指定が正しくありません。もう一度日時をお選びください。",
} as const;

/** Reads the flow's query string; what is malformed is dropped with a message. */
export function parseFlowParams(params: URLSearchParams): FlowParams {
  const problems: string[] = [];
  const rawMenus = [...new Set(params.getAll("menu").filter((value) => value !== ""))];
  let menuIds = rawMenus.filter(isUuid);
  if (menuIds.length !== rawMenus.length) problems.push(flowMessages.menu);
  if (menuIds.length > MAX_MENUS) {
    problems.push(flowMessages.tooManyMenus);
    menuIds = menuIds.slice(0, MAX_MENUS);
  }
  const rawStaff = params.get("staff") ?? "";
  let staffSlug: string | null = null;
  if (rawStaff !== "") {
    if (SLUG_PATTERN.test(rawStaff)) staffSlug = rawStaff;
    else problems.push(flowMessages.staff);
  }
  const rawCoupon = params.get("coupon") ?? "";
  let couponId: string | null = null;
  if (rawCoupon !== "") {
    if (isUuid(rawCoupon)) couponId = rawCoupon;
    else problems.push(flowMessages.coupon);
  }
  const rawDate = params.get("date") ?? "";
  let date: string | null = null;
  if (rawDate !== "") {
    if (isLocalDate(rawDate)) date = rawDate;
    else problems.push(flowMessages.date);
  }
  const rawHold = params.get("hold") ?? "";
  let holdId: string | null = null;
  if (rawHold !== "") {
    if (isUuid(rawHold)) holdId = rawHold;
    else problems.push(flowMessages.hold);
  }
  const menusChanged = params.get("changed") === "menus";
  return { menuIds, staffSlug, couponId, date, holdId, menusChanged, problems };
}

export type FlowSalon = {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
};

/** A stylist to choose, with the 指名料 choosing them adds (decision 0047; 0: none). */
export type FlowStylist = {
  id: string;
  slug: string;
  name: string;
  role: string;
  nominationFee: number;
};

export type FlowSelection = {
  salon: FlowSalon;
  menuGroups: { category: string; menus: MenuItem[] }[];
  /** The chosen menus of this salon, in the order chosen. */
  menus: MenuItem[];
  /** Active stylists who can do every chosen menu, in the salon's order. */
  stylists: FlowStylist[];
  /** The chosen stylist (one of `stylists`), or null for 指名なし. */
  stylist: FlowStylist | null;
  /** With its terms, so each step can show the price with the coupon (common/coupon-pricing.ts). */
  coupon:
    | ({
        id: string;
        title: string;
        /** 新規・再来・全員, and its limits in words (decision 0087): hold and confirm decide. */
        target: CouponTarget;
        notes: string[];
      } & CouponTerms)
    | null;
  subtotal: number;
  discount: number;
  durationMinutes: number;
  problems: string[];
};

/** A salon's published page data needed by the flow, or null when there is none. */
export async function findFlowSalon(db: Database, slug: string): Promise<FlowSalon | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [row] = await db
    .select({ id: salons.id, slug: salons.slug, name: salons.name, timeZone: salons.timeZone })
    .from(salons)
    .where(and(eq(salons.slug, slug), eq(salons.status, "published")));
  return row ?? null;
}

/**
 * Checks the URL's selection against the salon's data: menus of this salon
 * (published), a coupon valid today (its menus are preselected when none
 * were chosen), stylists who can do every chosen menu.
 */
export async function loadFlowSelection(
  db: Database,
  salon: FlowSalon,
  params: Pick<FlowParams, "menuIds" | "staffSlug" | "couponId">,
  now: Date,
): Promise<FlowSelection> {
  const problems: string[] = [];
  const today = calendarDay(now, salon.timeZone);
  const [menuRows, staffRows, couponRow] = await Promise.all([
    db
      .select(menuItemColumns)
      .from(menus)
      .where(and(eq(menus.salonId, salon.id), eq(menus.published, true)))
      .orderBy(asc(menus.sortOrder), asc(menus.price), asc(menus.name)),
    db
      .select({
        id: staff.id,
        slug: staff.slug,
        name: staff.name,
        role: staff.role,
        nominationFee: staff.nominationFee,
      })
      .from(staff)
      .where(and(eq(staff.salonId, salon.id), eq(staff.active, true)))
      .orderBy(asc(staff.sortOrder), asc(staff.slug)),
    params.couponId
      ? db
          .select({
            id: coupons.id,
            title: coupons.title,
            discountKind: coupons.discountKind,
            discountValue: coupons.discountValue,
            target: coupons.target,
            oncePerCustomer: coupons.oncePerCustomer,
            weekdays: coupons.weekdays,
            fromMinute: coupons.fromMinute,
            untilMinute: coupons.untilMinute,
            studentOnly: coupons.studentOnly,
            staffName: staff.name,
          })
          .from(coupons)
          .leftJoin(staff, eq(staff.id, coupons.staffId))
          .where(
            and(
              eq(coupons.id, params.couponId),
              eq(coupons.salonId, salon.id),
              lte(coupons.validFrom, today),
              or(isNull(coupons.validUntil), gte(coupons.validUntil, today)),
            ),
          )
          .then((rows) => rows[0] ?? null)
      : Promise.resolve(null),
  ]);
  if (params.couponId && !couponRow) problems.push(flowMessages.coupon);

  const byId = new Map(menuRows.map((menu) => [menu.id, menu]));
  let menuIds = params.menuIds;
  if (menuIds.some((id) => !byId.has(id))) {
    problems.push(flowMessages.menu);
    menuIds = menuIds.filter((id) => byId.has(id));
  }
  const couponMenuIds = couponRow
    ? (
        await db
          .select({ menuId: couponMenus.menuId })
          .from(couponMenus)
          .where(eq(couponMenus.couponId, couponRow.id))
      ).map((row) => row.menuId)
    : [];
  if (menuIds.length === 0 && couponRow) {
    menuIds = couponMenuIds.filter((id) => byId.has(id));
  }
  const chosen = menuIds.flatMap((id) => byId.get(id) ?? []);

  // menu_staff: a menu without rows can be done by anyone.
  const abilities =
    chosen.length === 0
      ? []
      : await db
          .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
          .from(menuStaff)
          .where(
            inArray(
              menuStaff.menuId,
              chosen.map((menu) => menu.id),
            ),
          );
  const stylists = staffRows.filter((member) =>
    chosen.every((menu) => {
      const rows = abilities.filter((row) => row.menuId === menu.id);
      return rows.length === 0 || rows.some((row) => row.staffId === member.id);
    }),
  );
  let stylist: FlowStylist | null = null;
  if (params.staffSlug) {
    const member = staffRows.find((row) => row.slug === params.staffSlug);
    if (!member) problems.push(flowMessages.staff);
    else if (!stylists.includes(member)) problems.push(flowMessages.staffCannotDoMenu);
    else stylist = member;
  }
  const subtotal = chosen.reduce((sum, menu) => sum + menu.price, 0);
  // The same pricing as the hold (common/coupon-pricing.ts); null: not for these menus.
  const couponTotal =
    couponRow && chosen.length > 0
      ? priceWithCoupon(chosen, { ...couponRow, menuIds: couponMenuIds })
      : null;
  if (couponRow && chosen.length > 0 && couponTotal === null)
    problems.push(flowMessages.couponMenus);
  return {
    salon,
    menuGroups: groupMenus(menuRows),
    menus: chosen,
    stylists,
    stylist,
    coupon: couponRow
      ? {
          id: couponRow.id,
          title: couponRow.title,
          discountKind: couponRow.discountKind,
          discountValue: couponRow.discountValue,
          target: couponRow.target,
          notes: couponLimitNotes(couponRow, couponRow.staffName),
          menuIds: couponMenuIds,
        }
      : null,
    subtotal,
    discount: couponTotal === null ? 0 : subtotal - couponTotal,
    durationMinutes: chosen.reduce((sum, menu) => sum + menu.durationMinutes, 0),
    problems,
  };
}
