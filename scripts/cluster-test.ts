import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { chromium, type Page } from "@playwright/test";
import pg from "pg";

/**
 * `npm run cluster:test` (after `npm run cluster`; never part of `npm test`):
 * drives the running cluster through the proxy over HTTPS (the self-signed
 * certificate is trusted through NODE_EXTRA_CA_CERTS) and prints a table.
 *   a. a salon's day in Chromium: a member signs in, searches, holds,
 *      confirms; every form post is answered without a 4xx/5xx, and the
 *      owner's ledger shows the booking.
 *   b. rolling restart: each app server in turn gets SIGTERM and is started
 *      again while 20 clients search and book over the JSON API.
 *   c. kill -9 of one app server under the same load.
 * b and c count failed requests, acknowledged bookings missing afterwards
 * and overlapping confirmed bookings of one stylist.
 * `npm run cluster:test -- a` (or `b`, `c`) runs only those parts.
 */
const run = promisify(execFile);
const SITE = `https://localhost:${process.env.CLUSTER_PROXY_PORT ?? 8443}`;
const DATABASE_URL =
  process.env.CLUSTER_DATABASE_URL ??
  `postgres://postgres@127.0.0.1:${process.env.CLUSTER_PG_PORT ?? 5441}/salon_cluster`;
const REPLICA_URL =
  process.env.CLUSTER_REPLICA_URL ??
  `postgres://postgres@127.0.0.1:${process.env.CLUSTER_PG_REPLICA_PORT ?? 5442}/salon_cluster`;
const CLIENTS = Number(process.env.CLUSTER_CLIENTS ?? 20);
const DEMO_PASSWORD = "demo-pass-123";
const parts = process.argv.slice(2).filter((arg) => /^[abcde]$/.test(arg));
const wanted = (part: string) => (parts.length === 0 && part !== "e") || parts.includes(part);
const db = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const replica = new pg.Pool({ connectionString: REPLICA_URL, max: 2 });
// A failover (part e) cuts their connections: the next query opens new ones.
db.on("error", () => {});
replica.on("error", () => {});
const rows: { part: string; measure: string; value: string }[] = [];
const record = (part: string, measure: string, value: string | number) => {
  rows.push({ part, measure, value: String(value) });
  console.log(`  ${part}: ${measure} = ${value}`);
};

const tokyoDate = (days: number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(
    new Date(Date.now() + days * 86_400_000),
  );

// ---------------------------------------------------------------- a. browser
async function salonDay() {
  const { rows: salons } = await db.query<{ id: string; slug: string; name: string }>(
    // The demo owner runs the first three published salons by slug (the seed, README).
    "select id, slug, name from salons where status = 'published' order by slug limit 1",
  );
  const salon = salons[0];
  if (!salon) throw new Error("the demo owner has no salon: was the database seeded?");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const failedPosts: string[] = [];
  let posts = 0;
  try {
    // A browser signed in through the proxy's sign-in form; every POST it makes is counted.
    const signedInPage = async (email: string) => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: SITE });
      const page = await context.newPage();
      page.on("response", (response) => {
        if (response.request().method() !== "POST") return;
        posts += 1;
        if (response.status() >= 400) failedPosts.push(`${response.status()} ${response.url()}`);
      });
      await page.goto("/signin");
      await page.locator("#signin-email").fill(email);
      await page.locator("#signin-password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "ログイン", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
      return { context, page };
    };
    const { context, page } = await signedInPage("demo-user@example.jp");

    // Search by the salon's name, open it from the results.
    await page.goto(`/salons/search?q=${encodeURIComponent(salon.name)}`);
    await page.locator(`main article h3 a[href="/salons/${salon.slug}"]`).first().click();
    await page.waitForURL(new RegExp(`/salons/${salon.slug}$`));
    await page
      .getByRole("link", { name: /を予約する$/ })
      .first()
      .click();
    await page
      .getByRole("heading", { name: /ご予約/ })
      .first()
      .waitFor();
    const date = await pickDay(page, 3);
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    await page.waitForURL(/hold=/);
    await page.getByRole("button", { name: "予約を確定する" }).click();
    await page.getByRole("heading", { name: "ご予約が確定しました" }).waitFor();
    const bookingId = new URL(page.url()).searchParams.get("booking") ?? "";
    record("a", "visitor booked through the proxy (hold, confirm, thanks)", `yes, ${date}`);
    await context.close();

    // The owner's ledger of that day shows it.
    const { context: owner, page: ownerPage } = await signedInPage("demo-owner@example.jp");
    await ownerPage.goto(`/owner/salons/${salon.id}/bookings?date=${date}`);
    const inLedger = await ownerPage
      .locator(`a[href*="/bookings/${bookingId}"]`)
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    record("a", "owner's ledger shows the booking", inLedger ? "yes" : "NO");
    await owner.close();
  } finally {
    await browser.close();
  }
  record("a", "form posts / answered 4xx-5xx", `${posts} / ${failedPosts.length}`);
  for (const failed of failedPosts) console.log(`    failed post: ${failed}`);
}

