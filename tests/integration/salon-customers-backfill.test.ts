import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { backfillSalonCustomers } from "../../server/bookings/salon-customers.server";
import { bookings, salonCustomers } from "../../server/db/schema";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const at = (local: string) => new Date(`${local}:00+09:00`);

/**
 * Bookings that predate customer records (migration 0019) or were written
 * in bulk (the seed) get their salon's record as a booking made in the app
 * would: one per account, then per phone number, then per address.
 */
describe("backfillSalonCustomers", () => {
  it("links every booking to one record per person and salon, and does nothing the second time", async () => {
    const db = database.db;
    const { salon, stylists } = await buildSalonWithStaff(db, { staffCount: 1 });
    const other = await buildSalonWithStaff(db, { staffCount: 1 });
    const staffId = stylists[0]?.id ?? "";
    const member = await buildUser(db);
    let made = 0;
    // One after the other from 10:00, so none overlaps.
    const booking = (values: Partial<typeof bookings.$inferInsert>) => {
      const start = new Date(at("2026-12-03T10:00").getTime() + made++ * 60 * 60_000);
      return buildBooking(db, {
        salonId: salon.id,
        staffId,
        startsAt: start,
        endsAt: new Date(start.getTime() + 30 * 60_000),
        status: "confirmed",
        ...values,
      });
    };
    // The member twice (the second time with another phone), a caller twice
    // (phone written two ways), someone with only an address, and a block.
    await booking({ userId: member.id, customerName: "会員 花子", customerPhone: "09011112222" });
    await booking({ userId: member.id, customerName: "会員 花子", customerPhone: "09099998888" });
    await booking({ source: "phone", customerName: "電話 太郎", customerPhone: "090-3333-4444" });
    await booking({ source: "phone", customerName: "電話 太郎", customerPhone: "09033334444" });
    await booking({ customerName: "メール 次郎", customerEmail: "Jiro@Example.jp" });
    await booking({ kind: "block", salonNote: "休憩" });
    const held = await booking({
      status: "held",
      holdExpiresAt: at("2026-12-03T09:00"),
      customerPhone: "09055556666",
    });
    // Another salon's booking by the same member is another salon's record.
    const start = at("2026-12-03T11:00");
    await buildBooking(db, {
      salonId: other.salon.id,
      staffId: other.stylists[0]?.id ?? "",
      startsAt: start,
      endsAt: new Date(start.getTime() + 30 * 60_000),
      status: "completed",
      userId: member.id,
    });

    expect(await backfillSalonCustomers(db)).toBe(6);
    const records = await db
      .select()
      .from(salonCustomers)
      .where(eq(salonCustomers.salonId, salon.id));
    expect(records.map((r) => [r.name, r.phone, r.email, r.userId]).sort()).toEqual(
      [
        ["メール 次郎", "", "jiro@example.jp", null],
        ["会員 花子", "09099998888", "", member.id],
        ["電話 太郎", "09033334444", "", null],
      ].sort(),
    );
    const rows = await db.select().from(bookings).where(eq(bookings.salonId, salon.id));
    const byName = (name: string) => rows.filter((r) => r.customerName === name);
    for (const name of ["会員 花子", "電話 太郎"]) {
      const ids = new Set(byName(name).map((r) => r.customerId));
      expect(ids.size, name).toBe(1);
      expect([...ids][0], name).not.toBeNull();
    }
    // Blocks and holds have no customer.
    expect(rows.find((r) => r.kind === "block")?.customerId).toBeNull();
    expect(rows.find((r) => r.id === held.id)?.customerId).toBeNull();
    const theirs = await db
      .select()
      .from(salonCustomers)
      .where(eq(salonCustomers.salonId, other.salon.id));
    expect(theirs.map((r) => r.userId)).toEqual([member.id]);

    expect(await backfillSalonCustomers(db)).toBe(0);
  });
});
