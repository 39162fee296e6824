import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { count, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountServices } from "../../server/accounts/account-services";
import { seedDemoAccounts } from "../../server/accounts/demo-accounts";
import { loadConfig } from "../../server/config";
import {
  BackupError,
  backupPglite,
  backupPostgres,
  compareCounts,
  countRows,
  differences,
  restoreDrill,
  restorePglite,
  restorePostgres,
  type TableCounts,
  withClient,
  withDatabase,
} from "../../server/db/backup.server";
import { type DatabaseHandle, openDatabase } from "../../server/db/client";
import { bookings } from "../../server/db/schema";
import { demoOwnerSalons } from "../../server/db/seed/demo-week";
import { seedDatabase } from "../../server/db/seed/seed";
import { ORIGIN } from "../support/accounts";

/**
 * The restore drill (issue 39 §4, decision 0073): a small demo database is
 * backed up, restored into a new PGlite directory or PostgreSQL database,
 * and every table's row count and the demo salon's bookings compared; a
 * target holding data is refused without --force.
 */
const NOW = new Date("2026-12-03T15:00:00+09:00");
const SALONS = 3;
const config = loadConfig({ PUBLIC_URL: ORIGIN, LOG_LEVEL: "silent" });
const onPostgres = process.env.TEST_DB_ENGINE === "postgres" && !!process.env.TEST_DATABASE_URL;

async function seedSmall(handle: DatabaseHandle) {
  await handle.migrate();
  await seedDatabase(handle.db, { salonCount: SALONS, now: NOW });
  const accounts = createAccountServices(handle.db, config);
  try {
    await seedDemoAccounts(handle.db, accounts, { isProduction: false });
  } finally {
    await accounts.close();
  }
}

/** The first demo salon's id and its number of bookings. */
async function demoSalonBookings(handle: DatabaseHandle) {
  const [salon] = await demoOwnerSalons(handle.db);
  if (!salon) throw new Error("no demo salon");
  const [row] = await handle.db
    .select({ n: count() })
    .from(bookings)
    .where(eq(bookings.salonId, salon.id));
  return { salonId: salon.id, bookings: row?.n ?? 0 };
}

function expectSameCounts(source: TableCounts, restored: TableCounts) {
  for (const table of ["public.salons", "public.bookings", "public.users"]) {
    expect(source.get(table), table).toBeGreaterThan(0);
  }
  expect(differences(compareCounts(source, restored))).toEqual([]);
  expect([...restored.keys()]).toEqual([...source.keys()]);
}

const execFileAsync = promisify(execFile);

