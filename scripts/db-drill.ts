import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../server/config";
import {
  BackupError,
  differences,
  formatComparison,
  restoreDrill,
} from "../server/db/backup.server";

/**
 * `npm run db:drill [-- --keep]` (decision 0073): backs DATABASE_URL's
 * database up, restores it into a new database (PostgreSQL: pg_dump -Fc and
 * pg_restore into <name>_drill_<time>) or directory (PGlite, app stopped),
 * and compares every table's row count. Prints the table; exits 1 on any
 * difference or failure. The copy is dropped afterwards unless --keep.
 */
let keep = false;
try {
  keep = parseArgs({ options: { keep: { type: "boolean" } } }).values.keep ?? false;
} catch (error) {
  console.error(`${(error as Error).message}\nusage: npm run db:drill [-- --keep]`);
  process.exit(2);
}
const url = loadConfig().DATABASE_URL;
try {
  const result = await restoreDrill(url, {
    workDir: path.join(os.tmpdir(), "salon-restore-drill"),
    keep,
  });
  console.log(formatComparison(result.comparison));
  const differing = differences(result.comparison);
  if (result.ok) {
    console.log(
      `restore drill passed (${result.engine}): ${result.comparison.length} tables, same row counts` +
        (keep ? `; copy kept at ${result.restoredTo}` : ""),
    );
  } else {
    console.error(
      `restore drill FAILED (${result.engine}): ${differing.length} tables differ` +
        (keep ? `; copy kept at ${result.restoredTo}` : ""),
    );
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
