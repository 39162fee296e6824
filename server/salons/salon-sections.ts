import { and, asc, between, eq } from "drizzle-orm";
import { calendarDay } from "../../common/format";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import {
  coupons,
  features,
  menus,
  salonBookingSettings,
  salonFeatures,
  stations,
} from "../db/schema";
import { openingHoursOf } from "./opening-hours";
import {
  couponValidOn,
  findPublishedSalon,
  type PublishedSalon,
  salonDetailOf,
  salonMenusAndCoupons,
  salonPhotosOf,
  salonStylistsOf,
} from "./salon-detail";
import { boundingBox, NEAR_STATION_METRES, nearestStations } from "./salon-stations";

/**
 * What the visitor came to book with (`?coupon=ID` or `?menu=ID` on a salon
 * page's URL, from a search result, an article or a coupon list): the 予約する
 * bar books with it and the tabs keep it. Only this salon's coupon valid
 * today or its published menu; anything else is ignored, not an error.
 */
export type BookingVia = { kind: "coupon" | "menu"; id: string; title: string };

export async function bookingViaOf(
  db: Database,
  salonId: string,
  searchParams: URLSearchParams,
  today: string,
): Promise<BookingVia | null> {
  const couponId = searchParams.get("coupon");
  if (isUuid(couponId)) {
    const [coupon] = await db
      .select({ id: coupons.id, title: coupons.title })
      .from(coupons)
      .where(
        and(
          eq(coupons.id, couponId.toLowerCase()),
          eq(coupons.salonId, salonId),
          couponValidOn(today),
        ),
      );
    if (coupon) return { kind: "coupon", ...coupon };
  }
  const menuId = searchParams.get("menu");
  if (isUuid(menuId)) {
    const [menu] = await db
      .select({ id: menus.id, title: menus.name })
      .from(menus)
      .where(
        and(
          eq(menus.id, menuId.toLowerCase()),
          eq(menus.salonId, salonId),
          eq(menus.published, true),
        ),
      );
    if (menu) return { kind: "menu", ...menu };
  }
  return null;
}

/** What every tab of a salon's pages shows around its own part: the header, the tab bar, the bar. */
export type SalonFrame = Omit<PublishedSalon, "id"> & { via: BookingVia | null };

export async function salonFrameOf(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
): Promise<(SalonFrame & { id: string; today: string }) | null> {
  const found = await findPublishedSalon(db, slug);
  if (!found) return null;
  const today = calendarDay(now, found.salon.timeZone);
  const via = await bookingViaOf(db, found.id, searchParams, today);
  return { ...found, today, via };
}

/** What the frame gives the page: the salon's id and day stay on the server. */
export function publicFrame({
  id: _id,
  today: _today,
  ...frame
}: SalonFrame & { id: string; today: string }) {
  return frame;
}

/** /salons/:id (トップ): the salon page's summary, or null. */
export async function loadSalonTopPage(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
) {
  const found = await findPublishedSalon(db, slug);
  if (!found) return null;
  const today = calendarDay(now, found.salon.timeZone);
  const [detail, via] = await Promise.all([
    salonDetailOf(db, found, now),
    bookingViaOf(db, found.id, searchParams, today),
  ]);
  return { detail, via };
}

/** /salons/:id/coupons: today's coupons and the published menus, or null. */
export async function loadSalonCouponsPage(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
) {
  const frame = await salonFrameOf(db, slug, searchParams, now);
  if (!frame) return null;
  const menusAndCoupons = await salonMenusAndCoupons(db, frame.id, frame.today);
  return { frame: publicFrame(frame), ...menusAndCoupons };
}

/** /salons/:id/styles: the photos with their stylist and menu, or null. */
export async function loadSalonStylesPage(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
) {
  const frame = await salonFrameOf(db, slug, searchParams, now);
  if (!frame) return null;
  return { frame: publicFrame(frame), photos: await salonPhotosOf(db, frame.id) };
}

/** /salons/:id/stylists: the active stylists, or null. */
export async function loadSalonStylistsPage(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
) {
  const frame = await salonFrameOf(db, slug, searchParams, now);
  if (!frame) return null;
  return { frame: publicFrame(frame), staff: await salonStylistsOf(db, frame.id) };
}

/**
 * /salons/:id/access: where the salon is (the nearest stations with the
 * walk, decision 0057), its hours and closures, or null.
 */
export async function loadSalonAccessPage(
  db: Database,
  slug: string,
  searchParams: URLSearchParams,
  now: Date,
) {
  const frame = await salonFrameOf(db, slug, searchParams, now);
  if (!frame) return null;
  const point = { latitude: frame.salon.latitude, longitude: frame.salon.longitude };
  const box = boundingBox(point, NEAR_STATION_METRES);
  const [openingHours, settings, stationRows, featureRows] = await Promise.all([
    openingHoursOf(db, frame.id),
    db
      .select({ closedOnPublicHolidays: salonBookingSettings.closedOnPublicHolidays })
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, frame.id)),
    db
      .select({
        slug: stations.slug,
        name: stations.name,
        lines: stations.lines,
        latitude: stations.latitude,
        longitude: stations.longitude,
      })
      .from(stations)
      .where(
        and(
          between(stations.latitude, box.minLatitude, box.maxLatitude),
          between(stations.longitude, box.minLongitude, box.maxLongitude),
        ),
      ),
    db
      .select({ slug: features.slug, name: features.name })
      .from(salonFeatures)
      .innerJoin(features, eq(features.slug, salonFeatures.featureSlug))
      .where(eq(salonFeatures.salonId, frame.id))
      .orderBy(asc(features.sortOrder), asc(features.slug)),
  ]);
  return {
    frame: publicFrame(frame),
    openingHours,
    closedOnPublicHolidays: settings[0]?.closedOnPublicHolidays ?? false,
    stations: nearestStations(point, stationRows).map(({ latitude: _a, longitude: _b, ...s }) => s),
    features: featureRows,
  };
}
