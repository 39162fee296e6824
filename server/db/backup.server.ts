import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { isPostgresUrl } from "./client";

/**
 * Backups and the restore drill (issue 39 §4, decision 0073). PGlite's data
 * directory becomes one gzipped tarball (PGlite's own dumpDataDir, taken
 * while no app has the directory open); PostgreSQL's database one pg_dump
 * custom-format file. Restores go into a new directory or database, never
 * over one holding data unless forced. Failures the operator can fix are
 * BackupErrors: their message is the whole story, printed without a stack.
 */
export class BackupError extends Error {
  override name = "BackupError";
}

/** What a backup file holds, from its first bytes. */
export type BackupKind = "pglite" | "postgres";

const GZIP_MAGIC = [0x1f, 0x8b];
const PG_DUMP_MAGIC = "PGDMP";
/** PGlite writes this while a process has the directory open, and removes it on close. */
const PID_FILE = "postmaster.pid";

const extensions = { btree_gist, pg_trgm };

/** Row counts of every table outside PostgreSQL's own schemas, keyed `schema.table`. */
export type TableCounts = Map<string, number>;

type Queryable = { query<T>(sql: string): Promise<{ rows: T[] }> };

export async function countRows(db: Queryable): Promise<TableCounts> {
  const { rows: tables } = await db.query<{ name: string; quoted: string }>(
    `select schemaname || '.' || tablename as name,
            quote_ident(schemaname) || '.' || quote_ident(tablename) as quoted
       from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema')
      order by 1`,
  );
  const counts: TableCounts = new Map();
  for (const table of tables) {
    const { rows } = await db.query<{ count: string | number }>(
      `select count(*) as count from ${table.quoted}`,
    );
    counts.set(table.name, Number(rows[0]?.count ?? 0));
  }
  return counts;
}

export type CountComparison = { table: string; source: number | null; restored: number | null };

/** Every table of either side, with its counts (null: the table is missing there). */
export function compareCounts(source: TableCounts, restored: TableCounts): CountComparison[] {
  const tables = [...new Set([...source.keys(), ...restored.keys()])].sort();
  return tables.map((table) => ({
    table,
    source: source.get(table) ?? null,
    restored: restored.get(table) ?? null,
  }));
}

export function differences(rows: CountComparison[]) {
  return rows.filter((row) => row.source !== row.restored);
}

/** The comparison as a plain text table, differing rows marked. */
export function formatComparison(rows: CountComparison[]): string {
  const width = Math.max(5, ...rows.map((row) => row.table.length));
  const cell = (value: number | null) => (value === null ? "—" : String(value)).padStart(10);
  const lines = [
    `${"table".padEnd(width)}  ${"source".padStart(10)}  ${"restored".padStart(10)}`,
    `${"-".repeat(width)}  ${"-".repeat(10)}  ${"-".repeat(10)}`,
  ];
  for (const row of rows) {
    const mark = row.source === row.restored ? "" : "  ← 不一致 (differs)";
    lines.push(`${row.table.padEnd(width)}  ${cell(row.source)}  ${cell(row.restored)}${mark}`);
  }
  return lines.join("\n");
}

/** Reads a backup file's kind from its first bytes; a clear error when it is neither. */
export async function backupKind(file: string): Promise<BackupKind> {
  assertFile(file);
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    if (bytesRead >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return "pglite";
    if (bytesRead === 5 && head.toString("latin1") === PG_DUMP_MAGIC) return "postgres";
  } finally {
    await handle.close();
  }
  throw new BackupError(
    `バックアップファイルではありません: ${file}（db:backup が書く .tar.gz か pg_dump -Fc のファイルを指定してください）`,
  );
}

function assertFile(file: string) {
  if (!existsSync(file)) throw new BackupError(`バックアップファイルがありません: ${file}`);
  if (!statSync(file).isFile()) throw new BackupError(`ファイルではありません: ${file}`);
}

/** The backup file must not exist yet unless forced; its directory must. */
function assertWritableBackup(file: string, force: boolean) {
  if (existsSync(file) && !force) {
    throw new BackupError(
      `${file} はもうあります。上書きするなら --force を付けてください（既存のバックアップを消さないために止めました）`,
    );
  }
  if (existsSync(file) && !statSync(file).isFile()) {
    throw new BackupError(`${file} はファイルではありません`);
  }
  const directory = path.dirname(path.resolve(file));
  if (!existsSync(directory)) {
    throw new BackupError(`バックアップを書くディレクトリがありません: ${directory}`);
  }
}

