import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "@playwright/test";
import { addDays, formatMinutes, minutesOf, toLocal } from "../common/local-time";
import { cleanUp, cleanups, cookiesForUrl, runCommand, signInDemoOwner } from "./harness";

/**
 * `npx tsx bench/ledger-live.ts [checkout…]` (issue 42): how long after a
 * change commits the owner's open ledger page shows it. For each checkout
 * (default: this one; each must be built), a copy of one freshly seeded
 * PGlite directory and its own `node server.js` (production mode, port
 * BENCH_PORT + i, default 4700); the demo owner signs in, opens
 * /owner/salons/{id}/bookings?date=… in Chromium, and then, alternating
 * between the servers, the bench adds a block (その他, a unique text) over the
 * owner API and removes it again (action release). Each change is timed from
 * the API's answer (the transaction has committed by then) to the moment a
 * MutationObserver in the page sees the text appear, or go; the page and the
 * bench share the machine's clock. Prints median, p90 and max per checkout.
 *
 * BENCH_RUNS (default 10) changes of each kind per checkout.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 4700);
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

async function startServer(checkout: string, dataDir: string, port: number) {
  // Another server answering on the port would be measured instead of ours.
  const taken = await fetch(`http://127.0.0.1:${port}/readyz`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is in use: set BENCH_PORT`);
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd: checkout,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: dataDir,
      UPLOADS_DIR: `${dataDir}-uploads`,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: "error",
      BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "100000",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server in ${checkout} exited`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server in ${checkout} not ready in 120 s`);
}

type Target = {
  checkout: string;
  origin: string;
  page: Page;
  cookie: string;
  salonId: string;
  staffId: string;
  date: string;
  from: string;
  to: string;
  samples: { add: number[]; release: number[] };
};

/** Signs the browser context in; the bench's own requests send the same cookies. */
async function signIn(context: BrowserContext, origin: string): Promise<string> {
  const cookie = await signInDemoOwner(origin);
  await context.addCookies(cookiesForUrl(cookie, origin));
  return cookie;
}

