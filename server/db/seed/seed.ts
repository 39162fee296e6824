import type { PgTable } from "drizzle-orm/pg-core";
import { toLocal } from "../../../common/local-time";
import { refreshSalonHorizon } from "../../bookings/free-days.server";
import { backfillSalonCustomers } from "../../bookings/salon-customers.server";
import { recomputeSalonsDerived } from "../../salons/derived.server";
import type { Database } from "../client";
import { areas, prefectures, stations } from "../schema/areas";
import { bookingMenus, bookings } from "../schema/bookings";
import { articles } from "../schema/content";
import { couponMenus, coupons, menuStaff, menus } from "../schema/menus";
import { reviews } from "../schema/reviews";
import { features, salonFeatures, salonPhotos, salons } from "../schema/salons";
import {
  salonBookingSettings,
  salonOpeningHours,
  scheduleExceptions,
  staffSchedules,
} from "../schema/schedules";
import { staff } from "../schema/staff";
import { type DatedRows, generateDatedRows } from "./bookings";
import { areaSeeds } from "./data/areas";
import { articleSeeds } from "./data/articles";
import { featureSeeds } from "./data/features";
import { prefectureSeeds } from "./data/prefectures";
import { seedDemoPaymentPolicy } from "./demo-payment-policy";
import { seedDemoProducts } from "./demo-products";
import { demoOwnerSalons, generateDemoWeek, writeDemoWeek } from "./demo-week";
import { areaId, generateSalon, type ResolvedArea, type SalonBundle, stationId } from "./generate";
import { seedId } from "./ids";

export type SeedOptions = {
  salonCount: number;
  /** Bookings and exceptions are placed from this instant on (default: the clock). */
  now?: Date;
  log?: (message: string) => void;
};

/** Salons generated and written per transaction. */
const SALONS_PER_CHUNK = 250;
/** PostgreSQL accepts at most 65,535 bind parameters per statement. */
const MAX_PARAMETERS = 60_000;
const MAX_ROWS_PER_INSERT = 1000;

type Inserter = Pick<Database, "insert">;

/**
 * Inserts rows with multi-row statements, skipping rows whose key already
 * exists, so running the seed again never duplicates anything.
 */
async function insertAll<TTable extends PgTable>(
  db: Inserter,
  table: TTable,
  rows: readonly TTable["$inferInsert"][],
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first).length;
  const perInsert = Math.max(
    1,
    Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / columns)),
  );
  for (let start = 0; start < rows.length; start += perInsert) {
    await db
      .insert(table)
      .values(rows.slice(start, start + perInsert))
      .onConflictDoNothing();
  }
}

/** True when the database already holds at least one salon. */
export async function isSeeded(db: Database): Promise<boolean> {
  const rows = await db.select({ id: salons.id }).from(salons).limit(1);
  return rows.length > 0;
}

function resolveAreas(): ResolvedArea[] {
  const prefectureNames = new Map(prefectureSeeds.map((p) => [p.code, p.name]));
  return areaSeeds.map((area) => ({
    ...area,
    id: areaId(area.slug),
    prefectureName: prefectureNames.get(area.prefectureCode) ?? "",
    stationIds: new Map(area.stations.map((s) => [s.slug, stationId(s.slug)])),
  }));
}

async function seedReferenceData(db: Inserter, resolved: readonly ResolvedArea[]): Promise<void> {
  await insertAll(db, prefectures, [...prefectureSeeds]);
  await insertAll(
    db,
    areas,
    resolved.map((area, i) => ({
      id: area.id,
      slug: area.slug,
      prefectureCode: area.prefectureCode,
      parentId: null,
      name: area.name,
      kana: area.kana,
      description: area.description,
      sortOrder: i,
    })),
  );
  await insertAll(
    db,
    stations,
    resolved.flatMap((area) =>
      area.stations.map((s) => ({
        id: area.stationIds.get(s.slug) ?? stationId(s.slug),
        slug: s.slug,
        areaId: area.id,
        name: s.name,
        kana: s.kana,
        lines: [...s.lines],
        latitude: s.latitude,
        longitude: s.longitude,
      })),
    ),
  );
  await insertAll(
    db,
    features,
    featureSeeds.map((f, i) => ({ ...f, sortOrder: i })),
  );
  await insertAll(
    db,
    articles,
    articleSeeds.map((a) => ({
      id: seedId(`article:${a.slug}`),
      ...a,
      createdAt: a.publishedAt,
      updatedAt: a.publishedAt,
    })),
  );
}

