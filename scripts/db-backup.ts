import { parseArgs } from "node:util";
import { loadConfig } from "../server/config";
import { BackupError, backupPglite, backupPostgres, redact } from "../server/db/backup.server";
import { isPostgresUrl } from "../server/db/client";

/**
 * `npm run db:backup -- <file> [--force] [--stale-lock]` (decision 0073):
 * DATABASE_URL's database into one file. PGlite: its data directory as a
 * gzipped tarball, taken while the app is stopped. PostgreSQL: pg_dump -Fc,
 * safe while the app runs. Exit 0 on success, 1 on failure, 2 on bad usage.
 */
const usage = "usage: npm run db:backup -- <file> [--force] [--stale-lock]";
let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { force: { type: "boolean" }, "stale-lock": { type: "boolean" } },
  });
}
try {
  parsed = parse();
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const [file, ...extra] = parsed.positionals;
if (!file || extra.length > 0) {
  console.error(`バックアップを書くファイルを一つ指定してください\n${usage}`);
  process.exit(2);
}
const url = loadConfig().DATABASE_URL;
const force = parsed.values.force ?? false;
try {
  if (isPostgresUrl(url)) {
    const { counts } = await backupPostgres(url, file, { force });
    console.log(`backed up ${redact(url)} (${counts.size} tables, pg_dump -Fc) to ${file}`);
  } else if (url.startsWith("memory://")) {
    throw new BackupError(
      "DATABASE_URL が memory:// です。メモリ上のデータベースはバックアップできません",
    );
  } else {
    const { bytes, counts } = await backupPglite(url, file, {
      force,
      staleLock: parsed.values["stale-lock"] ?? false,
    });
    console.log(`backed up ${url} (${counts.size} tables, ${bytes} bytes) to ${file}`);
  }
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
