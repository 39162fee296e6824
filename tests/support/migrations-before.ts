import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * For the tests of one migration's data changes (tests/integration/migration-*.test.ts): the
 * database as it was before that migration, with rows written by today's builders.
 */
export const migrationsFolder = path.resolve("server/db/migrations");

/** A copy of the migrations folder whose journal stops before entry `index` (0027 → 27). */
export function migrationsBefore(index: number) {
  const dir = mkdtempSync(path.join(tmpdir(), `migrations-before-${index}-`));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/**
 * `ALTER TABLE … ADD COLUMN` of the journal's entries from `index` on, with the matching DROP:
 * put in so that today's builders can write rows on the older schema, taken out again before
 * the migration under test runs.
 */
export function columnsAddedFrom(index: number) {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as { entries: { tag: string }[] };
  const sql = journal.entries
    .slice(index)
    .map(({ tag }) => readFileSync(path.join(migrationsFolder, `${tag}.sql`), "utf8"));
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
