import { describe, expect, it } from "vitest";
import { findAvailability } from "../../server/bookings/availability";
import { loadAvailabilityInput } from "../../server/bookings/availability-data.server";
import {
  InvalidDateRangeError,
  MenuNotAvailableError,
  SalonNotFoundError,
  StaffCannotDoMenuError,
  StaffNotAvailableError,
} from "../../server/bookings/booking-errors";
import { bookingSettingsDefaults, bookingSettingsFor } from "../../server/bookings/settings";
import { scheduleExceptions } from "../../server/db/schema";
import {
  buildBooking,
  buildMenu,
  buildSalon,
  buildSalonWithStaff,
  buildSchedule,
  buildStaff,
  restrictMenu,
} from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);

async function failure(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return "no error";
}

describe("bookingSettingsFor", () => {
  it("gives the defaults without a row, and the salon's own rules with one", async () => {
    const plain = await buildSalon(database.db);
    expect(await bookingSettingsFor(database.db, plain.id)).toEqual(bookingSettingsDefaults);
    const { salon } = await buildSalonWithStaff(database.db, {
      settings: { slotStepMinutes: 30, sameDayCutoff: "17:00", closedOnPublicHolidays: true },
    });
    expect(await bookingSettingsFor(database.db, salon.id)).toMatchObject({
      slotStepMinutes: 30,
      sameDayCutoff: "17:00",
      closedOnHolidays: true,
      leadTimeMinutes: 60,
      holdMinutes: 10,
    });
  });
});

