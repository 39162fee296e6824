import { and, asc, eq, gte, isNull, lte, or } from "drizzle-orm";
import { couponLimitNotes, couponTargetLabels } from "../../common/coupon-eligibility";
import { priceWithCoupon } from "../../common/coupon-pricing";
import { calendarDay } from "../../common/local-time";
import { SLUG_PATTERN } from "../../common/slug";
import { nextFreeTimes } from "../bookings/free-times";
import { groupMenus, menuItemColumns } from "../bookings/menu-items";
import type { Database } from "../db/client";
import {
  areas,
  couponMenus,
  coupons,
  features,
  menus,
  prefectures,
  salonFeatures,
  salonPhotos,
  salons,
  staff,
  stations,
} from "../db/schema";
import { inlineSiteImage } from "../photos/inline-image.server";
import { listReviews, reviewSummary } from "../reviews/review-list.server";
import { openingHoursOf } from "./opening-hours";

/** The salon page shows the latest few reviews and links to the whole list. */
export const LATEST_REVIEWS = 3;

/** What a stylist's card shows, on the salon page and the stylist's own page. */
export const staffProfileColumns = {
  slug: staff.slug,
  name: staff.name,
  kana: staff.kana,
  role: staff.role,
  photoUrl: staff.photoUrl,
  profile: staff.profile,
  yearsOfExperience: staff.yearsOfExperience,
  specialties: staff.specialties,
  /** 指名料 (decision 0047): shown to the visitor, added when they choose this stylist. */
  nominationFee: staff.nominationFee,
};
/**
 * The published salon with the slug and where it is (area, prefecture,
 * nearest station), or null: what every tab of the salon's pages starts from.
 */
export async function findPublishedSalon(db: Database, slug: string) {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [row] = await db
    .select({
      salon: salons,
      areaSlug: areas.slug,
      areaName: areas.name,
      prefectureName: prefectures.name,
      prefectureSlug: prefectures.slug,
      stationName: stations.name,
      stationSlug: stations.slug,
    })
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .innerJoin(prefectures, eq(prefectures.code, salons.prefectureCode))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .where(and(eq(salons.slug, slug), eq(salons.status, "published")));
  if (!row) return null;
  const { id, searchText: _searchText, ...publicFields } = row.salon;
  return {
    id,
    salon: publicFields,
    area: { slug: row.areaSlug, name: row.areaName },
    prefecture: { slug: row.prefectureSlug, name: row.prefectureName },
    station: row.stationSlug ? { slug: row.stationSlug, name: row.stationName ?? "" } : null,
  };
}

export type PublishedSalon = NonNullable<Awaited<ReturnType<typeof findPublishedSalon>>>;

/**
 * The salon's photos in order, each with the stylist and the menu of the
 * style shown where the salon tagged them (スタイル): only an active
 * stylist and a published menu of this salon, so a tag never points to a
 * page or a booking that is not there.
 */
export function salonPhotosOf(db: Database, salonId: string) {
  return db
    .select({
      url: salonPhotos.url,
      alt: salonPhotos.alt,
      width: salonPhotos.width,
      height: salonPhotos.height,
      variants: salonPhotos.variants,
      stylistSlug: staff.slug,
      stylistName: staff.name,
      menuId: menus.id,
      menuName: menus.name,
      menuPrice: menus.price,
    })
    .from(salonPhotos)
    .leftJoin(
      staff,
      and(eq(staff.id, salonPhotos.staffId), eq(staff.salonId, salonId), eq(staff.active, true)),
    )
    .leftJoin(
      menus,
      and(eq(menus.id, salonPhotos.menuId), eq(menus.salonId, salonId), eq(menus.published, true)),
    )
    .where(eq(salonPhotos.salonId, salonId))
    .orderBy(asc(salonPhotos.sortOrder), asc(salonPhotos.id));
}

export type SalonPhoto = Awaited<ReturnType<typeof salonPhotosOf>>[number];