/** The first day at least `minDays` ahead with a time to book (as tests/e2e/booking-helpers.ts). */
async function pickDay(page: Page, minDays: number) {
  const earliest = tokyoDate(minDays);
  const calendar = page.getByRole("application", { name: /ご来店日/ });
  await calendar.waitFor();
  let tried = "";
  for (let month = 0; month < 3; month++) {
    const cells = calendar.locator('[role="gridcell"] [role="button"]:not([aria-disabled="true"])');
    const count = await cells.count();
    for (let index = 0; index < count; index++) {
      const cell = cells.nth(index);
      const match = ((await cell.getAttribute("aria-label")) ?? "").match(
        /(\d{4})年(\d{1,2})月(\d{1,2})日/,
      );
      if (!match) continue;
      const date = `${match[1]}-${match[2]?.padStart(2, "0")}-${match[3]?.padStart(2, "0")}`;
      if (date < earliest || date <= tried) continue;
      if ((await cell.getAttribute("data-unavailable")) !== null) continue;
      await cell.click();
      await page.waitForURL(new RegExp(`date=${date}`));
      const [, m, d] = date.split("-").map(Number);
      await page
        .getByRole("heading", { name: new RegExp(`4\\. 時間を選ぶ（${m}月${d}日`) })
        .waitFor();
      const times = page.getByRole("button", { name: /から予約する$/ });
      await times
        .first()
        .or(page.getByText(/この日は空いている時間がありません/))
        .waitFor();
      if ((await times.count()) > 0) return date;
      tried = date;
    }
    await calendar.locator('button[slot="next"]').click();
  }
  throw new Error("no free day");
}

// ------------------------------------------------------------- b, c. load
type Tally = {
  requests: number;
  failed: number;
  /** performance.now() of the first and last failed request: the outage as clients saw it. */
  firstFailure?: number;
  lastFailure?: number;
  failures: Map<string, number>;
  conflicts: number;
  refusals: Map<string, number>;
  acknowledged: Set<string>;
};
const newTally = (): Tally => ({
  requests: 0,
  failed: 0,
  failures: new Map(),
  conflicts: 0,
  refusals: new Map(),
  acknowledged: new Set(),
});

