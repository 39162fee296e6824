import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";

const migrations = path.resolve("server/db/migrations");

/** The migrations folder as it was before 0011 (the first eleven entries of the journal). */
function foldersBefore0011() {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-0010-"));
  cpSync(migrations, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, 11);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

// Slug redirects saved before 0011 start covering their salon's sub-paths
// (decision 0017, amended); other rules stay as they were. Engine-neutral
// SQL; PGlite alone keeps this test cheap.
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("migration 0011", () => {
  it("flags the slug redirects found in the audit log, and nothing else", async () => {
    const old = foldersBefore0011();
    const client = await PGlite.create({ extensions: { btree_gist, pg_trgm } });
    try {
      await migrate(drizzle(client), { migrationsFolder: old });
      await client.exec(`
        insert into redirect_rules (path, target, status_code) values
          ('/salons/old', '/salons/new', 301), ('/campaign', '/articles', 302);
        insert into audit_log (action, target_type, target_id, after) values
          ('salon.slug_redirect', 'salon', 'x',
           '{"path":"/salons/old","target":"/salons/new","statusCode":301}'),
          ('redirect_rule.create', 'redirect_rule', 'y', '{"path":"/campaign"}');
      `);
      await migrate(drizzle(client), { migrationsFolder: migrations });
      const { rows } = await client.query<{ path: string; include_subpaths: boolean }>(
        "select path, include_subpaths from redirect_rules order by path",
      );
      expect(rows).toEqual([
        { path: "/campaign", include_subpaths: false },
        { path: "/salons/old", include_subpaths: true },
      ]);
    } finally {
      await client.close();
      rmSync(old, { recursive: true, force: true });
    }
  });
});
