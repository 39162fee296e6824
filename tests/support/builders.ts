import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { newBookingNumber } from "../../server/bookings/booking-number";
import type { Database } from "../../server/db/client";
import {
  areas,
  bookings,
  features,
  menuStaff,
  menus,
  type OpeningHours,
  prefectures,
  reviews,
  salonBookingSettings,
  salonFeatures,
  salonOpeningHours,
  salons,
  staff,
  staffSchedules,
  stations,
  users,
} from "../../server/db/schema";
import { recomputeSalonDerived } from "../../server/salons/derived.server";
import { salonSearchTerms } from "../../server/search/search-terms";

/** Small builders with readable defaults; tests never rely on the demo seed. */
const unique = () => randomUUID().slice(0, 8);

export async function buildArea(db: Database, overrides: Partial<typeof areas.$inferInsert> = {}) {
  await db
    .insert(prefectures)
    .values({ code: 13, slug: "tokyo", name: "東京都", kana: "とうきょうと", region: "関東" })
    .onConflictDoNothing();
  const [area] = await db
    .insert(areas)
    .values({
      slug: `area-${unique()}`,
      prefectureCode: 13,
      name: "渋谷",
      kana: "しぶや",
      ...overrides,
    })
    .returning();
  if (!area) throw new Error("area not inserted");
  return area;
}

/** Salon fields plus its weekly opening intervals (rows of salon_opening_hours). */
export type SalonOverrides = Partial<typeof salons.$inferInsert> & {
  openingHours?: OpeningHours[];
};

const derivedColumns = [
  "searchText",
  "priceMin",
  "priceMax",
  "ratingAverage",
  "reviewCount",
] as const;
type DerivedValues = Partial<Pick<typeof salons.$inferInsert, (typeof derivedColumns)[number]>>;

/**
 * Derived columns a test set by hand (a rating of 4.8 from 200 reviews
 * without writing them), kept across later builders of the same salon.
 */
const pinnedDerived = new Map<string, DerivedValues>();

/**
 * The derived columns as the app computes them (recomputeSalonDerived),
 * then whatever the test pinned.
 */
async function refreshDerived(db: Database, salonId: string) {
  await recomputeSalonDerived(db, salonId);
  const pinned = pinnedDerived.get(salonId);
  if (pinned && Object.keys(pinned).length > 0) {
    await db.update(salons).set(pinned).where(eq(salons.id, salonId));
  }
  if (pinned?.searchText !== undefined) {
    // The search terms follow a pinned search text as they follow a computed one.
    const [row] = await db
      .select({ genre: salons.genre })
      .from(salons)
      .where(eq(salons.id, salonId));
    const featureRows = await db
      .select({ slug: salonFeatures.featureSlug })
      .from(salonFeatures)
      .where(eq(salonFeatures.salonId, salonId));
    const searchTerms = salonSearchTerms({
      genre: row?.genre ?? "hair",
      featureSlugs: featureRows.map((feature) => feature.slug),
      searchText: pinned.searchText,
    });
    await db.update(salons).set({ searchTerms }).where(eq(salons.id, salonId));
  }
}

export async function buildSalon(db: Database, options: SalonOverrides = {}) {
  const { openingHours, ...overrides } = options;
  const areaId = overrides.areaId ?? (await buildArea(db)).id;
  const [salon] = await db
    .insert(salons)
    .values({
      slug: `salon-${unique()}`,
      name: "Hair Salon TEST",
      nameKana: "ヘアサロン テスト",
      genre: "hair",
      postalCode: "150-0001",
      prefectureCode: 13,
      areaId,
      address: "東京都渋谷区神宮前1-1-1",
      latitude: 35.67,
      longitude: 139.7,
      status: "published",
      ...overrides,
    })
    .returning();
  if (!salon) throw new Error("salon not inserted");
  if (openingHours && openingHours.length > 0) {
    await db
      .insert(salonOpeningHours)
      .values(openingHours.map((hours) => ({ salonId: salon.id, ...hours })));
  }
  const pinned: DerivedValues = {};
  for (const column of derivedColumns) {
    if (overrides[column] !== undefined) Object.assign(pinned, { [column]: overrides[column] });
  }
  pinnedDerived.set(salon.id, pinned);
  await refreshDerived(db, salon.id);
  const [derived] = await db.select().from(salons).where(eq(salons.id, salon.id));
  return derived ?? salon;
}

export async function buildStaff(
  db: Database,
  salonId: string,
  overrides: Partial<typeof staff.$inferInsert> = {},
) {
  const [member] = await db
    .insert(staff)
    .values({
      slug: `staff-${unique()}`,
      salonId,
      name: "山田 花子",
      kana: "やまだ はなこ",
      role: "スタイリスト",
      ...overrides,
    })
    .returning();
  if (!member) throw new Error("staff not inserted");
  return member;
}

export async function buildMenu(
  db: Database,
  salonId: string,
  overrides: Partial<typeof menus.$inferInsert> = {},
) {
  const [menu] = await db
    .insert(menus)
    .values({
      salonId,
      category: "カット",
      name: "カット",
      price: 5500,
      durationMinutes: 60,
      ...overrides,
    })
    .returning();
  if (!menu) throw new Error("menu not inserted");
  await refreshDerived(db, salonId);
  return menu;
}

export async function buildUser(db: Database, overrides: Partial<typeof users.$inferInsert> = {}) {
  const id = unique();
  const [user] = await db
    .insert(users)
    .values({
      id: `user-${id}`,
      name: "テスト ユーザー",
      email: `user-${id}@example.jp`,
      // A user who can book (decision 0027); an unverified one says so.
      emailVerified: true,
      ...overrides,
    })
    .returning();
  if (!user) throw new Error("user not inserted");
  return user;
}