async function insertBundles(
  db: Inserter,
  bundles: readonly SalonBundle[],
  dated: readonly DatedRows[],
): Promise<void> {
  const rows = {
    salons: bundles.map((b) => b.salon),
    openingHours: bundles.flatMap((b) => b.openingHours),
    bookingSettings: bundles.flatMap((b) => (b.bookingSettings ? [b.bookingSettings] : [])),
    features: bundles.flatMap((b) => b.features),
    photos: bundles.flatMap((b) => b.photos),
    staff: bundles.flatMap((b) => b.staff),
    schedules: bundles.flatMap((b) => b.schedules),
    menus: bundles.flatMap((b) => b.menus),
    menuStaff: bundles.flatMap((b) => b.menuStaff),
    coupons: bundles.flatMap((b) => b.coupons),
    couponMenus: bundles.flatMap((b) => b.couponMenus),
    reviews: bundles.flatMap((b) => b.reviews),
    reviewBookings: bundles.flatMap((b) => b.reviewBookings),
    reviewBookingMenus: bundles.flatMap((b) => b.reviewBookingMenus),
  };
  // Parents before children, so foreign keys hold inside the transaction.
  await insertAll(db, salons, rows.salons);
  await insertAll(db, salonOpeningHours, rows.openingHours);
  await insertAll(db, salonBookingSettings, rows.bookingSettings);
  await insertAll(db, salonFeatures, rows.features);
  await insertAll(db, staff, rows.staff);
  await insertAll(db, staffSchedules, rows.schedules);
  await insertAll(db, menus, rows.menus);
  await insertAll(db, menuStaff, rows.menuStaff);
  // After the stylists and menus its スタイル tags name.
  await insertAll(db, salonPhotos, rows.photos);
  await insertAll(db, coupons, rows.coupons);
  await insertAll(db, couponMenus, rows.couponMenus);
  // The visits the demo reviews stand on, then the reviews (decision 0054).
  await insertAll(db, bookings, rows.reviewBookings);
  await insertAll(db, bookingMenus, rows.reviewBookingMenus);
  await insertAll(db, reviews, rows.reviews);
  await insertAll(
    db,
    scheduleExceptions,
    dated.flatMap((d) => d.exceptions),
  );
  await insertAll(
    db,
    bookings,
    dated.flatMap((d) => d.bookings),
  );
  await insertAll(
    db,
    bookingMenus,
    dated.flatMap((d) => d.bookingMenus),
  );
}

/**
 * Writes the demo data set: prefectures, areas, stations, features,
 * articles and `salonCount` salons with their opening hours, booking
 * settings, staff, schedules, menus, coupons, photos and reviews, plus
 * exceptions and bookings over the days after `now`. Deterministic and
 * idempotent: ids derive from stable keys (dated rows from their date) and
 * every insert skips existing rows.
 */
export async function seedDatabase(
  db: Database,
  options: SeedOptions,
): Promise<{ salons: number }> {
  const log = options.log ?? (() => {});
  const salonCount = Math.max(0, Math.floor(options.salonCount));
  const now = options.now ?? new Date();
  const resolved = resolveAreas();

  await db.transaction(async (tx) => {
    await seedReferenceData(tx, resolved);
  });
  log(
    `reference data: ${prefectureSeeds.length} prefectures, ${resolved.length} areas, ${featureSeeds.length} features, ${articleSeeds.length} articles`,
  );

  // Published salons' slugs, to find the demo owner's salons among them afterwards.
  const indexBySlug = new Map<string, number>();
  for (let start = 1; start <= salonCount; start += SALONS_PER_CHUNK) {
    const end = Math.min(salonCount, start + SALONS_PER_CHUNK - 1);
    const bundles: SalonBundle[] = [];
    const dated: DatedRows[] = [];
    for (let index = start; index <= end; index++) {
      const bundle = generateSalon(index, resolved);
      bundles.push(bundle);
      if (bundle.salon.status === "published") indexBySlug.set(bundle.salon.slug, index);
      const today = toLocal(now, bundle.salon.timeZone ?? "Asia/Tokyo").date;
      dated.push(generateDatedRows(bundle, index, today, now));
    }
    await db.transaction(async (tx) => {
      await insertBundles(tx, bundles, dated);
      await recomputeSalonsDerived(
        tx,
        bundles.flatMap((b) => (b.salon.id ? [b.salon.id] : [])),
      );
    });
    // The search's free-time summary, from the engine like every later refresh.
    for (const bundle of bundles) {
      if (bundle.salon.id) await refreshSalonHorizon(db, bundle.salon.id, now);
    }
    if (end === salonCount || end % 1000 === 0) log(`salons ${end}/${salonCount}`);
  }

  // The demo owner's salons (the first published by slug) get a busy, varied week.
  let demoBookings = 0;
  for (const salon of await demoOwnerSalons(db)) {
    const index = indexBySlug.get(salon.slug);
    if (index === undefined) continue;
    demoBookings += await writeDemoWeek(
      db,
      generateDemoWeek(generateSalon(index, resolved), index, now),
    );
    await refreshSalonHorizon(db, salon.id, now);
  }
  if (demoBookings > 0) log(`demo owner's week: ${demoBookings} bookings`);
  const policySalon = await seedDemoPaymentPolicy(db);
  if (policySalon) log(`payment and cancellation policy: ${policySalon}`);
  const productCount = await seedDemoProducts(db);
  if (productCount > 0) log(`retail items for 会計: ${productCount}`);
  // Every other seeded booking gets its salon's customer record, as a booking made in the app does.
  const linked = await backfillSalonCustomers(db);
  if (linked > 0) log(`customer records: ${linked} bookings linked`);

  return { salons: salonCount };
}