describe("loadAvailabilityInput", () => {
  it("fills the engine's input from schedules, exceptions, holidays and live bookings", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      staffCount: 2,
      settings: { bufferAfterMinutes: 10 },
    });
    const [first, second] = stylists;
    if (!first || !second) throw new Error("two stylists");
    await buildSchedule(database.db, first, [{ weekday: 3, startsAt: "08:00", endsAt: "09:00" }]);
    await database.db.insert(scheduleExceptions).values([
      { salonId: salon.id, date: "2026-12-24", kind: "hours", startsAt: "10:00", endsAt: "15:00" },
      { salonId: salon.id, staffId: second.id, date: "2026-12-02", kind: "closed" },
    ]);
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: first.id,
      startsAt: at("2026-12-02T10:00"),
      endsAt: at("2026-12-02T11:00"),
      occupiedUntil: at("2026-12-02T11:10"),
    });
    // 08:00 in Tokyo is 23:00 UTC the day before: counted on its local date.
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: first.id,
      startsAt: at("2026-12-02T08:00"),
      endsAt: at("2026-12-02T08:30"),
      occupiedUntil: at("2026-12-02T08:40"),
    });
    // A hold that expired before now does not count; a live one does.
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: first.id,
      startsAt: at("2026-12-02T12:00"),
      endsAt: at("2026-12-02T13:00"),
      status: "held",
      holdExpiresAt: at("2026-12-01T08:59"),
    });
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: second.id,
      startsAt: at("2026-12-03T12:00"),
      endsAt: at("2026-12-03T13:00"),
      status: "held",
      holdExpiresAt: at("2026-12-01T09:05"),
    });
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: second.id,
      startsAt: at("2026-12-03T15:00"),
      endsAt: at("2026-12-03T16:00"),
      status: "cancelled_by_user",
    });

    const loaded = await loadAvailabilityInput(database.db, {
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      from: "2026-12-01",
      to: "2027-01-01",
      now: NOW,
    });
    const { input } = loaded;
    expect(input.timeZone).toBe("Asia/Tokyo");
    expect(input.settings.bufferAfterMinutes).toBe(10);
    expect(input.durationMinutes).toBe(60);
    expect(loaded.totalPrice).toBe(5500);
    expect(input.salonHours).toHaveLength(7);
    expect(input.salonHours[0]).toEqual({ weekday: 0, start: "10:00", end: "20:00" });
    expect(input.staff.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(input.staff[0]?.weekly.filter((w) => w.weekday === 3)).toEqual([
      { weekday: 3, start: "08:00", end: "09:00", validFrom: null, validUntil: null },
      { weekday: 3, start: "10:00", end: "20:00", validFrom: null, validUntil: null },
    ]);
    expect(input.salonExceptions).toEqual([
      { date: "2026-12-24", kind: "hours", intervals: [{ start: "10:00", end: "15:00" }] },
    ]);
    expect(input.staff[1]?.exceptions).toEqual([
      { date: "2026-12-02", kind: "closed", intervals: [] },
    ]);
    expect(input.busy).toEqual(
      expect.arrayContaining([
        { staffId: first.id, start: at("2026-12-02T08:00"), end: at("2026-12-02T08:30") },
        { staffId: first.id, start: at("2026-12-02T10:00"), end: at("2026-12-02T11:00") },
        { staffId: second.id, start: at("2026-12-03T12:00"), end: at("2026-12-03T13:00") },
      ]),
    );
    expect(input.busy).toHaveLength(3);
    expect(input.bookingsPerStaffDay.get(`${first.id}|2026-12-02`)).toBe(2);
    expect(input.bookingsPerStaffDay.get(`${first.id}|2026-12-01`)).toBeUndefined();
    expect(input.holidays.has("2026-12-23")).toBe(false);
    expect(input.holidays.has("2027-01-01")).toBe(true);
    // The engine accepts it as it is.
    const days = findAvailability(input);
    expect(days).toHaveLength(32);
  });

  /** A salon with one stylist, and that stylist's busy time on a date as the loader reads it. */
  async function oneStylist() {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0];
    if (!stylist) throw new Error("stylist");
    const book = (
      startsAt: string,
      endsAt: string,
      overrides: Partial<Parameters<typeof buildBooking>[1]> = {},
    ) =>
      buildBooking(database.db, {
        salonId: salon.id,
        staffId: stylist.id,
        startsAt: at(startsAt),
        endsAt: at(endsAt),
        ...overrides,
      });
    const busyOn = async (date: string) => {
      const { input } = await loadAvailabilityInput(database.db, {
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: stylist.id,
        from: date,
        to: date,
        now: NOW,
      });
      return input.busy;
    };
    return { stylist, book, busyOn };
  }

  it("keeps a longer buffer a booking was made with", async () => {
    const { stylist, book, busyOn } = await oneStylist();
    await book("2026-12-02T10:00", "2026-12-02T11:00", { occupiedUntil: at("2026-12-02T11:30") });
    expect(await busyOn("2026-12-02")).toEqual([
      { staffId: stylist.id, start: at("2026-12-02T10:00"), end: at("2026-12-02T11:30") },
    ]);
  });

  it("counts a booking reaching into the range from two days before it, and no earlier ones", async () => {
    const { stylist, book, busyOn } = await oneStylist();
    // History: a month of finished bookings, which the function must not read.
    for (let day = 1; day <= 28; day++) {
      const date = `2026-11-${String(day).padStart(2, "0")}`;
      await book(`${date}T10:00`, `${date}T11:00`, { status: "completed" });
    }
    // 42 hours, ending inside the day before the range (the function reads
    // from then on, for buffers and bookings across midnight); a lower bound
    // of one day before would miss it.
    await book("2026-11-29T12:00", "2026-12-01T06:00");
    expect(await busyOn("2026-12-02")).toEqual([
      { staffId: stylist.id, start: at("2026-11-29T12:00"), end: at("2026-12-01T06:00") },
    ]);
  });

  it("offers only stylists who can do every chosen menu", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 3 });
    const [first, , third] = stylists;
    if (!first || !third) throw new Error("stylists");
    const perm = await buildMenu(database.db, salon.id, { name: "パーマ" });
    await restrictMenu(database.db, perm.id, [first.id, third.id]);
    await buildStaff(database.db, salon.id, { active: false });
    const { input } = await loadAvailabilityInput(database.db, {
      salonId: salon.id,
      menuIds: [menu.id, perm.id],
      staffId: null,
      from: "2026-12-02",
      to: "2026-12-02",
      now: NOW,
    });
    expect(input.staff.map((s) => s.id)).toEqual([first.id, third.id]);
    expect(input.durationMinutes).toBe(120);
  });

  describe("rejects bad requests with a Japanese message and a 4xx", () => {
    async function setup() {
      const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
      const request = {
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null as string | null,
        from: "2026-12-02",
        to: "2026-12-08",
        now: NOW,
      };
      return { salon, stylists, menu, request };
    }

    it("an unknown, malformed or unpublished salon: 404", async () => {
      const { request } = await setup();
      const draft = await buildSalon(database.db, { status: "draft" });
      for (const salonId of ["00000000-0000-4000-8000-000000000000", "abc", draft.id]) {
        const error = await failure(loadAvailabilityInput(database.db, { ...request, salonId }));
        expect(error).toBeInstanceOf(SalonNotFoundError);
        expect((error as SalonNotFoundError).status).toBe(404);
      }
    });

    it("a menu of another salon, an unpublished, duplicated, malformed or missing menu: 400", async () => {
      const { request, salon } = await setup();
      const elsewhere = await buildSalon(database.db);
      const foreign = await buildMenu(database.db, elsewhere.id);
      const hidden = await buildMenu(database.db, salon.id, { published: false });
      for (const menuIds of [
        [foreign.id],
        [hidden.id],
        [request.menuIds[0] ?? "", request.menuIds[0] ?? ""],
        ["not-a-uuid"],
        [],
      ]) {
        const error = await failure(loadAvailabilityInput(database.db, { ...request, menuIds }));
        expect(error, JSON.stringify(menuIds)).toBeInstanceOf(MenuNotAvailableError);
        expect((error as MenuNotAvailableError).status).toBe(400);
        expect((error as Error).message).toMatch(/メニュー/);
      }
    });

    it("a stylist of another salon or inactive: 400; one who cannot do the menu: 400", async () => {
      const { request, salon, stylists, menu } = await setup();
      const elsewhere = await buildSalonWithStaff(database.db);
      const inactive = await buildStaff(database.db, salon.id, { active: false });
      for (const staffId of [elsewhere.stylists[0]?.id ?? "", inactive.id, "x"]) {
        const error = await failure(loadAvailabilityInput(database.db, { ...request, staffId }));
        expect(error).toBeInstanceOf(StaffNotAvailableError);
      }
      await restrictMenu(database.db, menu.id, [stylists[0]?.id ?? ""]);
      const error = await failure(
        loadAvailabilityInput(database.db, { ...request, staffId: stylists[1]?.id ?? null }),
      );
      expect(error).toBeInstanceOf(StaffCannotDoMenuError);
      expect((error as StaffCannotDoMenuError).status).toBe(400);
    });

    it("a malformed, reversed or too long date range: 400", async () => {
      const { request } = await setup();
      for (const [from, to] of [
        ["2026-12-2", "2026-12-08"],
        ["2026-02-30", "2026-03-01"],
        ["2026-12-08", "2026-12-02"],
        ["2026-12-01", "2027-03-01"],
      ]) {
        const error = await failure(
          loadAvailabilityInput(database.db, { ...request, from: from ?? "", to: to ?? "" }),
        );
        expect(error, `${from}..${to}`).toBeInstanceOf(InvalidDateRangeError);
        expect((error as InvalidDateRangeError).status).toBe(400);
      }
    });
  });
});
