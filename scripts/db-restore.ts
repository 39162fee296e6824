import { parseArgs } from "node:util";
import {
  BackupError,
  backupKind,
  redact,
  restorePglite,
  restorePostgres,
} from "../server/db/backup.server";
import { isPostgresUrl } from "../server/db/client";

/**
 * `npm run db:restore -- <file> <target> [--force]` (decision 0073): a
 * db:backup file into a new PGlite directory or a new PostgreSQL database
 * (`postgres://…/name`, created when missing). A target holding data is
 * refused unless --force. The target is never DATABASE_URL by default:
 * point DATABASE_URL at the restored copy once it is checked.
 * Exit 0 on success, 1 on failure, 2 on bad usage.
 */
const usage =
  "usage: npm run db:restore -- <file> <directory | postgres://…/new-database> [--force]";
let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ allowPositionals: true, options: { force: { type: "boolean" } } });
}
try {
  parsed = parse();
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const [file, target, ...extra] = parsed.positionals;
if (!file || !target || extra.length > 0) {
  console.error(`バックアップファイルと戻し先を指定してください\n${usage}`);
  process.exit(2);
}
const force = parsed.values.force ?? false;
try {
  const kind = await backupKind(file);
  if (isPostgresUrl(target)) {
    const { counts } = await restorePostgres(file, target, { force });
    console.log(`restored ${file} into ${redact(target)} (${counts.size} tables)`);
  } else if (target.startsWith("memory://")) {
    throw new BackupError("memory:// には戻せません。ディレクトリを指定してください");
  } else if (kind === "postgres") {
    throw new BackupError(
      `${file} は PostgreSQL のバックアップ（pg_dump）です。戻し先には postgres:// の URL を指定してください`,
    );
  } else {
    const { counts } = await restorePglite(file, target, { force });
    console.log(`restored ${file} into ${target} (${counts.size} tables)`);
  }
} catch (error) {
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
}
