import { randomUUID } from "node:crypto";
import type { Database } from "../../server/db/client";
import { areas, menus, prefectures, salons, staff, users } from "../../server/db/schema";

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