/** Written next to the target and renamed: a failed backup never leaves half a file under its name. */
async function writeAtomically(file: string, bytes: Uint8Array) {
  const temporary = `${file}.partial-${process.pid}`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

function isPgliteDirectory(directory: string) {
  return existsSync(path.join(directory, "PG_VERSION"));
}

function assertNotOpen(directory: string, staleLock: boolean) {
  if (existsSync(path.join(directory, PID_FILE)) && !staleLock) {
    throw new BackupError(
      `${directory} は使用中です（${PID_FILE} があります）。アプリを止めてからやり直してください。` +
        `アプリが異常終了して残っただけなら --stale-lock を付けてください`,
    );
  }
}

function openPglite(dataDir: string, loadDataDir?: Blob) {
  return PGlite.create({ dataDir, loadDataDir, extensions });
}

/**
 * Backs up a PGlite directory into one gzipped tarball. The directory must
 * not be open in another process (the app): PGlite's data lives in that
 * process's memory until written, and only that process could copy it
 * consistently. Here the directory is opened, checkpointed, and dumped by
 * PGlite itself. Returns the source's row counts at the moment of the dump.
 */
export async function backupPglite(
  dataDir: string,
  file: string,
  options: {
    /** Overwrite an existing backup file. */
    force?: boolean;
    /** Dump even though postmaster.pid is there (left by a process that crashed). */
    staleLock?: boolean;
  } = {},
): Promise<{ bytes: number; counts: TableCounts }> {
  const directory = path.resolve(dataDir);
  if (!existsSync(directory) || !isPgliteDirectory(directory)) {
    throw new BackupError(`PGlite のデータディレクトリではありません: ${directory}`);
  }
  assertNotOpen(directory, options.staleLock ?? false);
  assertWritableBackup(file, options.force ?? false);
  const database = await openPglite(directory);
  try {
    await database.exec("checkpoint");
    const counts = await countRows(database);
    const tarball = await database.dumpDataDir("gzip");
    const bytes = new Uint8Array(await tarball.arrayBuffer());
    await writeAtomically(file, bytes);
    return { bytes: bytes.length, counts };
  } finally {
    await database.close();
  }
}

/**
 * Restores a PGlite tarball into a directory that is missing or empty; one
 * holding anything is emptied first only with `force` (never one an app has
 * open). The restored database is opened once and its row counts returned.
 */
export async function restorePglite(
  file: string,
  targetDir: string,
  options: { force?: boolean } = {},
): Promise<{ counts: TableCounts }> {
  if ((await backupKind(file)) !== "pglite") {
    throw new BackupError(
      `${file} は PostgreSQL のバックアップ（pg_dump）です。戻し先には postgres:// の URL を指定してください`,
    );
  }
  const directory = path.resolve(targetDir);
  await prepareEmptyDirectory(directory, options.force ?? false);
  const tarball = new Blob([await readFile(file)]);
  let database: PGlite;
  try {
    database = await openPglite(directory, tarball);
  } catch (error) {
    throw new BackupError(
      `${file} から戻せませんでした（壊れたファイルかもしれません）: ${(error as Error).message}`,
    );
  }
  try {
    return { counts: await countRows(database) };
  } finally {
    await database.close();
  }
}

async function prepareEmptyDirectory(directory: string, force: boolean) {
  if (existsSync(directory)) {
    if (!statSync(directory).isDirectory()) {
      throw new BackupError(`戻し先がディレクトリではありません: ${directory}`);
    }
    if (readdirSync(directory).length > 0) {
      if (!force) {
        throw new BackupError(
          `戻し先 ${directory} は空ではありません。中身を消して戻すなら --force を付けてください`,
        );
      }
      if (existsSync(path.join(directory, PID_FILE))) {
        throw new BackupError(
          `戻し先 ${directory} は使用中です（${PID_FILE} があります）。アプリを止めてください。` +
            `異常終了で残っただけなら、そのファイルを消してからやり直してください`,
        );
      }
      await rm(directory, { recursive: true });
    }
  }
  await mkdir(directory, { recursive: true });
}

/* PostgreSQL: pg_dump and pg_restore, with the password kept off their command lines. */

/** A libpq connection for the tools: the URL without its password, which goes in PGPASSWORD. */
function toolConnection(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    url: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

function runTool(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${command} が見つかりません。PostgreSQL のクライアント（サーバーと同じか新しい版）を入れてください`
            : `${command} を起動できません: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} が失敗しました (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

function databaseName(url: string) {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!name) throw new BackupError(`URL にデータベース名がありません: ${redact(url)}`);
  return name;
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, name: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

/** The URL without its password, for messages. */
export function redact(url: string) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`${redact(url)} に接続できません: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `pg_dump -Fc` of the database into one file (written aside, then renamed). */
export async function backupPostgres(
  url: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<{ counts: TableCounts }> {
  assertWritableBackup(file, options.force ?? false);
  const counts = await withClient(url, (client) => countRows(client));
  const connection = toolConnection(url);
  const temporary = `${file}.partial-${process.pid}`;
  try {
    await runTool(
      "pg_dump",
      ["-Fc", "--no-owner", "-f", temporary, "-d", connection.url],
      connection.env,
    );
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return { counts };
}

/**
 * `pg_restore` of a pg_dump file into a database, created when missing. One
 * that already holds tables is refused unless forced, when pg_restore first
 * drops the objects the dump holds (--clean).
 */
export async function restorePostgres(
  file: string,
  targetUrl: string,
  options: { force?: boolean } = {},
): Promise<{ counts: TableCounts }> {
  if ((await backupKind(file)) !== "postgres") {
    throw new BackupError(
      `${file} は PGlite のバックアップ（.tar.gz）です。戻し先にはディレクトリを指定してください`,
    );
  }
  const name = databaseName(targetUrl);
  const exists = await withClient(withDatabase(targetUrl, "postgres"), async (client) => {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (rowCount) return true;
    await client.query(`create database ${pg.escapeIdentifier(name)}`);
    return false;
  });
  if (exists) {
    const tables = await withClient(targetUrl, (client) => countRows(client));
    if (tables.size > 0 && !options.force) {
      throw new BackupError(
        `戻し先のデータベース ${name} にはもうテーブルがあります（${tables.size} 個）。` +
          `新しいデータベース名を指定するか、上書きするなら --force を付けてください`,
      );
    }
  }
  const connection = toolConnection(targetUrl);
  await runTool(
    "pg_restore",
    [
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      ...(exists && options.force ? ["--clean", "--if-exists"] : []),
      "-d",
      connection.url,
      file,
    ],
    connection.env,
  );
  return { counts: await withClient(targetUrl, (client) => countRows(client)) };
}

export type DrillResult = {
  engine: BackupKind;
  /** Where the copy was restored (kept only with `keep`). */
  restoredTo: string;
  comparison: CountComparison[];
  ok: boolean;
};

/**
 * The restore drill: back the database up, restore it into a new directory
 * or database, and compare every table's row count. `ok` is false on any
 * difference. The copy is removed afterwards unless `keep`.
 */
export async function restoreDrill(
  databaseUrl: string,
  options: { workDir: string; keep?: boolean; now?: Date },
): Promise<DrillResult> {
  const stamp = (options.now ?? new Date()).toISOString().replace(/\D/g, "").slice(0, 14);
  await mkdir(options.workDir, { recursive: true });
  if (isPostgresUrl(databaseUrl)) {
    const file = path.join(options.workDir, `drill-${stamp}.dump`);
    const target = withDatabase(databaseUrl, `${databaseName(databaseUrl)}_drill_${stamp}`);
    try {
      const source = await backupPostgres(databaseUrl, file, { force: true });
      // A drill's own new database: one left by an earlier drill is refused, not overwritten.
      const restored = await restorePostgres(file, target);
      const comparison = compareCounts(source.counts, restored.counts);
      return {
        engine: "postgres",
        restoredTo: redact(target),
        comparison,
        ok: differences(comparison).length === 0,
      };
    } finally {
      await rm(file, { force: true });
      if (!options.keep) {
        await withClient(withDatabase(databaseUrl, "postgres"), (client) =>
          client.query(`drop database if exists ${pg.escapeIdentifier(databaseName(target))}`),
        ).catch(() => {});
      }
    }
  }
  if (databaseUrl.startsWith("memory://")) {
    throw new BackupError(
      "DATABASE_URL が memory:// です。メモリ上のデータベースはバックアップできません",
    );
  }
  const file = path.join(options.workDir, `drill-${stamp}.tar.gz`);
  const target = path.join(options.workDir, `drill-${stamp}`);
  try {
    const source = await backupPglite(databaseUrl, file, { force: true });
    const restored = await restorePglite(file, target);
    const comparison = compareCounts(source.counts, restored.counts);
    return {
      engine: "pglite",
      restoredTo: target,
      comparison,
      ok: differences(comparison).length === 0,
    };
  } finally {
    await rm(file, { force: true });
    if (!options.keep) await rm(target, { recursive: true, force: true });
  }
}
