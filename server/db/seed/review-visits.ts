import type { BookingMenuRow, BookingRow } from "./bookings";
import { bookingNumber } from "./bookings";
import { familyNames, femaleGivenNames, maleGivenNames } from "./data/names";
import type { MenuRow, MenuStaffRow, ReviewRow } from "./generate";
import { seedId } from "./ids";
import { Random } from "./random";

/**
 * The completed visit each demo review stands on (issue 30, point 1;
 * decision 0054): a review is written from a completed booking, so the
 * seed writes that booking first: on the review's visit date, with its
 * stylist and one or two of the menus that stylist does, by a customer
 * whose label matches the review's. A stylist's visits on one date are laid
 * one after another from opening time, so they never overlap (the
 * exclusion constraint covers completed bookings too).
 * Drawn from its own generator, so the rest of the salon's data is unchanged.
 */
export function reviewVisits(input: {
  salonId: string;
  index: number;
  opens: string;
  reviews: ReviewRow[];
  menus: readonly MenuRow[];
  menuStaff: readonly MenuStaffRow[];
}): { bookings: BookingRow[]; bookingMenus: BookingMenuRow[] } {
  const bookings: BookingRow[] = [];
  const bookingMenus: BookingMenuRow[] = [];
  const [openH = 10, openM = 0] = input.opens.split(":").map(Number);
  const nextFree = new Map<string, number>();
  input.reviews.forEach((review, k) => {
    const rng = new Random(`review-visit:${input.index}:${k}`);
    const staffId = review.staffId;
    if (!staffId || !review.visitedOn) return;
    const theirs = new Set(
      input.menuStaff.filter((row) => row.staffId === staffId).map((row) => row.menuId),
    );
    const candidates = input.menus.filter((menu) => menu.id && theirs.has(menu.id));
    const pool = candidates.length > 0 ? candidates : input.menus;
    const chosen = rng.sample(pool, Math.min(pool.length, rng.chance(0.3) ? 2 : 1));
    if (chosen.length === 0) return;
    const key = `${staffId}:${review.visitedOn}`;
    const start = nextFree.get(key) ?? openH * 60 + openM + rng.int(0, 3) * 60;
    const duration = chosen.reduce((sum, menu) => sum + (menu.durationMinutes ?? 60), 0);
    nextFree.set(key, start + duration + 30);
    const startsAt = localInstant(review.visitedOn, start);
    const endsAt = new Date(startsAt.getTime() + duration * 60_000);
    const female = review.authorLabel.endsWith("女性");
    const family = rng.pick(familyNames);
    const given = rng.pick(female ? femaleGivenNames : maleGivenNames);
    const id = seedId(`review-visit:${input.salonId}:${k}`);
    bookings.push({
      id,
      salonId: input.salonId,
      staffId,
      staffRequested: rng.chance(0.7),
      bookingNumber: bookingNumber(rng),
      startsAt,
      endsAt,
      occupiedUntil: endsAt,
      totalPrice: chosen.reduce((sum, menu) => sum + (menu.price ?? 0), 0),
      status: "completed",
      source: "web",
      customerName: `${family.name} ${given.name}`,
      customerKana: `${family.kana} ${given.kana}`,
      customerPhone: `080${String(rng.int(1000, 9999))}${String(rng.int(1000, 9999))}`,
      arrivedAt: startsAt,
      createdAt: new Date(startsAt.getTime() - rng.int(2, 20) * 24 * 3_600_000),
      updatedAt: endsAt,
    });
    chosen.forEach((menu, position) => {
      bookingMenus.push({
        salonId: input.salonId,
        bookingId: id,
        position,
        menuId: menu.id ?? "",
        name: menu.name,
        price: menu.price ?? 0,
        durationMinutes: menu.durationMinutes ?? 60,
      });
    });
    review.bookingId = id;
  });
  return { bookings, bookingMenus };
}

/** The instant of a Tokyo wall-clock time (the demo salons are all in Asia/Tokyo). */
function localInstant(date: string, minutes: number): Date {
  const h = String(Math.floor(minutes / 60)).padStart(2, "0");
  const m = String(minutes % 60).padStart(2, "0");
  return new Date(`${date}T${h}:${m}:00+09:00`);
}