/** One request through the proxy; a failure is no answer at all, or a 5xx. */
async function call(tally: Tally, path: string, init: RequestInit = {}) {
  tally.requests += 1;
  const fail = (why: string) => {
    tally.failed += 1;
    tally.firstFailure ??= performance.now();
    tally.lastFailure = performance.now();
    tally.failures.set(why, (tally.failures.get(why) ?? 0) + 1);
  };
  try {
    const response = await fetch(`${SITE}${path}`, {
      ...init,
      headers: { origin: SITE, ...init.headers },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status >= 500) fail(`${response.status} ${path.split("?")[0]}`);
    return { status: response.status, text, headers: response.headers };
  } catch (error) {
    fail(
      `${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).name} ${path.split("?")[0]}`,
    );
    return null;
  }
}

/** A hold or booking the app refused (taken, expired, limited): counted, not a failure. */
function refused(tally: Tally, answer: { status: number; text: string }) {
  tally.conflicts += 1;
  const code = answer.text.match(/"code":"([a-z_]+)"/)?.[1] ?? "";
  const why = `refused ${answer.status} ${code}`;
  tally.refusals.set(why, (tally.refusals.get(why) ?? 0) + 1);
}

type Client = { token: string; email: string };

/** Members for the load: signed up through the API, their address marked verified in the database. */
async function makeClients(count: number): Promise<Client[]> {
  const tally = newTally();
  const clients: Client[] = [];
  for (let i = 0; i < count; i++) {
    const email = `cluster-${Date.now()}-${i}@example.jp`;
    const body = JSON.stringify({ email, password: "cluster-pass-1", name: "負荷 太郎" });
    const headers = { "content-type": "application/json" };
    await call(tally, "/api/auth/sign-up/email", { method: "POST", body, headers });
    await db.query("update users set email_verified = true where email = $1", [email]);
    const signIn = await call(tally, "/api/auth/sign-in/email", {
      method: "POST",
      body: JSON.stringify({ email, password: "cluster-pass-1" }),
      headers,
    });
    const token = signIn?.headers.get("set-auth-token");
    if (!token) throw new Error(`sign-in failed: ${signIn?.status} ${signIn?.text.slice(0, 200)}`);
    clients.push({ token, email });
  }
  return clients;
}

type Target = { salonId: string; menuId: string };

async function targets(): Promise<Target[]> {
  const { rows: found } = await db.query<{ salon_id: string; menu_id: string }>(
    `select distinct on (s.id) s.id as salon_id, m.id as menu_id
       from salons s join menus m on m.salon_id = s.id
      order by s.id, m.duration_minutes limit 60`,
  );
  return found.map((row) => ({ salonId: row.salon_id, menuId: row.menu_id }));
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** One client's loop: search, availability, hold, confirm (with an Idempotency-Key, retried once). */
async function clientLoop(client: Client, places: Target[], tally: Tally, until: () => boolean) {
  const auth = { authorization: `Bearer ${client.token}`, "content-type": "application/json" };
  while (!until()) {
    await call(
      tally,
      `/salons/search?q=${encodeURIComponent(pick(["渋谷", "カット", "新宿", "横浜"]))}`,
    );
    const place = pick(places);
    const date = tokyoDate(3 + Math.floor(Math.random() * 25));
    const availability = await call(
      tally,
      `/api/salons/${place.salonId}/availability?from=${date}&to=${date}&menus=${place.menuId}`,
      { headers: auth },
    );
    if (availability?.status !== 200) continue;
    const slots: { start: string }[] = JSON.parse(availability.text).data.days?.[0]?.slots ?? [];
    if (slots.length === 0) continue;
    const hold = await call(tally, "/api/holds", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        salonId: place.salonId,
        menuIds: [place.menuId],
        start: pick(slots).start,
      }),
    });
    if (hold?.status !== 201) {
      if (hold && hold.status < 500) refused(tally, hold);
      continue;
    }
    const holdId = JSON.parse(hold.text).data.id as string;
    const key = randomUUID();
    for (let attempt = 0; attempt < 3; attempt++) {
      const booking = await call(tally, "/api/bookings", {
        method: "POST",
        headers: { ...auth, "idempotency-key": key },
        body: JSON.stringify({
          holdId,
          contact: {
            name: "負荷 太郎",
            kana: "フカ タロウ",
            phone: "09012345678",
            email: client.email,
          },
        }),
      });
      if (booking && (booking.status === 200 || booking.status === 201)) {
        tally.acknowledged.add(JSON.parse(booking.text).data.id);
        break;
      }
      if (booking && booking.status < 500) {
        refused(tally, booking);
        break;
      }
      // No answer: the client does not know; the same key makes a retry safe.
    }
  }
}

