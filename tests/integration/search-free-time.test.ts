import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import {
  FREE_DAYS_HORIZON,
  refreshSalonAvailability,
  refreshSalonHorizon,
  refreshStaleFreeDays,
} from "../../server/bookings/free-days.server";
import { salonFreeDays } from "../../server/db/schema";
import { getSalonDetail } from "../../server/salons/salon-detail";
import { searchSalons } from "../../server/salons/search";
import { wordedSearchParams } from "../../server/salons/search-words";
import { bookingClient } from "../support/booking-client";
import {
  buildArea,
  buildBooking,
  buildMenu,
  buildSalon,
  buildSalonWithStaff,
  buildSchedule,
  buildStaff,
  buildUser,
} from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
// Every salon of this file lives in one area, so `area=` searches see only them.
let areaSlug = "";
let areaId = "";
beforeAll(async () => {
  ({ slug: areaSlug, id: areaId } = await buildArea(database.db));
});

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${local}:00+09:00`);
const customer = {
  name: "予約 花子",
  kana: "よやく はなこ",
  phone: "090-1234-5678",
  email: "h@example.jp",
};

/** Slugs found by a search in this file's area, with the fixed clock. */
async function found(query: string) {
  const result = await searchSalons(
    database.db,
    parseSearchQuery(new URLSearchParams(`area=${areaSlug}&${query}`)),
    100,
    NOW,
  );
  return result;
}
const slugs = async (query: string) => (await found(query)).salons.map((s) => s.slug).sort();

/** One stylist working 10:00–20:00 every day, a 60-minute menu, in this file's area. */
function salonWithStaff(slug: string) {
  return buildSalonWithStaff(database.db, { salon: { slug, areaId } });
}

/** A salonWithStaff whose stylist is booked on DAY from `from` to `to`, its free days refreshed. */
async function salonBookedOnDay(slug: string, from: string, to: string) {
  const { salon, stylists } = await salonWithStaff(slug);
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  await buildBooking(database.db, {
    salonId: salon.id,
    staffId: stylist.id,
    startsAt: at(`${DAY}T${from}`),
    endsAt: at(`${DAY}T${to}`),
    status: "confirmed",
  });
  await refreshSalonAvailability(database.db, salon.id, [DAY], NOW);
}

/** One stylist and one 60-minute menu, open 10:00–11:00 every day: a single slot a day. */
async function oneSlotSalon(slug: string) {
  const hours = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
    weekday,
    opens: "10:00",
    closes: "11:00",
  }));
  const salon = await buildSalon(database.db, {
    slug,
    areaId,
    openingHours: hours,
  });
  const member = await buildStaff(database.db, salon.id);
  await buildSchedule(
    database.db,
    member,
    hours.map(({ weekday }) => ({ weekday, startsAt: "10:00", endsAt: "11:00" })),
  );
  const menu = await buildMenu(database.db, salon.id);
  return { salon, member, menu };
}

describe("search by free time", () => {
  it("finds a salon with a free time that day and not one fully booked", async () => {
    const full = await salonWithStaff("free-full");
    const open = await salonWithStaff("free-open");
    const stylist = full.stylists[0];
    if (!stylist) throw new Error("no stylist");
    await buildBooking(database.db, {
      salonId: full.salon.id,
      staffId: stylist.id,
      startsAt: at(`${DAY}T10:00`),
      endsAt: at(`${DAY}T20:00`),
      status: "confirmed",
    });
    await refreshSalonHorizon(database.db, full.salon.id, NOW);
    await refreshSalonHorizon(database.db, open.salon.id, NOW);

    expect(await slugs(`date=${DAY}`)).toEqual(["free-open"]);
    // The next day the booked salon is free again.
    expect(await slugs("date=2026-12-04")).toEqual(["free-full", "free-open"]);
    const result = await found(`date=${DAY}`);
    expect(result.freeTimes["free-open"]).toEqual({
      date: DAY,
      times: ["10:00", "10:15", "10:30"],
    });
  });

  it("filters by the time of day: a free start in [from, to)", async () => {
    await salonBookedOnDay("free-afternoon", "10:00", "15:00");

    expect(await slugs(`date=${DAY}&from=10:00&to=12:00`)).not.toContain("free-afternoon");
    expect(await slugs(`date=${DAY}&to=15:00`)).not.toContain("free-afternoon");
    expect(await slugs(`date=${DAY}&from=15:00`)).toContain("free-afternoon");
    expect(await slugs(`date=${DAY}&from=14:00&to=15:15`)).toContain("free-afternoon");
    const result = await found(`date=${DAY}&from=16:00&to=18:00`);
    expect(result.freeTimes["free-afternoon"]).toEqual({
      date: DAY,
      times: ["16:00", "16:15", "16:30"],
    });
    // A reversed range is dropped, not an empty result.
    expect(await slugs(`date=${DAY}&from=18:00&to=10:00`)).toContain("free-afternoon");
  });

  it("reads a day's starts when the range falls in a gap between its first and last", async () => {
    // Free 10:00 (one start before the booking) and 17:00–19:00: the first
    // start is before any range below and the last after it.
    await salonBookedOnDay("free-gap", "11:00", "17:00");

    expect(await slugs(`date=${DAY}&from=10:15&to=17:00`)).not.toContain("free-gap");
    expect(await slugs(`date=${DAY}&from=12:00&to=17:15`)).toContain("free-gap");
    expect(await slugs(`date=${DAY}&from=10:15&to=19:00`)).toContain("free-gap");
  });

  it("follows a booking taken then cancelled; a hold alone does not hide the salon", async () => {
    const { salon, menu } = await oneSlotSalon("free-one-slot");
    await refreshSalonHorizon(database.db, salon.id, NOW);
    expect(await slugs(`date=${DAY}`)).toContain("free-one-slot");

    const user = await buildUser(database.db);
    const held = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: at(`${DAY}T10:00`),
      userId: user.id,
      now: NOW,
    });
    expect(await slugs(`date=${DAY}`)).toContain("free-one-slot");

    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: held.id,
      userId: user.id,
      customer,
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    expect(await slugs(`date=${DAY}`)).not.toContain("free-one-slot");

    await cancelBooking(database.db, {
      bookingId: booking.id,
      userId: user.id,
      reason: "",
      now: NOW,
    });
    expect(await slugs(`date=${DAY}`)).toContain("free-one-slot");
  });

  it("without a date, shows the next free times from now; a time range looks over the horizon", async () => {
    const { salon } = await oneSlotSalon("free-next");
    await refreshSalonHorizon(database.db, salon.id, NOW);
    const result = await found("");
    // 09:00 now, 60 min lead time: today's 10:00 is still bookable.
    expect(result.freeTimes["free-next"]).toEqual({ date: "2026-12-01", times: ["10:00"] });
    expect((await getSalonDetail(database.db, "free-next", NOW))?.freeTimes).toEqual({
      date: "2026-12-01",
      times: ["10:00"],
    });
    expect(await slugs("from=10:00&to=10:30")).toContain("free-next");
    expect(await slugs("from=12:00")).not.toContain("free-next");
  });

  it("the periodic pass refreshes salons whose rows are missing or old", async () => {
    const { salon } = await oneSlotSalon("free-stale");
    const later = new Date(NOW.getTime() + 24 * 3_600_000);
    // Nothing written for this salon yet; after the pass it has the full horizon.
    while ((await refreshStaleFreeDays(database.db, later, 50)) > 0) {}
    const rows = await database.db
      .select({ date: salonFreeDays.date })
      .from(salonFreeDays)
      .where(eq(salonFreeDays.salonId, salon.id));
    expect(rows.map((row) => row.date).sort()[0]).toBe("2026-12-02");
    expect(rows).toHaveLength(FREE_DAYS_HORIZON);
    expect(await refreshStaleFreeDays(database.db, later, 50)).toBe(0);
  });
});

describe("a weekday typed on that weekday (issue 38, §3)", () => {
  // Saturday 5 December 2026; the salon works 10:00–20:00 with a 60-minute menu, so its
  // last start of the day is 19:00.
  const SATURDAY = "2026-12-05";
  const NEXT_SATURDAY = "2026-12-12";
  const dateOf = async (params: string, now: Date) =>
    (await wordedSearchParams(database.db, new URLSearchParams(params), now))?.get("date");

  it("means today while today still has a free time, the next one once the last has passed", async () => {
    const { slug, id } = await buildArea(database.db);
    const { salon } = await buildSalonWithStaff(database.db, {
      salon: { slug: "weekday-word", areaId: id },
    });
    const morning = at(`${SATURDAY}T10:30`);
    await refreshSalonAvailability(database.db, salon.id, [SATURDAY, NEXT_SATURDAY], morning);
    expect(await dateOf(`area=${slug}&q=土曜`, morning)).toBe(SATURDAY);
    expect(await dateOf(`area=${slug}&q=土曜日 カット`, at(`${SATURDAY}T18:30`))).toBe(SATURDAY);
    // 19:30: the day's last start (19:00) has passed; next Saturday has the salon's times.
    const evening = at(`${SATURDAY}T19:30`);
    expect(await dateOf(`area=${slug}&q=土曜`, evening)).toBe(NEXT_SATURDAY);
    const shown = await searchSalons(
      database.db,
      parseSearchQuery(new URLSearchParams(`area=${slug}&date=${NEXT_SATURDAY}`)),
      100,
      evening,
    );
    expect(shown.salons.map((s) => s.slug)).toEqual(["weekday-word"]);
    // Other words never move: 今日 stays today, 来週の土曜 is next week's whatever the hour.
    expect(await dateOf(`area=${slug}&q=今日`, evening)).toBe(SATURDAY);
    expect(await dateOf(`area=${slug}&q=来週の土曜`, morning)).toBe(NEXT_SATURDAY);
  });

  it("stays today when next week finds nothing either", async () => {
    const { slug } = await buildArea(database.db);
    expect(await dateOf(`area=${slug}&q=土曜`, at(`${SATURDAY}T19:30`))).toBe(SATURDAY);
  });
});
