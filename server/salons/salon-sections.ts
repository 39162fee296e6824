import { and, asc, between, eq } from "drizzle-orm";
import { type CouponTarget, couponFitsPerson } from "../../common/coupon-eligibility";
import { calendarDay } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { customerHistory } from "../bookings/coupon-eligibility.server";
import type { Database } from "../db/client";
import {
  coupons,
  features,
  menus,
  salonBookingSettings,
  salonFeatures,
  stations,
} from "../db/schema";
import { notFound } from "../routing/not-found";
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

/**
 * One request's reads of a published salon, by slug: the layout route of
 * /salons/:id and the tab inside it guard the same request side by side
 * (app/routes/salons.$id._layout.tsx), and ask the database once.
 */
const salonReads = new WeakMap<Request, Map<string, Promise<PublishedSalon | null>>>();

function publishedSalonOnce(request: Request, db: Database, slug: string) {
  let reads = salonReads.get(request);
  if (!reads) {
    reads = new Map();
    salonReads.set(request, reads);
  }
  let read = reads.get(slug);
  if (!read) {
    read = findPublishedSalon(db, slug);
    reads.set(slug, read);
  }
  return read;
}

/**
 * The guard of every tab of a salon's pages and of their layout: the
 * published salon of the URL's slug, or the 404 screen (unknown, malformed,
 * draft or suspended; an old slug never gets here, its route rule redirects).
 */
export async function requirePublishedSalon(
  request: Request,
  db: Database,
  slug: string,
): Promise<PublishedSalon> {
  const found = await publishedSalonOnce(request, db, slug);
  if (!found) throw notFound(request);
  return found;
}

/** What every tab of a salon's pages shows around its own part: the header, the tab bar, the bar. */
export type SalonFrame = Omit<PublishedSalon, "id"> & { via: BookingVia | null };

/** The frame of a salon found, read once by the layout route; the salon's id stays on the server. */
export async function salonFrameOf(
  db: Database,
  { id, ...found }: PublishedSalon,
  searchParams: URLSearchParams,
  now: Date,
): Promise<SalonFrame> {
  const today = calendarDay(now, found.salon.timeZone);
  return { ...found, via: await bookingViaOf(db, id, searchParams, today) };
}

/** /salons/:id (トップ): the salon page's summary. */
export function loadSalonTopPage(db: Database, salon: PublishedSalon, now: Date) {
  return salonDetailOf(db, salon, now);
}

/** /salons/:id/coupons: today's coupons and the published menus. */
export function loadSalonCouponsPage(db: Database, salon: PublishedSalon, now: Date) {
  return salonMenusAndCoupons(db, salon.id, calendarDay(now, salon.salon.timeZone));
}

/** /salons/:id/styles: the photos with their stylist and menu. */
export async function loadSalonStylesPage(db: Database, salon: PublishedSalon) {
  return { photos: await salonPhotosOf(db, salon.id) };
}

/** /salons/:id/stylists: the active stylists. */
export async function loadSalonStylistsPage(db: Database, salon: PublishedSalon) {
  return { staff: await salonStylistsOf(db, salon.id) };
}

/**
 * /salons/:id/access: where the salon is (the nearest stations with the
 * walk, decision 0057), its hours and closures.
 */
export async function loadSalonAccessPage(db: Database, found: PublishedSalon) {
  const point = { latitude: found.salon.latitude, longitude: found.salon.longitude };
  const box = boundingBox(point, NEAR_STATION_METRES);
  const [openingHours, settings, stationRows, featureRows] = await Promise.all([
    openingHoursOf(db, found.id),
    db
      .select({ closedOnPublicHolidays: salonBookingSettings.closedOnPublicHolidays })
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, found.id)),
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
      .where(eq(salonFeatures.salonId, found.id))
      .orderBy(asc(features.sortOrder), asc(features.slug)),
  ]);
  return {
    openingHours,
    closedOnPublicHolidays: settings[0]?.closedOnPublicHolidays ?? false,
    stations: nearestStations(point, stationRows).map(({ latitude: _a, longitude: _b, ...s }) => s),
    features: featureRows,
  };
}

/**
 * A signed-in visitor's coupons: each marked usable or not from the salon's
 * customer records (target 新規/再来, once per customer; decision 0087), the
 * usable ones first. A guest's (the shared page) stay as they are, all with
 * their targets. Display only: hold and confirm decide again.
 */
export async function couponsForVisitor<
  C extends { id: string; target: CouponTarget; oncePerCustomer: boolean; usable: boolean | null },
>(db: Database, salonId: string, userId: string | null, list: C[]): Promise<C[]> {
  if (!userId || list.length === 0) return list;
  const history = await customerHistory(db, salonId, userId);
  const marked = list.map((coupon) => ({
    ...coupon,
    usable: couponFitsPerson(coupon, coupon.id, history),
  }));
  return [...marked.filter((c) => c.usable), ...marked.filter((c) => !c.usable)];
}