async function api(target: Pick<Target, "origin" | "cookie">, pathname: string, body?: unknown) {
  return fetch(`${target.origin}/api${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      cookie: target.cookie,
      origin: target.origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function prepare(
  checkout: string,
  origin: string,
  browser: Awaited<ReturnType<typeof chromium.launch>>,
): Promise<Target> {
  const context = await browser.newContext();
  const cookie = await signIn(context, origin);
  const opened = await fetch(`${origin}/owner`, { headers: { cookie }, redirect: "manual" });
  const salonId = /\/owner\/salons\/([0-9a-f-]{36})/.exec(
    opened.headers.get("location") ?? "",
  )?.[1];
  if (!salonId) throw new Error(`/owner did not open a salon (${opened.status})`);
  // Three days ahead: no live holds or 来店 states of today in the way.
  const date = addDays(toLocal(new Date(), "Asia/Tokyo").date, 3);
  const ledger = (await (
    await api({ origin, cookie }, `/owner/salons/${salonId}/ledger?date=${date}`)
  ).json()) as {
    data: { columns: { staff: { id: string }; free: { startTime: string; endTime: string }[] }[] };
  };
  const base = { origin, cookie };
  // A free half hour of some stylist, checked by the API itself: the first block it accepts.
  for (const column of ledger.data.columns) {
    for (const span of column.free) {
      const from = span.startTime;
      const to = addMinutes(from, 30);
      if (to > span.endTime) continue;
      const tried = await api(base, `/owner/salons/${salonId}/blocks`, {
        staffId: column.staff.id,
        date,
        from,
        to,
        reason: "other",
        text: "bench-probe",
      });
      if (tried.status !== 201) continue;
      const { data } = (await tried.json()) as { data: { id: string; version: number } };
      await release(base, salonId, data);
      const page = await context.newPage();
      const stream = page.waitForRequest((request) => request.url().includes("/ledger/stream"));
      await page.goto(`${origin}/owner/salons/${salonId}/bookings?date=${date}`);
      await stream;
      // The stream's hello has to arrive before the first change counts as news.
      await page.waitForTimeout(1_000);
      return {
        checkout,
        origin,
        page,
        cookie,
        salonId,
        staffId: column.staff.id,
        date,
        from,
        to,
        samples: { add: [], release: [] },
      };
    }
  }
  throw new Error("no free half hour for a block");
}

async function release(
  target: Pick<Target, "origin" | "cookie">,
  salonId: string,
  entry: { id: string; version: number },
) {
  const response = await api(target, `/owner/salons/${salonId}/bookings/${entry.id}/actions`, {
    action: "release",
    version: entry.version,
  });
  if (!response.ok) throw new Error(`release: ${response.status} ${await response.text()}`);
}

/**
 * Resolves with the page's clock when `text` is (or is no longer) in the
 * page. A string, not a function: tsx's transform names functions with a
 * helper the page does not have.
 */
function watch(page: Page, text: string, present: boolean): Promise<number> {
  const watching = page.evaluate(`new Promise((resolve) => {
    const check = () => document.body.textContent.includes(${JSON.stringify(text)}) === ${present};
    if (check()) return resolve(Date.now());
    const observer = new MutationObserver(() => {
      if (check()) {
        observer.disconnect();
        resolve(Date.now());
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  })`) as Promise<number>;
  // Awaited later; a failure before then must not end the process without its cleanup.
  watching.catch(() => {});
  return watching;
}

async function once(target: Target, n: number) {
  const text = `bench-${n}-${randomBytes(3).toString("hex")}`;
  const shown = watch(target.page, text, true);
  const added = await api(target, `/owner/salons/${target.salonId}/blocks`, {
    staffId: target.staffId,
    date: target.date,
    from: target.from,
    to: target.to,
    reason: "other",
    text,
  });
  const committed = Date.now();
  if (added.status !== 201) throw new Error(`block: ${added.status} ${await added.text()}`);
  const { data } = (await added.json()) as { data: { id: string; version: number } };
  target.samples.add.push((await shown) - committed);
  const gone = watch(target.page, text, false);
  await release(target, target.salonId, data);
  const released = Date.now();
  target.samples.release.push((await gone) - released);
}

const addMinutes = (time: string, minutes: number) => formatMinutes(minutesOf(time) + minutes);

const stat = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `${at(0.5)} / ${at(0.9)} / ${sorted.at(-1)} ms`;
};

async function main() {
  const checkouts = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["."];
  for (const checkout of checkouts) {
    if (!existsSync(path.join(checkout, "build/server/index.js")))
      throw new Error(`${checkout} is not built`);
  }
  const seeded = await mkdtemp(path.join(tmpdir(), "bench-ledger-live-"));
  cleanups.push(() => rm(seeded, { recursive: true, force: true }));
  // BENCH_SEEDED: a demo-seeded PGlite directory to copy instead of seeding (it is not changed).
  if (process.env.BENCH_SEEDED) {
    await cp(process.env.BENCH_SEEDED, path.join(seeded, "seed"), { recursive: true });
  } else {
    console.log("seeding the demo data…");
    await runCommand(process.execPath, ["--import", "tsx", "scripts/db-seed.ts"], {
      DATABASE_URL: path.join(seeded, "seed"),
      UPLOADS_DIR: path.join(seeded, "seed-uploads"),
    });
  }
  const browser = await chromium.launch({
    executablePath:
      process.env.CHROMIUM_PATH ??
      (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  cleanups.push(() => browser.close());
  const targets: Target[] = [];
  for (const [i, checkout] of checkouts.entries()) {
    const dataDir = path.join(seeded, `server-${i}`);
    await cp(path.join(seeded, "seed"), dataDir, { recursive: true });
    const port = BASE_PORT + i;
    await startServer(path.resolve(checkout), dataDir, port);
    targets.push(await prepare(checkout, `http://localhost:${port}`, browser));
  }
  // One unmeasured change each: the first revalidation warms the server's code paths.
  for (const target of targets) await once(target, -1);
  for (const target of targets) target.samples = { add: [], release: [] };
  for (let n = 0; n < RUNS; n++) for (const target of targets) await once(target, n);
  const [one, five] = loadavg().map((load) => load.toFixed(2));
  console.log(
    `\nledger live update, commit → shown (median / p90 / max of ${RUNS}); load average ${one} ${five}\n`,
  );
  console.log("| checkout | block added | block removed |");
  console.log("| -------- | ----------: | ------------: |");
  for (const target of targets)
    console.log(
      `| ${target.checkout} | ${stat(target.samples.add)} | ${stat(target.samples.release)} |`,
    );
}

try {
  await main();
} finally {
  await cleanUp();
}
