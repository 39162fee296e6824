import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { coupons, salonPhotos } from "../../server/db/schema";
import { getSalonDetail, LATEST_REVIEWS } from "../../server/salons/salon-detail";
import { buildFeature, buildMenu, buildReview, buildSalon, buildStaff } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const now = new Date("2026-11-22T03:00:00Z");

beforeAll(async () => {
  const { db } = database;
  const salon = await buildSalon(db, {
    slug: "detail-salon",
    name: "Hair DETAIL",
    openingHours: [
      { weekday: 2, opens: "14:00", closes: "20:00" },
      { weekday: 1, opens: "10:00", closes: "19:00" },
      { weekday: 2, opens: "10:00", closes: "13:00" },
    ],
  });
  await buildSalon(db, { slug: "hidden-salon", status: "draft" });
  await buildMenu(db, salon.id, { category: "カット", name: "カット", sortOrder: 1 });
  await buildMenu(db, salon.id, { category: "カラー", name: "カラー", price: 8800, sortOrder: 2 });
  await buildMenu(db, salon.id, {
    category: "カット",
    name: "前髪カット",
    price: 1100,
    sortOrder: 3,
  });
  await buildMenu(db, salon.id, { category: "カット", name: "非公開", published: false });
  await buildStaff(db, salon.id, { slug: "stylist-a", name: "佐藤 美咲", sortOrder: 1 });
  await buildStaff(db, salon.id, { slug: "stylist-gone", active: false });
  await buildFeature(db, [salon.id], { slug: "private-room", name: "個室あり" });
  await db.insert(coupons).values([
    {
      salonId: salon.id,
      title: "有効",
      discountKind: "percent",
      discountValue: 10,
      validFrom: "2026-11-01",
    },
    {
      salonId: salon.id,
      title: "終了",
      discountKind: "amount",
      discountValue: 500,
      validFrom: "2026-01-01",
      validUntil: "2026-11-21",
    },
    {
      salonId: salon.id,
      title: "未開始",
      discountKind: "amount",
      discountValue: 500,
      validFrom: "2026-12-01",
    },
  ]);
  for (let day = 1; day <= LATEST_REVIEWS + 2; day++) {
    await buildReview(db, salon.id, {
      title: `口コミ${day}`,
      visitedOn: `2026-10-${String(day).padStart(2, "0")}`,
      createdAt: new Date(`2026-10-${String(day).padStart(2, "0")}T20:00:00+09:00`),
    });
  }
});

describe("getSalonDetail", () => {
  it("returns null for unknown, malformed and unpublished salons", async () => {
    expect(await getSalonDetail(database.db, "no-such-salon", now)).toBeNull();
    expect(await getSalonDetail(database.db, "Bad Slug!", now)).toBeNull();
    expect(await getSalonDetail(database.db, "hidden-salon", now)).toBeNull();
  });

  it("lists opening intervals as HH:MM by weekday, several a day", async () => {
    const detail = await getSalonDetail(database.db, "detail-salon", now);
    expect(detail?.salon.openingHours).toEqual([
      { weekday: 1, opens: "10:00", closes: "19:00" },
      { weekday: 2, opens: "10:00", closes: "13:00" },
      { weekday: 2, opens: "14:00", closes: "20:00" },
    ]);
  });

  it("groups published menus by category in display order", async () => {
    const detail = await getSalonDetail(database.db, "detail-salon", now);
    expect(
      detail?.menuGroups.map((group) => [group.category, group.menus.map((menu) => menu.name)]),
    ).toEqual([
      ["カット", ["カット", "前髪カット"]],
      ["カラー", ["カラー"]],
    ]);
  });

  it("shows active staff, features and only coupons valid today", async () => {
    const detail = await getSalonDetail(database.db, "detail-salon", now);
    expect(detail?.staff.map((member) => member.slug)).toEqual(["stylist-a"]);
    expect(detail?.features).toEqual([{ slug: "private-room", name: "個室あり" }]);
    expect(detail?.coupons.map((coupon) => coupon.title)).toEqual(["有効"]);
    expect(detail?.salon).not.toHaveProperty("searchText");
  });

  it("shows the latest reviews, newest first, with the count of all", async () => {
    const detail = await getSalonDetail(database.db, "detail-salon", now);
    expect(detail?.reviews.summary.count).toBe(LATEST_REVIEWS + 2);
    expect(detail?.reviews.latest.map((review) => review.title)).toEqual(
      [5, 4, 3].map((day) => `口コミ${day}`),
    );
  });

  it("puts the cover inside the page when it is a small site SVG, and only the cover (issue 42)", async () => {
    const salon = await buildSalon(database.db, { slug: "photo-salon" });
    const photo = { salonId: salon.id, alt: "店内", width: 800, height: 600 };
    await database.db.insert(salonPhotos).values([
      { ...photo, url: "/images/salons/hair-1.svg", sortOrder: 1 },
      { ...photo, url: "/images/salons/hair-2.svg", sortOrder: 2 },
    ]);
    const detail = await getSalonDetail(database.db, "photo-salon", now);
    expect(detail?.photos.map((p) => p.url)).toEqual([
      "/images/salons/hair-1.svg",
      "/images/salons/hair-2.svg",
    ]);
    expect(detail?.photos[0]?.inline).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(detail?.photos[1]?.inline).toBeNull();
    // An uploaded photo is never inlined.
    await database.db
      .update(salonPhotos)
      .set({ url: "/uploads/salons/x/cover.webp" })
      .where(eq(salonPhotos.url, "/images/salons/hair-1.svg"));
    expect((await getSalonDetail(database.db, "photo-salon", now))?.photos[0]?.inline).toBeNull();
  });
});