/** Runs one of the npm scripts' files as `npm run` would (tsx), with its exit code and output. */
async function runScript(script: string, args: string[], env: Record<string, string> = {}) {
  const tsx = path.resolve("node_modules/.bin/tsx");
  try {
    const { stdout, stderr } = await execFileAsync(tsx, [`scripts/${script}`, ...args], {
      env: { ...process.env, ...env, NODE_ENV: "development" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.skipIf(onPostgres)("PGlite: a directory backed up to one file and restored", () => {
  let work: string;
  let sourceDir: string;
  let file: string;
  let demo: { salonId: string; bookings: number };

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "salon-backup-test-"));
    sourceDir = path.join(work, "source");
    file = path.join(work, "backup.tar.gz");
    const source = await openDatabase(sourceDir);
    try {
      await seedSmall(source);
      demo = await demoSalonBookings(source);
    } finally {
      await source.close();
    }
    expect(demo.bookings).toBeGreaterThan(0);
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("restores into a new directory with every table's rows and the demo salon's bookings", async () => {
    const backup = await backupPglite(sourceDir, file);
    expect(existsSync(file)).toBe(true);
    const target = path.join(work, "restored");
    const restored = await restorePglite(file, target);
    expectSameCounts(backup.counts, restored.counts);

    // Opened as the app opens it: the worker thread, the migrations already there.
    const handle = await openDatabase(target);
    try {
      expect(await demoSalonBookings(handle)).toEqual(demo);
      // The comparison notices a lost row: the drill can fail.
      await handle.db.delete(bookings).where(eq(bookings.salonId, demo.salonId));
      const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
      const changed = differences(compareCounts(backup.counts, await countRows(pool)));
      expect(changed.map((row) => row.table)).toContain("public.bookings");
    } finally {
      await handle.close();
    }
  });

  it("refuses a target that is not empty unless forced, and then replaces it", async () => {
    await backupPglite(sourceDir, file, { force: true });
    const target = path.join(work, "occupied");
    await mkdir(target);
    await writeFile(path.join(target, "keep-me.txt"), "not a database");
    await expect(restorePglite(file, target)).rejects.toThrow(/空ではありません.*--force/);
    expect(existsSync(path.join(target, "keep-me.txt"))).toBe(true);

    const cli = await runScript("db-restore.ts", [file, target]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/空ではありません/);
    expect(existsSync(path.join(target, "keep-me.txt"))).toBe(true);

    const restored = await restorePglite(file, target, { force: true });
    expect(existsSync(path.join(target, "keep-me.txt"))).toBe(false);
    expect(restored.counts.get("public.salons")).toBe(SALONS);
  });

  it("refuses bad input with a message: no file, not a backup, an existing backup, an open directory", async () => {
    await expect(
      restorePglite(path.join(work, "missing.tar.gz"), path.join(work, "x")),
    ).rejects.toThrow(/バックアップファイルがありません/);
    const text = path.join(work, "notes.txt");
    await writeFile(text, "hello");
    await expect(restorePglite(text, path.join(work, "y"))).rejects.toThrow(BackupError);
    await backupPglite(sourceDir, file, { force: true });
    await expect(backupPglite(sourceDir, file)).rejects.toThrow(/--force/);
    await expect(backupPglite(path.join(work, "nowhere"), file, { force: true })).rejects.toThrow(
      /データディレクトリではありません/,
    );

    const open = await openDatabase(sourceDir);
    try {
      await expect(backupPglite(sourceDir, path.join(work, "while-open.tar.gz"))).rejects.toThrow(
        /使用中/,
      );
    } finally {
      await open.close();
    }

    const missing = await runScript("db-restore.ts", [path.join(work, "missing.tar.gz")]);
    expect(missing.code).toBe(2);
  });

  it("passes the drill, which leaves nothing behind", async () => {
    const drillDir = path.join(work, "drill");
    const result = await restoreDrill(sourceDir, { workDir: drillDir, now: NOW });
    expect(result.ok).toBe(true);
    expect(
      result.comparison.find((row) => row.table === "public.bookings")?.source,
    ).toBeGreaterThan(0);
    expect(existsSync(result.restoredTo)).toBe(false);
  });
});

describe.skipIf(!onPostgres)("PostgreSQL: pg_dump -Fc restored into a new database", () => {
  // A placeholder on PGlite, where this block is skipped.
  const server = process.env.TEST_DATABASE_URL ?? "postgres://localhost/skipped";
  const suffix = `${process.pid}_${Date.now()}`;
  const sourceUrl = withDatabase(server, `backup_source_${suffix}`);
  const targetUrl = withDatabase(server, `backup_target_${suffix}`);
  const admin = withDatabase(server, "postgres");
  let work: string;
  let file: string;
  let demo: { salonId: string; bookings: number };

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "salon-backup-test-"));
    file = path.join(work, "backup.dump");
    await withClient(admin, (client) =>
      client.query(`create database ${pg.escapeIdentifier(`backup_source_${suffix}`)}`),
    );
    const source = await openDatabase(sourceUrl);
    try {
      await seedSmall(source);
      demo = await demoSalonBookings(source);
    } finally {
      await source.close();
    }
    expect(demo.bookings).toBeGreaterThan(0);
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    await withClient(admin, async (client) => {
      for (const name of [`backup_source_${suffix}`, `backup_target_${suffix}`]) {
        await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      }
    });
  });

  it("restores into a new database with every table's rows and the demo salon's bookings", async () => {
    const backup = await backupPostgres(sourceUrl, file);
    const restored = await restorePostgres(file, targetUrl);
    expectSameCounts(backup.counts, restored.counts);
    const handle = await openDatabase(targetUrl);
    try {
      expect(await demoSalonBookings(handle)).toEqual(demo);
    } finally {
      await handle.close();
    }
  });

  it("refuses a database that holds tables unless forced", async () => {
    // The previous test restored into targetUrl.
    await expect(restorePostgres(file, targetUrl)).rejects.toThrow(/--force/);
    const cli = await runScript("db-restore.ts", [file, targetUrl]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/もうテーブルがあります/);
    const forced = await restorePostgres(file, targetUrl, { force: true });
    expect(forced.counts.get("public.salons")).toBe(SALONS);
  });

  it("passes the drill, which drops its database afterwards", async () => {
    const result = await restoreDrill(sourceUrl, { workDir: path.join(work, "drill"), now: NOW });
    expect(result.ok).toBe(true);
    const left = await withClient(admin, (client) =>
      client.query("select 1 from pg_database where datname like $1", [
        `backup_source_${suffix}_drill_%`,
      ]),
    );
    expect(left.rowCount).toBe(0);
  });
});
