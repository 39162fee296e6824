import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgliteThread } from "./pglite-thread.server";

const run = promisify(execFile);

// PGlite in its worker thread, through node-postgres: what the app relies on
// from a database connection, on a session that several pool connections share.
describe("PGlite in a worker thread", () => {
  let thread: PgliteThread;
  let pool: pg.Pool;
  beforeAll(async () => {
    thread = new PgliteThread("memory://");
    await thread.waitReady;
    pool = thread.pool();
    await pool.query("create table counter (n int not null); insert into counter values (0)");
  }, 60_000);
  afterAll(async () => {
    await pool.end();
    await thread.close();
  });

  it("answers queries with parameters and PostgreSQL's types", async () => {
    const { rows } = await pool.query(
      "select $1::int + 1 as n, $2::text[] as words, $3::timestamptz as at",
      [41, ["カット", "カラー"], new Date("2026-11-23T01:00:00Z")],
    );
    expect(rows).toEqual([
      { n: 42, words: ["カット", "カラー"], at: new Date("2026-11-23T01:00:00Z") },
    ]);
  });

  it("reports a failed statement with its SQL state, and goes on serving", async () => {
    await pool.query("create table unique_names (name text primary key)");
    await pool.query("insert into unique_names values ('a')");
    const failures = await Promise.allSettled([
      pool.query("insert into unique_names values ('a')"),
      pool.query("select 1 / 0"),
    ]);
    expect(failures.map((result) => result.status === "rejected" && result.reason.code)).toEqual([
      "23505",
      "22012",
    ]);
    expect((await pool.query("select count(*)::int as n from unique_names")).rows[0].n).toBe(1);
  });

  it("keeps a transaction's statements together while other connections wait", async () => {
    // Read, pause, write: without isolation between the pool's connections
    // some increments would be lost.
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        const client = await pool.connect();
        try {
          await client.query("begin");
          const { rows } = await client.query("select n from counter");
          await new Promise((resolve) => setTimeout(resolve, 1));
          await client.query("update counter set n = $1", [rows[0].n + 1]);
          await client.query("commit");
        } finally {
          client.release();
        }
      }),
    );
    expect((await pool.query("select n from counter")).rows[0].n).toBe(12);
  });

  it("rolls back a transaction whose client the pool dropped", async () => {
    const client = await pool.connect();
    await client.query("begin");
    await client.query("update counter set n = 999");
    client.release(new Error("dropped"));
    expect((await pool.query("select n from counter")).rows[0].n).not.toBe(999);
  });

  it("delivers NOTIFY to the session's LISTEN after commit", async () => {
    const heard: string[] = [];
    const stop = thread.onNotification((channel, payload) => heard.push(`${channel}:${payload}`));
    await pool.query("listen thread_test");
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("select pg_notify('thread_test', 'hello')");
      expect(heard).toEqual([]);
      await client.query("commit");
    } finally {
      client.release();
    }
    await expect.poll(() => heard).toEqual(["thread_test:hello"]);
    stop();
  });

  it("lets a process that is done exit without closing the database", async () => {
    // A script that forgets close() must still end (the thread is unref'd
    // between calls) and must be answered while it waits (ref'd meanwhile).
    const script = `
      const { PgliteThread } = await import(${JSON.stringify(path.resolve("server/db/pglite-thread.server.ts"))});
      const thread = new PgliteThread("memory://");
      await thread.waitReady;
      await new Promise((resolve) => setTimeout(resolve, 20));
      console.log((await thread.pool().query("select 'answered' as a")).rows[0].a);
    `;
    const directory = await mkdtemp(path.join(tmpdir(), "pglite-thread-"));
    try {
      const file = path.join(directory, "script.mjs");
      await writeFile(file, script);
      const { stdout } = await run(process.execPath, [file], { timeout: 50_000 });
      expect(stdout.trim()).toBe("answered");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    // PGlite starts in seconds (longer on a busy machine); a process kept alive would time out.
  }, 60_000);
});