/** The salon's published menus by category, and its coupons valid on `today` (the salon's day). */
export async function salonMenusAndCoupons(db: Database, salonId: string, today: string) {
  const [menuRows, couponRows, couponMenuRows] = await Promise.all([
    db
      .select(menuItemColumns)
      .from(menus)
      .where(and(eq(menus.salonId, salonId), eq(menus.published, true)))
      .orderBy(asc(menus.sortOrder), asc(menus.price), asc(menus.name)),
    db
      .select({
        id: coupons.id,
        title: coupons.title,
        description: coupons.description,
        discountKind: coupons.discountKind,
        discountValue: coupons.discountValue,
        conditions: coupons.conditions,
        target: coupons.target,
        oncePerCustomer: coupons.oncePerCustomer,
        weekdays: coupons.weekdays,
        fromMinute: coupons.fromMinute,
        untilMinute: coupons.untilMinute,
        staffId: coupons.staffId,
        staffName: staff.name,
        studentOnly: coupons.studentOnly,
        validUntil: coupons.validUntil,
      })
      .from(coupons)
      .leftJoin(staff, eq(staff.id, coupons.staffId))
      .where(and(eq(coupons.salonId, salonId), couponValidOn(today)))
      .orderBy(asc(coupons.title)),
    db
      .select({ couponId: couponMenus.couponId, menuId: couponMenus.menuId })
      .from(couponMenus)
      .innerJoin(coupons, eq(coupons.id, couponMenus.couponId))
      .where(eq(coupons.salonId, salonId)),
  ]);
  return {
    menuGroups: groupMenus(menuRows),
    // Worded and priced here, by the rules' own modules, so the salon pages' bundle carries
    // neither (issue 42): its badge, its limits as notes, and each published menu it is for
    // with the coupon's price (null: a coupon for the whole booking, whatever its menus).
    coupons: couponRows.map((coupon) => {
      const menuIds = couponMenuRows
        .filter((row) => row.couponId === coupon.id)
        .map((row) => row.menuId);
      return {
        ...coupon,
        targetLabel: couponTargetLabels[coupon.target],
        limitNotes: couponLimitNotes(coupon, coupon.staffName),
        menuPrices:
          menuIds.length === 0
            ? null
            : menuRows
                .filter((menu) => menuIds.includes(menu.id))
                .map((menu) => ({
                  menuId: menu.id,
                  price: priceWithCoupon([menu], { ...coupon, menuIds }) ?? menu.price,
                })),
        /**
         * Whether the signed-in visitor may use it (target, once per customer;
         * decision 0087); null for a guest, and on the shared (cached) page.
         */
        usable: null as boolean | null,
      };
    }),
  };
}

/** A coupon can be used on `today` (the salon's calendar day; the columns are dates). */
export function couponValidOn(today: string) {
  return and(
    lte(coupons.validFrom, today),
    or(isNull(coupons.validUntil), gte(coupons.validUntil, today)),
  );
}

/** The salon's active stylists in display order. */
export function salonStylistsOf(db: Database, salonId: string) {
  return db
    .select(staffProfileColumns)
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
    .orderBy(asc(staff.sortOrder), asc(staff.slug));
}

/**
 * Everything the salon page shows, or null when no published salon has the
 * slug. Of the reviews, the summary and the latest few (the rest are on
 * /salons/:id/reviews).
 */
export async function getSalonDetail(db: Database, slug: string, now: Date) {
  const salon = await findPublishedSalon(db, slug);
  return salon ? salonDetailOf(db, salon, now) : null;
}

/** The salon page's parts for a salon already found. */
export async function salonDetailOf(db: Database, salon: PublishedSalon, now: Date) {
  const salonId = salon.id;
  // The salon's own calendar day, for date-only validity columns.
  const today = calendarDay(now, salon.salon.timeZone);
  const [
    photos,
    featureRows,
    menusAndCoupons,
    staffRows,
    reviewTotals,
    latestReviews,
    openingHours,
  ] = await Promise.all([
    salonPhotosOf(db, salonId),
    db
      .select({ slug: features.slug, name: features.name })
      .from(salonFeatures)
      .innerJoin(features, eq(features.slug, salonFeatures.featureSlug))
      .where(eq(salonFeatures.salonId, salonId))
      .orderBy(asc(features.sortOrder), asc(features.slug)),
    salonMenusAndCoupons(db, salonId, today),
    salonStylistsOf(db, salonId),
    reviewSummary(db, salonId),
    listReviews(db, salonId, { sort: "newest", page: 1, pageSize: LATEST_REVIEWS }),
    openingHoursOf(db, salonId),
  ]);
  return {
    salon: { ...salon.salon, openingHours },
    area: salon.area,
    prefecture: salon.prefecture,
    station: salon.station,
    // The cover is the page's LCP: inside the page when it is a small site image.
    photos: photos.map((photo, index) => ({
      ...photo,
      inline: index === 0 ? inlineSiteImage(photo.url) : null,
    })),
    features: featureRows,
    ...menusAndCoupons,
    staff: staffRows,
    /** Next free times (空席あり) from the search summary, or null. */
    freeTimes: (await nextFreeTimes(db, [salonId], now)).get(salonId) ?? null,
    reviews: { summary: reviewTotals, latest: latestReviews.items },
  };
}

export type SalonDetail = Awaited<ReturnType<typeof salonDetailOf>>;