export async function buildStation(
  db: Database,
  areaId: string,
  overrides: Partial<typeof stations.$inferInsert> = {},
) {
  const [station] = await db
    .insert(stations)
    .values({
      slug: `station-${unique()}`,
      areaId,
      name: "渋谷",
      kana: "しぶや",
      latitude: 35.658,
      longitude: 139.7016,
      ...overrides,
    })
    .returning();
  if (!station) throw new Error("station not inserted");
  return station;
}

/** A feature (tag) given to the listed salons. */
export async function buildFeature(
  db: Database,
  salonIds: string[],
  overrides: Partial<typeof features.$inferInsert> = {},
) {
  const [feature] = await db
    .insert(features)
    .values({ slug: `feature-${unique()}`, name: "個室あり", ...overrides })
    .returning();
  if (!feature) throw new Error("feature not inserted");
  if (salonIds.length > 0) {
    await db
      .insert(salonFeatures)
      .values(salonIds.map((salonId) => ({ salonId, featureSlug: feature.slug })));
    // A salon's features are part of its search terms (decision 0023).
    for (const salonId of salonIds) await refreshDerived(db, salonId);
  }
  return feature;
}

/**
 * A review and the completed visit it stands on (decision 0054): given no
 * bookingId, a stylist (given by staffId or made) and a completed booking on
 * the visit date are made first.
 */
export async function buildReview(
  db: Database,
  salonId: string,
  overrides: Partial<typeof reviews.$inferInsert> = {},
) {
  const visitedOn = overrides.visitedOn ?? "2026-10-01";
  let bookingId = overrides.bookingId;
  if (!bookingId) {
    const [existing] = await db
      .select({ id: staff.id })
      .from(staff)
      .where(eq(staff.salonId, salonId))
      .limit(1);
    const staffId = overrides.staffId ?? existing?.id ?? (await buildStaff(db, salonId)).id;
    // Each review's visit an hour apart, so one stylist's visits never overlap.
    reviewVisitHour = (reviewVisitHour + 1) % 24;
    const startsAt = new Date(
      `${visitedOn}T${String(reviewVisitHour).padStart(2, "0")}:00:00+09:00`,
    );
    const booking = await buildBooking(db, {
      salonId,
      staffId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 50 * 60_000),
      status: "completed",
      userId: overrides.userId ?? null,
    });
    bookingId = booking.id;
  }
  const [review] = await db
    .insert(reviews)
    .values({
      salonId,
      authorLabel: "20代後半・女性",
      rating: 5,
      body: "とても丁寧に対応していただきました。",
      visitedOn,
      ...overrides,
      bookingId,
    })
    .returning();
  if (!review) throw new Error("review not inserted");
  await refreshDerived(db, salonId);
  return review;
}
let reviewVisitHour = 0;

type ScheduleInterval = { weekday: number; startsAt: string; endsAt: string };

/** Weekly working intervals of a stylist (several a weekday make breaks). */
export async function buildSchedule(
  db: Database,
  member: { id: string; salonId: string },
  intervals: ScheduleInterval[],
) {
  if (intervals.length === 0) return [];
  return db
    .insert(staffSchedules)
    .values(
      intervals.map((interval) => ({ salonId: member.salonId, staffId: member.id, ...interval })),
    )
    .returning();
}

const everyDay = [0, 1, 2, 3, 4, 5, 6];

/**
 * A published salon open 10:00–20:00 every day with `staffCount` stylists
 * working 10:00–20:00 every day, a 60-minute menu and optional booking
 * settings: the common start of booking tests.
 */
export async function buildSalonWithStaff(
  db: Database,
  options: {
    staffCount?: number;
    settings?: Omit<Partial<typeof salonBookingSettings.$inferInsert>, "salonId">;
    salon?: SalonOverrides;
  } = {},
) {
  const salon = await buildSalon(db, {
    openingHours: everyDay.map((weekday) => ({ weekday, opens: "10:00", closes: "20:00" })),
    ...options.salon,
  });
  if (options.settings) {
    await db.insert(salonBookingSettings).values({ salonId: salon.id, ...options.settings });
  }
  const stylists = [];
  for (let i = 0; i < (options.staffCount ?? 1); i++) {
    const member = await buildStaff(db, salon.id, { sortOrder: i, name: `スタイリスト${i + 1}` });
    await buildSchedule(
      db,
      member,
      everyDay.map((weekday) => ({ weekday, startsAt: "10:00", endsAt: "20:00" })),
    );
    stylists.push(member);
  }
  const menu = await buildMenu(db, salon.id);
  return { salon, stylists, menu };
}

/** Only these stylists may do the menu (a menu without rows: anyone). */
export async function restrictMenu(db: Database, menuId: string, staffIds: string[]) {
  await db.insert(menuStaff).values(staffIds.map((staffId) => ({ menuId, staffId })));
}

/** A booking row written directly (no domain rules), for constraint and loader tests. */
export async function buildBooking(
  db: Database,
  values: Pick<typeof bookings.$inferInsert, "salonId" | "staffId" | "startsAt" | "endsAt"> &
    Partial<typeof bookings.$inferInsert>,
) {
  const [booking] = await db
    .insert(bookings)
    .values({
      bookingNumber: newBookingNumber(),
      // occupied_from stays null (its start, no buffer before: decision 0048)
      // unless given, so a test that moves the row's start keeps it valid.
      occupiedUntil: values.endsAt,
      totalPrice: 5500,
      ...values,
    })
    .returning();
  if (!booking) throw new Error("booking not inserted");
  return booking;
}
