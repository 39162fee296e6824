import { rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { coupons } from "../../server/db/schema";
import { buildSalonWithStaff } from "../support/builders";
import { columnsAddedFrom, migrationsBefore, migrationsFolder } from "../support/migrations-before";

// 新規限定 (coupons.new_customers_only) becomes the target 新規; every other coupon is 全員
// (issue 41, §4; decision 0087). PGlite alone keeps this test cheap (the SQL is engine-neutral).
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("migration 0036", () => {
  it("turns 新規限定 coupons into the target 新規 and the others into 全員, with no limits", async () => {
    const old = migrationsBefore(36);
    const client = await PGlite.create({ extensions: { btree_gist, pg_trgm } });
    try {
      await migrate(drizzle(client), { migrationsFolder: old });
      const db = drizzle(client, { schema }) as unknown as Database;
      const later = columnsAddedFrom(36);
      for (const column of later) await client.exec(column.add);
      const { salon } = await buildSalonWithStaff(db);
      for (const column of later) await client.exec(column.drop);
      const coupon = async (title: string, newOnly: boolean) => {
        const result = await client.query<{ id: string }>(
          `insert into coupons (salon_id, title, discount_kind, discount_value, valid_from,
             new_customers_only)
           values ($1, $2, 'amount', 1000, '2026-01-01', $3) returning id`,
          [salon.id, title, newOnly],
        );
        const row = result.rows[0];
        if (!row) throw new Error("coupon not inserted");
        return row.id;
      };
      const firstVisit = await coupon("初回1000円引き", true);
      const anyone = await coupon("1000円引き", false);
      await migrate(drizzle(client), { migrationsFolder });
      const rowOf = async (id: string) =>
        (await db.select().from(coupons).where(eq(coupons.id, id)))[0];
      const noLimits = {
        oncePerCustomer: false,
        weekdays: 127,
        fromMinute: null,
        untilMinute: null,
        staffId: null,
        studentOnly: false,
      };
      expect(await rowOf(firstVisit)).toMatchObject({ target: "new", ...noLimits });
      expect(await rowOf(anyone)).toMatchObject({ target: "all", ...noLimits });
    } finally {
      await client.close();
      rmSync(old, { recursive: true, force: true });
    }
  });
});