async function underLoad(
  part: string,
  clients: Client[],
  places: Target[],
  disturb: () => Promise<void>,
) {
  const tally = newTally();
  const startedAt = new Date();
  let done = false;
  const lag = sampleReplicaLag(() => done);
  const loops = clients.map((client) => clientLoop(client, places, tally, () => done));
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await disturb();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  done = true;
  await Promise.all(loops);
  const seconds = (performance.now() - began) / 1000;
  const lagged = await lag;
  const ids = [...tally.acknowledged];
  const { rows: kept } = await db.query<{ n: string }>(
    "select count(*) as n from bookings where id = any($1::uuid[]) and status = 'confirmed'",
    [ids],
  );
  const { rows: overlaps } = await db.query<{ n: string }>(
    `select count(*) as n from bookings a join bookings b
        on a.staff_id = b.staff_id and a.id < b.id
       and tstzrange(coalesce(a.occupied_from, a.starts_at), a.occupied_until)
        && tstzrange(coalesce(b.occupied_from, b.starts_at), b.occupied_until)
     where a.status = 'confirmed' and b.status = 'confirmed' and a.kind = 'booking' and b.kind = 'booking'
       and (a.created_at >= $1 or b.created_at >= $1)`,
    [startedAt],
  );
  record(
    part,
    "load",
    `${clients.length} clients, ${seconds.toFixed(1)} s, ${tally.requests} requests`,
  );
  record(part, "failed requests (no answer or 5xx)", tally.failed);
  if (tally.firstFailure !== undefined && tally.lastFailure !== undefined)
    record(
      part,
      "first to last failed request",
      `${((tally.lastFailure - tally.firstFailure) / 1000).toFixed(1)} s`,
    );
  const byKind = new Map<string, number>();
  for (const [why, n] of tally.failures) {
    // One line per status and kind of path, not per salon.
    const kind = why.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}");
    byKind.set(kind, (byKind.get(kind) ?? 0) + n);
  }
  for (const [why, n] of byKind) console.log(`    ${n} × ${why}`);
  record(part, "bookings acknowledged", ids.length);
  record(part, "acknowledged bookings lost", ids.length - Number(kept[0]?.n ?? 0));
  record(part, "slot taken / refused (409, 410, 429)", tally.conflicts);
  for (const [why, n] of tally.refusals) console.log(`    ${n} × ${why}`);
  record(part, "overlapping confirmed bookings of one stylist", overlaps[0]?.n ?? "?");
  record(part, "replica replay lag, median / max of samples (d)", lagged.summary);
  const { rows: onReplica } = await replica.query<{ n: string }>(
    "select count(*) as n from bookings where id = any($1::uuid[]) and status = 'confirmed'",
    [ids],
  );
  record(
    part,
    "acknowledged bookings on the replica afterwards",
    `${onReplica[0]?.n} / ${ids.length}`,
  );
}

/**
 * The replica's lag every 200 ms while `until()` is false: the primary's
 * pg_stat_replication replay_lag (the time from a commit to its replay on
 * the replica, as the walreceiver reports it) and the bytes of WAL sent but
 * not yet replayed.
 */
