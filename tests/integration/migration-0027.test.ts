import { rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import { newBookingNumber } from "../../server/bookings/booking-number";
import type { Database } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { bookings } from "../../server/db/schema";
import { buildSalonWithStaff } from "../support/builders";
import { columnsAddedFrom, migrationsBefore, migrationsFolder } from "../support/migrations-before";

// Cancellations the salon entered for the customer's reason were stored as
// the salon's; 0027 makes them the customer's (issue 38, §1.5; decision
// 0065). PGlite alone keeps this test cheap (the SQL is engine-neutral).
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("migration 0027", () => {
  it("turns the customer's reasons into the customer's cancellations, and nothing else", async () => {
    const old = migrationsBefore(27);
    const client = await PGlite.create({ extensions: { btree_gist, pg_trgm } });
    try {
      await migrate(drizzle(client), { migrationsFolder: old });
      const db = drizzle(client, { schema }) as unknown as Database;
      // The builder writes today's schema: the columns 0027 and later migrations add are put in
      // for it and taken out again before 0027 runs.
      const later = columnsAddedFrom(27);
      for (const column of later) await client.exec(column.add);
      const { salon, stylists } = await buildSalonWithStaff(db);
      for (const column of later) await client.exec(column.drop);
      const staffId = stylists[0]?.id ?? "";
      let hour = 10;
      // Written in SQL with the columns of that time: the schema's later columns
      // (0028's approval deadline) are not there yet.
      const cancelled = async (values: {
        status: string;
        cancelledBy: string;
        cancelCategory?: string;
      }) => {
        hour += 1;
        const result = await client.query<{ id: string }>(
          `insert into bookings (salon_id, staff_id, booking_number, starts_at, ends_at,
             occupied_until, total_price, status, cancelled_at, cancelled_by, cancel_category)
           values ($1, $2, $3, $4, $5, $5, 5500, $6, $7, $8, $9) returning id`,
          [
            salon.id,
            staffId,
            newBookingNumber(),
            new Date(`2026-12-03T${hour}:00:00+09:00`).toISOString(),
            new Date(`2026-12-03T${hour}:30:00+09:00`).toISOString(),
            values.status,
            new Date("2026-12-01T09:00:00+09:00").toISOString(),
            values.cancelledBy,
            values.cancelCategory ?? null,
          ],
        );
        const row = result.rows[0];
        if (!row) throw new Error("booking not inserted");
        return row;
      };
      const sameDay = await cancelled({
        status: "cancelled_by_salon",
        cancelledBy: "salon",
        cancelCategory: "customer_same_day",
      });
      const noContact = await cancelled({
        status: "cancelled_by_salon",
        cancelledBy: "salon",
        cancelCategory: "no_contact",
      });
      const salonsOwn = await cancelled({
        status: "cancelled_by_salon",
        cancelledBy: "salon",
        cancelCategory: "salon",
      });
      const before0040 = await cancelled({ status: "cancelled_by_salon", cancelledBy: "salon" });
      const web = await cancelled({ status: "cancelled_by_user", cancelledBy: "user" });
      await migrate(drizzle(client), { migrationsFolder });
      const statusOf = async (id: string) =>
        (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
      expect(await statusOf(sameDay.id)).toMatchObject({
        status: "cancelled_by_user",
        cancelledBy: "salon",
        cancelCategory: "customer_same_day",
      });
      expect((await statusOf(noContact.id))?.status).toBe("cancelled_by_user");
      expect((await statusOf(salonsOwn.id))?.status).toBe("cancelled_by_salon");
      expect((await statusOf(before0040.id))?.status).toBe("cancelled_by_salon");
      expect(await statusOf(web.id)).toMatchObject({
        status: "cancelled_by_user",
        cancelledBy: "user",
      });
    } finally {
      await client.close();
      rmSync(old, { recursive: true, force: true });
    }
  });
});
