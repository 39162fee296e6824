import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

const migrations = path.resolve("server/db/migrations");

/** The migrations folder as it was before 0036 (the first 36 entries of the journal). */
function foldersBefore0036() {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-0035-"));
  cpSync(migrations, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, 36);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** `ALTER TABLE … ADD COLUMN` of the journal's entries from `index` on, with the matching DROP. */
function columnsAddedFrom(index: number) {
  const journal = JSON.parse(
    readFileSync(path.join(migrations, "meta", "_journal.json"), "utf8"),
  ) as { entries: { tag: string }[] };
  const sql = journal.entries
    .slice(index)
    .map(({ tag }) => readFileSync(path.join(migrations, `${tag}.sql`), "utf8"));
  // A table a later migration creates is not there yet: its columns come with it.
  const created = new Set(
    sql.flatMap((text) => [...text.matchAll(/CREATE TABLE ("[a-z_]+")/gi)].map(([, t]) => t)),
  );
  return sql.flatMap((text) =>
    [...text.matchAll(/ALTER TABLE ("[a-z_]+") ADD COLUMN ("[a-z_]+")[^;]*;/gi)]
      .filter(([, table]) => !created.has(table))
      .map(([add, table, column]) => ({
        add: add.replace(/ REFERENCES[^;]*/i, ""),
        drop: `ALTER TABLE ${table} DROP COLUMN ${column};`,
      })),
  );
}

// 新規限定 (coupons.new_customers_only) becomes the target 新規; every other coupon is 全員
// (issue 41, §4; decision 0087). PGlite alone keeps this test cheap (the SQL is engine-neutral).
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("migration 0036", () => {
  it("turns 新規限定 coupons into the target 新規 and the others into 全員, with no limits", async () => {
    const old = foldersBefore0036();
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
      await migrate(drizzle(client), { migrationsFolder: migrations });
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
