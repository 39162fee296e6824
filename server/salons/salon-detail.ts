import { and, asc, eq, gte, isNull, lte, or } from "drizzle-orm";
import { calendarDay } from "../../common/format";
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
 * Everything the salon page shows, or null when no published salon has the
 * slug. Of the reviews, the summary and the latest few (the rest are on
 * /salons/:id/reviews).
 */
export async function getSalonDetail(db: Database, slug: string, now: Date) {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [salon] = await db
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
  if (!salon) return null;
  const salonId = salon.salon.id;
  // The salon's own calendar day, for date-only validity columns.
  const today = calendarDay(now, salon.salon.timeZone);
  const [
    photos,
    featureRows,
    menuRows,
    couponRows,
    couponMenuRows,
    staffRows,
    reviewTotals,
    latestReviews,
    openingHours,
  ] = await Promise.all([
    db
      .select({
        url: salonPhotos.url,
        alt: salonPhotos.alt,
        width: salonPhotos.width,
        height: salonPhotos.height,
        variants: salonPhotos.variants,
      })
      .from(salonPhotos)
      .where(eq(salonPhotos.salonId, salonId))
      .orderBy(asc(salonPhotos.sortOrder)),
    db
      .select({ slug: features.slug, name: features.name })
      .from(salonFeatures)
      .innerJoin(features, eq(features.slug, salonFeatures.featureSlug))
      .where(eq(salonFeatures.salonId, salonId))
      .orderBy(asc(features.sortOrder), asc(features.slug)),
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
        newCustomersOnly: coupons.newCustomersOnly,
        validUntil: coupons.validUntil,
      })
      .from(coupons)
      .where(
        and(
          eq(coupons.salonId, salonId),
          lte(coupons.validFrom, today),
          or(isNull(coupons.validUntil), gte(coupons.validUntil, today)),
        ),
      )
      .orderBy(asc(coupons.title)),
    db
      .select({ couponId: couponMenus.couponId, menuId: couponMenus.menuId })
      .from(couponMenus)
      .innerJoin(coupons, eq(coupons.id, couponMenus.couponId))
      .where(eq(coupons.salonId, salonId)),
    db
      .select(staffProfileColumns)
      .from(staff)
      .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
      .orderBy(asc(staff.sortOrder), asc(staff.slug)),
    reviewSummary(db, salonId),
    listReviews(db, salonId, { sort: "newest", page: 1, pageSize: LATEST_REVIEWS }),
    openingHoursOf(db, salonId),
  ]);
  const { id: _id, searchText: _searchText, ...publicFields } = salon.salon;
  return {
    salon: { ...publicFields, openingHours },
    area: { slug: salon.areaSlug, name: salon.areaName },
    prefecture: { slug: salon.prefectureSlug, name: salon.prefectureName },
    station: salon.stationSlug ? { slug: salon.stationSlug, name: salon.stationName ?? "" } : null,
    photos,
    features: featureRows,
    menuGroups: groupMenus(menuRows),
    // With the menus each is for (none: the whole booking), so the page can show its price.
    coupons: couponRows.map((coupon) => ({
      ...coupon,
      menuIds: couponMenuRows.filter((row) => row.couponId === coupon.id).map((row) => row.menuId),
    })),
    staff: staffRows,
    /** Next free times (空席あり) from the search summary, or null. */
    freeTimes: (await nextFreeTimes(db, [salonId], now)).get(salonId) ?? null,
    reviews: { summary: reviewTotals, latest: latestReviews.items },
  };
}

export type SalonDetail = NonNullable<Awaited<ReturnType<typeof getSalonDetail>>>;