async function sampleReplicaLag(until: () => boolean) {
  const lags: number[] = [];
  let maxBytes = 0;
  let disconnected = 0;
  while (!until()) {
    const { rows: sampled } = await db
      .query<{ ms: number | null; bytes: string | null }>(
        `select extract(epoch from replay_lag) * 1000 as ms,
                pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) as bytes
           from pg_stat_replication`,
      )
      .catch(() => ({ rows: [] }));
    const row = sampled[0];
    if (!row) disconnected += 1;
    else {
      lags.push(Number(row.ms ?? 0));
      maxBytes = Math.max(maxBytes, Number(row.bytes ?? 0));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  lags.sort((a, b) => a - b);
  const median = lags[Math.floor(lags.length / 2)] ?? Number.NaN;
  const max = lags.at(-1) ?? Number.NaN;
  return {
    summary: `${median.toFixed(1)} ms / ${max.toFixed(1)} ms (${lags.length} samples, most WAL behind ${(maxBytes / 1024).toFixed(0)} kB${disconnected ? `, ${disconnected} without a replica` : ""})`,
  };
}

// ------------------------------------------------------------- d. replica
/**
 * Bookings through the proxy, each followed on the replica until its row is
 * there; then which database the public pages read (a salon renamed on the
 * replica alone is impossible: it is read-only; instead the primary's
 * pg_stat_activity and the replica's are compared) and the read-own-writes cookie.
 */
async function replicaPart() {
  const { rows: standby } = await replica.query<{ recovery: boolean }>(
    "select pg_is_in_recovery() as recovery",
  );
  record("d", "replica is a hot standby (pg_is_in_recovery)", standby[0]?.recovery ? "yes" : "NO");
  const [client] = await makeClients(1);
  if (!client) throw new Error("no client");
  const places = await targets();
  const tally = newTally();
  const seen: number[] = [];
  const auth = { authorization: `Bearer ${client.token}`, "content-type": "application/json" };
  let readPrimaryCookie = "";
  for (let attempt = 0; seen.length < 20 && attempt < 200; attempt++) {
    const place = pick(places);
    const date = tokyoDate(3 + Math.floor(Math.random() * 25));
    const availability = await call(
      tally,
      `/api/salons/${place.salonId}/availability?from=${date}&to=${date}&menus=${place.menuId}`,
      { headers: auth },
    );
    const slots: { start: string }[] =
      availability?.status === 200
        ? (JSON.parse(availability.text).data.days?.[0]?.slots ?? [])
        : [];
    if (slots.length === 0) continue;
    const hold = await call(tally, "/api/holds", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        salonId: place.salonId,
        menuIds: [place.menuId],
        start: pick(slots).start,
      }),
    });
    if (hold?.status !== 201) continue;
    const booking = await call(tally, "/api/bookings", {
      method: "POST",
      headers: { ...auth, "idempotency-key": randomUUID() },
      body: JSON.stringify({
        holdId: JSON.parse(hold.text).data.id,
        contact: {
          name: "負荷 太郎",
          kana: "フカ タロウ",
          phone: "09012345678",
          email: client.email,
        },
      }),
    });
    if (booking?.status !== 201 && booking?.status !== 200) continue;
    const acknowledged = performance.now();
    readPrimaryCookie ||= booking.headers.get("set-cookie")?.match(/read_primary=[^;]*/)?.[0] ?? "";
    const id = JSON.parse(booking.text).data.id as string;
    for (;;) {
      const { rows: found } = await replica.query("select 1 from bookings where id = $1", [id]);
      if (found.length > 0) break;
      if (performance.now() - acknowledged > 10_000)
        throw new Error(`booking ${id} not on the replica after 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    seen.push(performance.now() - acknowledged);
  }
  seen.sort((a, b) => a - b);
  const median = seen[Math.floor(seen.length / 2)] ?? Number.NaN;
  record("d", "bookings through the proxy found on the replica", `${seen.length} / ${seen.length}`);
  record(
    "d",
    "201 → row on the replica, median / max (polling each 1 ms)",
    `${median.toFixed(1)} ms / ${(seen.at(-1) ?? Number.NaN).toFixed(1)} ms`,
  );
  record(
    "d",
    "the booking's answer sets the read-own-writes cookie",
    readPrimaryCookie ? readPrimaryCookie : "NO",
  );

  // Which server answers the search: count the statements each has run.
  const statements = async (pool: pg.Pool) => {
    const { rows: stats } = await pool.query<{ n: string }>(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()",
    );
    return Number(stats[0]?.n ?? 0);
  };
  const reads = async (cookie: string) => {
    await new Promise((resolve) => setTimeout(resolve, 700)); // pg_stat_database is updated at most every 500 ms
    const before = [await statements(db), await statements(replica)];
    for (let i = 0; i < 20; i++) {
      // A different search each time: the anonymous page cache answers a repeated one.
      await call(
        tally,
        `/salons/search?q=${encodeURIComponent(pick(["渋谷", "新宿", "横浜", "池袋"]))}&page=${i + 1}`,
        {
          headers: cookie ? { cookie } : {},
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const after = [await statements(db), await statements(replica)];
    return `primary +${(after[0] ?? 0) - (before[0] ?? 0)}, replica +${(after[1] ?? 0) - (before[1] ?? 0)} transactions`;
  };
  record("d", "20 search pages, anonymous", await reads(""));
  if (readPrimaryCookie)
    record("d", "20 search pages, with the cookie of a write", await reads(readPrimaryCookie));
  record("d", "failed requests (no answer or 5xx)", tally.failed);
}

const cluster = (...args: string[]) => run("bash", ["scripts/cluster.sh", ...args]);

async function main() {
  const ready = await fetch(`${SITE}/readyz`).catch(() => null);
  if (!ready?.ok) throw new Error(`${SITE}/readyz does not answer: start it with npm run cluster`);
  console.log(`cluster at ${SITE}`);
  if (wanted("a")) await salonDay();
  if (wanted("d")) await replicaPart();
  if (wanted("b") || wanted("c") || wanted("e")) {
    const clients = await makeClients(CLIENTS);
    const places = await targets();
    if (wanted("b"))
      await underLoad("b", clients, places, async () => {
        for (const n of [1, 2, 3]) {
          const t = performance.now();
          await cluster("restart", String(n));
          record(
            "b",
            `app${n} SIGTERM → ready again`,
            `${((performance.now() - t) / 1000).toFixed(1)} s`,
          );
        }
      });
    if (wanted("c"))
      await underLoad("c", clients, places, async () => {
        await cluster("kill", "2");
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await cluster("start", "2");
      });
    if (wanted("e"))
      await underLoad("e", clients, places, async () => {
        const t = performance.now();
        await cluster("failover");
        record(
          "e",
          "pg_autoctl perform failover (standby promoted, old primary a standby again)",
          `${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      });
  }
  console.log(`\n| part | measure | value |\n| --- | --- | --- |`);
  for (const row of rows) console.log(`| ${row.part} | ${row.measure} | ${row.value} |`);
}

try {
  await main();
} finally {
  await db.end();
  await replica.end();
}
