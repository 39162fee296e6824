import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  bookingMenus,
  bookingStatuses,
  occupyingStatuses,
  salonBookingSettings,
  salonOpeningHours,
  scheduleExceptions,
  staffSchedules,
} from "../../server/db/schema";
import {
  buildBooking,
  buildMenu,
  buildSalon,
  buildSalonWithStaff,
  buildStaff,
  buildUser,
} from "../support/builders";
import { sqlState, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const CHECK_VIOLATION = "23514";
const EXCLUSION_VIOLATION = "23P01";
const FOREIGN_KEY_VIOLATION = "23503";
const UNIQUE_VIOLATION = "23505";

async function failureCode(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return sqlState(error);
  }
  return "no error";
}

const at = (time: string) => new Date(`2026-12-01T${time}:00+09:00`);

async function scenario() {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const user = await buildUser(database.db);
  const book = (
    start: string,
    end: string,
    overrides: Partial<Parameters<typeof buildBooking>[1]> = {},
  ) =>
    buildBooking(database.db, {
      userId: user.id,
      salonId: salon.id,
      staffId: stylist.id,
      startsAt: at(start),
      endsAt: at(end),
      ...overrides,
    });
  return { salon, stylist, menu, user, book };
}

describe("double booking", () => {
  it("rejects an overlapping booking of the same stylist", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00");
    expect(await failureCode(book("10:30", "11:30"))).toBe(EXCLUSION_VIOLATION);
  });

  it("rejects a hold over a confirmed booking, and a booking over a live hold", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00");
    expect(
      await failureCode(book("10:30", "11:30", { status: "held", holdExpiresAt: at("10:10") })),
    ).toBe(EXCLUSION_VIOLATION);
    await book("12:00", "13:00", { status: "held", holdExpiresAt: at("10:10") });
    expect(await failureCode(book("12:30", "13:30"))).toBe(EXCLUSION_VIOLATION);
  });

  it("accepts back-to-back bookings", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00");
    const next = await book("11:00", "12:00");
    expect(next.status).toBe("confirmed");
  });

  it("honours the buffer after a booking through occupied_until", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00", { occupiedUntil: at("11:15") });
    expect(await failureCode(book("11:00", "12:00"))).toBe(EXCLUSION_VIOLATION);
    const after = await book("11:15", "12:15");
    expect(after.status).toBe("confirmed");
  });

  it("lets cancelled and no-show bookings free their time", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00", { status: "cancelled_by_user" });
    await book("10:00", "11:00", { status: "no_show" });
    const again = await book("10:00", "11:00");
    expect(again.status).toBe("confirmed");
  });

  it("allows the same time with another stylist", async () => {
    const { salon, book } = await scenario();
    await book("10:00", "11:00");
    const other = await buildStaff(database.db, salon.id);
    const row = await book("10:00", "11:00", { staffId: other.id });
    expect(row.staffId).toBe(other.id);
  });

  it("rejects a booking that ends before it starts, or is occupied for less than it lasts", async () => {
    const { book } = await scenario();
    expect(await failureCode(book("11:00", "10:00"))).toBe(CHECK_VIOLATION);
    expect(await failureCode(book("10:00", "11:00", { occupiedUntil: at("10:30") }))).toBe(
      CHECK_VIOLATION,
    );
  });

  it("bounds a booking's span to two days, which the availability function's lower bound needs", async () => {
    const { book } = await scenario();
    const twoDays = 2 * 24 * 60 * 60_000;
    expect(
      await failureCode(
        book("10:00", "11:00", {
          occupiedUntil: new Date(at("10:00").getTime() + twoDays + 60_000),
        }),
      ),
    ).toBe(CHECK_VIOLATION);
    expect(
      await failureCode(
        book("10:00", "11:00", { occupiedUntil: new Date(at("10:00").getTime() + twoDays) }),
      ),
    ).toBe("no error");
  });

  it("bounds a salon's buffer after a booking to the admin form's 240 minutes", async () => {
    const salon = await buildSalon(database.db);
    const settings = (bufferAfterMinutes: number) =>
      database.db
        .insert(salonBookingSettings)
        .values({ salonId: salon.id, bufferAfterMinutes })
        .onConflictDoUpdate({ target: salonBookingSettings.salonId, set: { bufferAfterMinutes } });
    expect(await failureCode(settings(241))).toBe(CHECK_VIOLATION);
    expect(await failureCode(settings(-1))).toBe(CHECK_VIOLATION);
    expect(await failureCode(settings(240))).toBe("no error");
  });
});

