import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { addDays } from "../common/local-time";
import { isPostgresUrl } from "../server/db/client";

/** What bench/search.ts and bench/booking.ts share: engines, the built server, cleanup. */

export const PORT = Number(process.env.BENCH_PORT ?? 3690);
export const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Searches a visitor could make, each different, so the page micro-cache
 * (decision 0007) cannot answer them: this is the cost of a cold search.
 */
export const DISTINCT_SEARCHES = (() => {
  const paths: string[] = [];
  for (const q of [
    "カット",
    "カラー",
    "パーマ",
    "ネイル",
    "まつげ",
    "ヘッドスパ",
    "縮毛矯正",
    "トリートメント",
  ])
    for (const genre of ["", "hair", "nail", "eyelash", "headspa"])
      for (const feature of ["", "near-station", "private-room", "card-ok"])
        for (const sort of ["", "rating", "price-asc", "price-desc"])
          for (const page of [1, 2, 3]) {
            const params = new URLSearchParams({ q, genre, feature, sort, page: String(page) });
            for (const [name, value] of [...params]) if (!value) params.delete(name);
            paths.push(`/salons/search?${params}`);
          }
  return paths;
})();

/** The distinct stream with the free-time filter (decision 0014): a date of the next 7 days, and time ranges in turn. */
export function freeTimeSearches(today: string) {
  const ranges = ["", "&from=10:00&to=13:00", "&from=18:00"];
  return DISTINCT_SEARCHES.map((path, i) => {
    const date = addDays(today, 1 + (i % 7));
    return `${path}&date=${date}${ranges[i % ranges.length]}`;
  });
}

export const cleanups: (() => Promise<void>)[] = [];
export async function cleanUp() {
  while (cleanups.length > 0)
    await cleanups
      .pop()?.()
      .catch((error) => console.error(error));
}
process.on("SIGINT", () => {
  void cleanUp().then(() => process.exit(130));
});

export type Engine = { name: "pglite" | "postgres"; url: string; drop(): Promise<void> };

/**
 * `env` adds to the server's environment (bench:search turns the page cache off with it);
 * `cwd` is another checkout's built server (bench:search --vs, a baseline measured alternately).
 */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<ChildProcess> {
  // Another server on the port would answer /readyz below and be measured instead.
  const other = await fetch(`http://127.0.0.1:${PORT}/readyz`).catch(() => null);
  if (other) throw new Error(`port ${PORT} is taken: stop that server or set BENCH_PORT`);
  const child = spawn(process.execPath, ["server.js"], {
    cwd,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: "error",
      // Production refuses to start without a secret; any throwaway value will do here.
      BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("hex"),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error("server did not become ready in 60 s");
}

/** Runs a command to its end (a seed, a migration); its errors go to this process's stderr. */
export function runCommand(command: string, args: string[], env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")}: exit ${code}`)),
    );
  });
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A throwaway PGlite directory, or `keepDir`: a directory kept between runs
 * (seeded once, reused: seeding 10,000 salons with bookings takes most of a
 * run on PGlite).
 */
export async function pgliteEngine(keepDir?: string): Promise<Engine> {
  if (keepDir) return { name: "pglite", url: path.resolve(keepDir), drop: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), "bench-search-"));
  const drop = () => rm(dir, { recursive: true, force: true });
  cleanups.push(drop);
  return { name: "pglite", url: dir, drop };
}

/** A throwaway `bench_<uuid>` database, or `keepDatabase`, created if missing and kept. */
export async function postgresEngine(
  keepDatabase?: string,
  template?: string,
): Promise<Engine | null> {
  if (keepDatabase && !/^[a-z_][a-z0-9_]*$/.test(keepDatabase)) {
    throw new Error(`not a plain database name: ${keepDatabase}`);
  }
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = keepDatabase ?? `bench_${randomUUID().replaceAll("-", "")}`;
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
    }
  } finally {
    await admin.end();
  }
  if (keepDatabase) {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return { name: "postgres", url: url.toString(), drop: async () => {} };
  }
  const drop = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  cleanups.push(drop);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { name: "postgres", url: url.toString(), drop };
}

/**
 * A throwaway `<prefix>_<uuid>` database on the PostgreSQL server that
 * TEST_DATABASE_URL or DATABASE_URL names (dropped by cleanUp), or null when
 * neither names one: the back-office benchmarks run PostgreSQL only when asked.
 */
export async function throwawayDatabaseFromEnv(prefix: string): Promise<string | null> {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base || !isPostgresUrl(base)) return null;
  const name = `${prefix}_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A throwaway copy of a kept engine (a seeded template): a copied PGlite
 * directory, or a database created from the kept one as its template. The
 * run may then book and grow without changing the template.
 */
export async function copyOf(template: Engine): Promise<Engine> {
  if (template.name === "pglite") {
    const dir = await mkdtemp(path.join(tmpdir(), "bench-copy-"));
    await cp(template.url, dir, { recursive: true });
    const drop = () => rm(dir, { recursive: true, force: true });
    cleanups.push(drop);
    return { name: "pglite", url: dir, drop };
  }
  const source = new URL(template.url).pathname.slice(1);
  const copy = await postgresEngine(undefined, source);
  if (!copy) throw new Error("PostgreSQL is not reachable");
  return copy;
}

export const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@");

/** The seed's demo owner (scripts/db-seed.ts): the back office's benches sign in as them. */
export const DEMO_OWNER = { email: "demo-owner@example.jp", password: "demo-pass-123" };

/**
 * Signs the demo owner in through Better Auth's API (no form) and returns the
 * session cookies as one `Cookie` header value (`name=value; …`), for plain
 * requests, Lighthouse's extraHeaders or a browser context (`cookiesForUrl`).
 */
export async function signInDemoOwner(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify(DEMO_OWNER),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => pair.includes("="))
    .join("; ");
  if (!cookie) throw new Error("sign-in: no session cookie");
  return cookie;
}

/**
 * A `Cookie` header value as cookies of `origin` for a browser's store (Playwright's
 * BrowserContext.addCookies, CDP's Storage.setCookies). Secure, as the server sets them (the
 * session cookie's `__Secure-` prefix demands it); browsers keep secure cookies of localhost.
 */
export function cookiesForUrl(cookie: string, origin: string) {
  const domain = new URL(origin).hostname;
  return cookie.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      domain,
      path: "/",
      secure: true,
      httpOnly: true,
      sameSite: "Lax" as const,
    };
  });
}
