import { randomUUID } from "node:crypto";
import type { Database } from "../../server/db/client";
import {
  areas,
  features,
  menus,
  prefectures,
  reviews,
  salonFeatures,
  salons,
  staff,
  stations,
  users,
} from "../../server/db/schema";

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

export async function buildSalon(
  db: Database,
  overrides: Partial<typeof salons.$inferInsert> = {},
) {
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
  return salon;
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
  }
  return feature;
}

export async function buildReview(
  db: Database,
  salonId: string,
  overrides: Partial<typeof reviews.$inferInsert> = {},
) {
  const [review] = await db
    .insert(reviews)
    .values({
      salonId,
      authorLabel: "20代後半・女性",
      rating: 5,
      body: "とても丁寧に対応していただきました。",
      visitedOn: "2026-10-01",
      ...overrides,
    })
    .returning();
  if (!review) throw new Error("review not inserted");
  return review;
}