describe("booking integrity", () => {
  it("rejects a stylist of another salon (composite foreign key)", async () => {
    const { book } = await scenario();
    const elsewhere = await buildSalon(database.db);
    const foreigner = await buildStaff(database.db, elsewhere.id);
    expect(await failureCode(book("10:00", "11:00", { staffId: foreigner.id }))).toBe(
      FOREIGN_KEY_VIOLATION,
    );
  });

  it("rejects a booked menu of another salon", async () => {
    const { book, salon } = await scenario();
    const booking = await book("10:00", "11:00");
    const elsewhere = await buildSalon(database.db);
    const foreignMenu = await buildMenu(database.db, elsewhere.id);
    const insert = database.db.insert(bookingMenus).values({
      salonId: salon.id,
      bookingId: booking.id,
      position: 0,
      menuId: foreignMenu.id,
      name: "カット",
      price: 5500,
      durationMinutes: 60,
    });
    expect(await failureCode(insert)).toBe(FOREIGN_KEY_VIOLATION);
  });

  it("rejects a status outside the list in code, and accepts every one in it", async () => {
    const { book } = await scenario();
    expect(await failureCode(book("10:00", "11:00", { status: "pending" as "held" }))).toBe(
      CHECK_VIOLATION,
    );
    for (const [k, status] of bookingStatuses.entries()) {
      const hour = String(10 + k).padStart(2, "0");
      const row = await book(`${hour}:00`, `${hour}:30`, {
        status,
        holdExpiresAt: status === "held" ? at("10:10") : null,
      });
      expect(row.status).toBe(status);
    }
  });

  it("requires a hold expiry exactly while held", async () => {
    const { book } = await scenario();
    expect(await failureCode(book("10:00", "11:00", { status: "held" }))).toBe(CHECK_VIOLATION);
    expect(await failureCode(book("10:00", "11:00", { holdExpiresAt: at("10:10") }))).toBe(
      CHECK_VIOLATION,
    );
  });

  it("keeps booking numbers unique per salon and idempotency keys per user", async () => {
    const { book } = await scenario();
    await book("10:00", "11:00", { bookingNumber: "AAAA-BBBB", idempotencyKey: "key-1" });
    expect(await failureCode(book("12:00", "13:00", { bookingNumber: "AAAA-BBBB" }))).toBe(
      UNIQUE_VIOLATION,
    );
    expect(await failureCode(book("12:00", "13:00", { idempotencyKey: "key-1" }))).toBe(
      UNIQUE_VIOLATION,
    );
    // Another customer's key is theirs, however alike.
    const other = await buildUser(database.db);
    expect(
      await failureCode(book("16:00", "17:00", { idempotencyKey: "key-1", userId: other.id })),
    ).toBe("no error");
    expect(await failureCode(book("12:00", "13:00", { bookingNumber: "AAAA-BBB1" }))).toBe(
      "no error",
    );
    expect(await failureCode(book("14:00", "15:00", { bookingNumber: "IIII-0000" }))).toBe(
      CHECK_VIOLATION,
    );
  });

  it("has an exclusion constraint over exactly the occupying statuses of the code", async () => {
    const result = (await database.db.execute(sql`
      select pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_class t on t.oid = c.conrelid
      where t.relname = 'bookings' and c.conname = 'bookings_staff_no_overlap'`)) as unknown as {
      rows: { definition: string }[];
    };
    const definition = result.rows[0]?.definition ?? "";
    expect(definition).toContain("salon_id WITH =");
    expect(definition).toContain("staff_id WITH =");
    expect(definition).toContain(
      "tstzrange(COALESCE(occupied_from, starts_at), occupied_until, '[)'::text) WITH &&",
    );
    // PostgreSQL prints IN (…) as = ANY (ARRAY['held'::text, …]).
    const listed = [...(definition.match(/ARRAY\[(.*?)\]/)?.[1] ?? "").matchAll(/'([^']+)'/g)].map(
      (match) => match[1],
    );
    expect(listed).toEqual([...occupyingStatuses]);
  });
});

