import { describe, expect, it } from "vitest";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { TooManyBookingAttemptsError } from "../../server/bookings/booking-rate-limit";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

// holdSlot and confirmBooking count every attempt themselves (per address
// and per account), so every path that books is limited, not only the
// booking page and the API that call them.
const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (time: string) => new Date(`2026-12-03T${time}:00+09:00`);
const customer = {
  name: "予約 花子",
  kana: "ヨヤク ハナコ",
  phone: "09012345678",
  email: "hanako@example.jp",
};

async function failure(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return "no error";
}

describe("booking limits inside holdSlot and confirmBooking", () => {
  it("refuses the third hold from one address, whoever holds, with a 429 in Japanese", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const client = bookingClient(database.db, { ip: "203.0.113.1", perIp: 2 });
    const hold = async (time: string, userId: string | null) =>
      holdSlot(database.db, {
        ...client,
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null,
        start: at(time),
        userId,
        now: NOW,
      });
    await hold("10:00", null);
    await hold("12:00", (await buildUser(database.db)).id);
    const refused = await failure(hold("14:00", (await buildUser(database.db)).id));
    expect(refused).toBeInstanceOf(TooManyBookingAttemptsError);
    expect((refused as TooManyBookingAttemptsError).status).toBe(429);
    expect((refused as Error).message).toMatch(/操作が多すぎます。\d+秒ほど待ってから/);
    // Another address is not affected.
    const elsewhere = await holdSlot(database.db, {
      ...bookingClient(database.db, { ip: "203.0.113.2", perIp: 2 }),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: at("16:00"),
      userId: null,
      now: NOW,
    });
    expect(elsewhere.status).toBe("held");
  });

  it("refuses the third hold of one account, from whichever address", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db);
    const user = await buildUser(database.db);
    const hold = (ip: string, time: string) =>
      holdSlot(database.db, {
        ...bookingClient(database.db, { ip, perAccount: 2 }),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null,
        start: at(time),
        userId: user.id,
        now: NOW,
      });
    await hold("203.0.113.11", "10:00");
    await hold("203.0.113.12", "12:00");
    expect(await failure(hold("203.0.113.13", "14:00"))).toBeInstanceOf(
      TooManyBookingAttemptsError,
    );
  });

  it("counts confirmations apart from holds and refuses the third of one account", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db, { staffCount: 3 });
    const users = [await buildUser(database.db), await buildUser(database.db)];
    const client = bookingClient(database.db, { ip: "203.0.113.21", perAccount: 2 });
    const confirm = async (userId: string, time: string) => {
      const hold = await holdSlot(database.db, {
        ...bookingClient(database.db, { ip: "203.0.113.22" }),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null,
        start: at(time),
        userId,
        now: NOW,
      });
      return confirmBooking(database.db, {
        ...client,
        holdId: hold.id,
        userId,
        customer,
        notes: "",
        idempotencyKey: null,
        now: NOW,
      });
    };
    const [first, second] = users.map((user) => user.id) as [string, string];
    expect((await confirm(first, "10:00")).status).toBe("confirmed");
    expect((await confirm(first, "12:00")).status).toBe("confirmed");
    expect(await failure(confirm(first, "14:00"))).toBeInstanceOf(TooManyBookingAttemptsError);
    // Another account from the same address still books.
    expect((await confirm(second, "16:00")).status).toBe("confirmed");
  });
});