describe("schedules", () => {
  it("rejects overlapping opening intervals of one weekday but accepts a lunch closing", async () => {
    const salon = await buildSalon(database.db);
    const hours = (opens: string, closes: string, weekday = 1) =>
      database.db.insert(salonOpeningHours).values({ salonId: salon.id, weekday, opens, closes });
    await hours("10:00", "13:00");
    expect(await failureCode(hours("14:00", "20:00"))).toBe("no error");
    expect(await failureCode(hours("12:00", "15:00"))).toBe(EXCLUSION_VIOLATION);
    expect(await failureCode(hours("15:00", "14:00", 2))).toBe(CHECK_VIOLATION);
    expect(await failureCode(hours("10:00", "11:00", 7))).toBe(CHECK_VIOLATION);
  });

  it("rejects overlapping schedule intervals only while their validity overlaps", async () => {
    const { salon, stylist } = await scenario();
    const interval = (
      startsAt: string,
      endsAt: string,
      validFrom: string | null,
      validUntil: string | null,
    ) =>
      database.db.insert(staffSchedules).values({
        salonId: salon.id,
        staffId: stylist.id,
        weekday: 1,
        startsAt,
        endsAt,
        validFrom,
        validUntil,
      });
    // buildSalonWithStaff already gave every weekday 10:00–20:00 without end.
    expect(await failureCode(interval("09:00", "10:30", "2027-01-01", null))).toBe(
      EXCLUSION_VIOLATION,
    );
    expect(await failureCode(interval("08:00", "10:00", null, null))).toBe("no error");
    const other = await buildStaff(database.db, salon.id);
    const twice = (validFrom: string, validUntil: string) =>
      database.db.insert(staffSchedules).values({
        salonId: salon.id,
        staffId: other.id,
        weekday: 3,
        startsAt: "10:00",
        endsAt: "18:00",
        validFrom,
        validUntil,
      });
    await twice("2026-01-01", "2026-12-31");
    expect(await failureCode(twice("2027-01-01", "2027-12-31"))).toBe("no error");
    expect(await failureCode(twice("2026-12-31", "2027-01-31"))).toBe(EXCLUSION_VIOLATION);
  });

  it("rejects a schedule of a stylist under another salon", async () => {
    const { stylist } = await scenario();
    const elsewhere = await buildSalon(database.db);
    const insert = database.db.insert(staffSchedules).values({
      salonId: elsewhere.id,
      staffId: stylist.id,
      weekday: 1,
      startsAt: "10:00",
      endsAt: "11:00",
    });
    expect(await failureCode(insert)).toBe(FOREIGN_KEY_VIOLATION);
  });

  it("requires times for hours and extra exceptions and none for closed", async () => {
    const salon = await buildSalon(database.db);
    const exception = (values: Partial<typeof scheduleExceptions.$inferInsert>) =>
      database.db
        .insert(scheduleExceptions)
        .values({ salonId: salon.id, date: "2026-12-24", kind: "closed", ...values });
    expect(await failureCode(exception({}))).toBe("no error");
    expect(await failureCode(exception({ startsAt: "10:00", endsAt: "12:00" }))).toBe(
      CHECK_VIOLATION,
    );
    expect(await failureCode(exception({ kind: "hours" }))).toBe(CHECK_VIOLATION);
    expect(
      await failureCode(exception({ kind: "extra", startsAt: "12:00", endsAt: "10:00" })),
    ).toBe(CHECK_VIOLATION);
    expect(
      await failureCode(exception({ kind: "hours", startsAt: "10:00", endsAt: "15:00" })),
    ).toBe("no error");
    expect(await failureCode(exception({ kind: "holiday" as "closed" }))).toBe(CHECK_VIOLATION);
  });
});
