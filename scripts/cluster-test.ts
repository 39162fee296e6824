import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { promisify } from "node:util";
import { chromium, type Page } from "@playwright/test";
import pg from "pg";
import { DISTINCT_SEARCHES, freeTimeSearches } from "../bench/harness";

/**
 * `npm run cluster:test` (after `npm run cluster`; never part of `npm test`):
 * drives the running cluster through the proxy over HTTPS (the self-signed
 * certificate is trusted through NODE_EXTRA_CA_CERTS) and prints a table.
 *   a. a salon's day in Chromium: a member signs in, searches, holds; the
 *      owner's ledger of that day is open; the member confirms, the ledger
 *      shows it live, the owner moves it, the member's history shows the move;
 *      every form post is answered without a 4xx/5xx.
 *   d. the replica: bookings followed onto it, which database pages read.
 *   b. rolling restart: each app server in turn gets SIGTERM and is started
 *      again while 20 clients search and book over the JSON API.
 *   c. kill -9 of one app server under the same load.
 *   e. a planned database failover (pg_autoctl perform failover) under load.
 *   f. the primary's node lost (kill -9 of its keeper and postgres) under
 *      load, with the owner's live ledger stream open; the node then rejoins.
 *      After b–f: every acknowledged booking's confirmation job ran once.
 *   g. the replica held back (recovery_min_apply_delay): own writes shown at
 *      once, a time still free on the replica refused by the primary.
 *   h. read scaling: distinct search pages a second, 1 vs 3 app servers,
 *      reads on the primary vs primary + replica, with the CPU of each process.
 * b, c, e and f count failed requests, acknowledged bookings missing
 * afterwards and overlapping confirmed bookings of one stylist.
 * `npm run cluster:test -- a` (or any letters) runs only those parts; e and f
 * need the default pg_auto_failover cluster (not CLUSTER_FAILOVER=0).
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
const parts = process.argv.slice(2).filter((arg) => /^[a-h]$/.test(arg));
const wanted = (part: string) => parts.length === 0 || parts.includes(part);
/**
 * The test's own connections to the cluster's database, through the same
 * HAProxy ports as the app's. A failover (parts e, f) cuts them: a query that
 * finds its connection lost, or the database not yet writable, is tried
 * again for up to 15 s.
 */
function steadyPool(connectionString: string) {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on("error", () => {});
  const lost = (error: unknown) =>
    /terminated|ECONNREFUSED|ECONNRESET|read-only transaction|shutting down|starting up/i.test(
      String((error as Error).message),
    ) || ["57P01", "57P03", "25006", "08006"].includes((error as { code?: string }).code ?? "");
  return {
    async query<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await pool.query<T>(text, values);
        } catch (error) {
          if (attempt >= 30 || !lost(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    },
    end: () => pool.end(),
  };
}
const db = steadyPool(DATABASE_URL);
const replica = steadyPool(REPLICA_URL);
const rows: { part: string; measure: string; value: string }[] = [];
/** Every booking acknowledged under load (b, c, e, f): their jobs are checked at the end. */
const acknowledgedEverywhere = new Set<string>();
const MONITOR_URL = `postgres://postgres@127.0.0.1:${process.env.CLUSTER_PG_MONITOR_PORT ?? 5440}/pg_auto_failover`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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
  // The move form's own answers: 409 the time is taken, 422 "outside the schedule: confirm?".
  let businessAnswers = 0;
  let posts = 0;
  try {
    // A browser signed in through the proxy's sign-in form; every POST it makes is counted.
    const signedInPage = async (email: string) => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: SITE });
      const page = await context.newPage();
      page.on("response", (response) => {
        if (response.request().method() !== "POST") return;
        posts += 1;
        if (response.status() === 409 || response.status() === 422) businessAnswers += 1;
        else if (response.status() >= 400)
          failedPosts.push(`${response.status()} ${response.url()}`);
      });
      await page.goto("/signin");
      await page.locator("#signin-email").fill(email);
      await page.locator("#signin-password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "ログイン", exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
      return { context, page };
    };
    const { context, page } = await signedInPage("demo-user@example.jp");
    const { context: owner, page: ownerPage } = await signedInPage("demo-owner@example.jp");

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

    // The owner's ledger of that day is open (on whichever app server the proxy chose) before the booking.
    await ownerPage.goto(`/owner/salons/${salon.id}/bookings?date=${date}`);
    await ownerPage.getByRole("heading", { level: 1 }).first().waitFor();
    const ledgerLinks = () =>
      ownerPage
        .locator('a[href*="/bookings/"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    const before = new Set(await ledgerLinks());

    await page.getByRole("button", { name: "予約を確定する" }).click();
    await page.getByRole("heading", { name: "ご予約が確定しました" }).waitFor();
    const confirmedAt = performance.now();
    const bookingId = new URL(page.url()).searchParams.get("booking") ?? "";
    record("a", "visitor booked through the proxy (hold, confirm, thanks)", `yes, ${date}`);

    // Live: the open ledger shows it without a reload (LISTEN/NOTIFY across the app servers):
    // the hold's 「ネット予約の手続き中」 becomes the customer's name.
    const live = await ownerPage
      .locator(`a[href*="/bookings/${bookingId}"]`)
      .filter({ hasText: "様" })
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () =>
          `yes, ${((performance.now() - confirmedAt) / 1000).toFixed(1)} s after the thanks page${before.has(`/owner/salons/${salon.id}/bookings/${bookingId}`) ? " (its hold was listed already)" : ""}`,
        () => "NO",
      );
    record("a", "owner's open ledger shows it live, without a reload", live);

    // The mail is the job worker's (a pass every few seconds), to the address on the booking.
    let mailed = "NO";
    for (
      const started = performance.now();
      performance.now() - started < 30_000;
      await sleep(500)
    ) {
      const { rows: mails } = await db.query<{ n: number }>(
        `select count(*)::int as n from mail_outbox m join bookings b on b.id = $1
          where m."to" = b.customer_email and m.created_at >= b.created_at
            and m.subject like '%ご予約が確定しました%'`,
        [bookingId],
      );
      if (mails[0]?.n) {
        mailed = `yes, ${((performance.now() - confirmedAt) / 1000).toFixed(1)} s after the thanks page`;
        break;
      }
    }
    record("a", "confirmation mail written", mailed);

    // The owner moves it to a later day's time the availability API offers for its stylist
    // (the demo salon fills up over runs); the visitor's 予約履歴 shows the new day.
    let movedTo = "";
    const { rows: booked } = await db.query<{ staff_id: string; menus: string }>(
      `select b.staff_id, string_agg(m.menu_id::text, ',' order by m.position) as menus
         from bookings b join booking_menus m on m.booking_id = b.id
        where b.id = $1 group by b.staff_id`,
      [bookingId],
    );
    const offered: { date: string; time: string }[] = [];
    for (let days = 1; days <= 14 && offered.length < 4; days++) {
      const day = new Date(`${date}T00:00:00Z`);
      day.setUTCDate(day.getUTCDate() + days);
      const target = day.toISOString().slice(0, 10);
      const answer = await fetch(
        `${SITE}/api/salons/${salon.id}/availability?from=${target}&to=${target}&menus=${booked[0]?.menus}&staff=${booked[0]?.staff_id}`,
      ).then(
        (response) =>
          response.json() as Promise<{ data?: { days?: { slots: { time: string }[] }[] } }>,
      );
      const time = answer.data?.days?.[0]?.slots?.[0]?.time;
      if (time) offered.push({ date: target, time });
    }
    for (const slot of offered) {
      if (movedTo) break;
      await ownerPage.goto(`/owner/salons/${salon.id}/bookings/${bookingId}/move`);
      await ownerPage.getByLabel("日付").fill(slot.date);
      await ownerPage.getByLabel("開始時刻").fill(slot.time.padStart(5, "0"));
      await ownerPage.getByRole("button", { name: "変更する" }).click();
      const done = ownerPage.getByRole("status").filter({ hasText: "予約を変更しました" });
      const outside = ownerPage.getByLabel(/このまま移動する/);
      await done
        .or(outside)
        .or(ownerPage.getByRole("alert").first())
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {});
      if (await outside.isVisible()) {
        await outside.check();
        await ownerPage.getByRole("button", { name: "変更する" }).click();
      }
      if (
        await done.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        movedTo = slot.date;
    }
    record("a", "owner moved it to", movedTo || "NOT MOVED");
    if (movedTo) {
      const [y, m, d] = movedTo.split("-").map(Number);
      await page.goto("/account/history");
      const shown = await page
        .getByText(`${y}年${m}月${d}日`)
        .first()
        .waitFor({ timeout: 10_000 })
        .then(
          () => "yes",
          () => "NO",
        );
      record("a", "the visitor's 予約履歴 shows the new day", shown);
    }
    await context.close();
    await owner.close();
  } finally {
    await browser.close();
  }
  record(
    "a",
    "form posts / refused or failed (4xx-5xx but the form's own 409, 422)",
    `${posts} / ${failedPosts.length} (${businessAnswers} answered 409 taken or 422 confirm, as designed)`,
  );
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
  const headers = { "content-type": "application/json" };
  for (let i = 0; clients.length < count; i++) {
    // Just after a failover a sign-up may fail half-way (Better Auth writes the user and its
    // password in separate statements): such an address is left, and the next one tried.
    if (i >= count + 20)
      throw new Error(`sign-up failed ${i} times: ${[...tally.failures.keys()].join(", ")}`);
    const email = `cluster-${Date.now()}-${i}@example.jp`;
    const body = JSON.stringify({ email, password: "cluster-pass-1", name: "負荷 太郎" });
    const signUp = await call(tally, "/api/auth/sign-up/email", { method: "POST", body, headers });
    if (signUp?.status !== 200) {
      await sleep(500);
      continue;
    }
    await db.query("update users set email_verified = true where email = $1", [email]);
    const signIn = await call(tally, "/api/auth/sign-in/email", {
      method: "POST",
      body: JSON.stringify({ email, password: "cluster-pass-1" }),
      headers,
    });
    const token = signIn?.headers.get("set-auth-token");
    if (token) clients.push({ token, email });
    else await sleep(500);
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
  for (const id of ids) acknowledgedEverywhere.add(id);
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

/** Holds and books one free time at `place` on `date` (or any of the next days): the booking and its answer. */
async function bookOne(
  tally: Tally,
  client: Client,
  place: Target,
  days: string[],
  extraHeaders: Record<string, string> = {},
) {
  const auth = { authorization: `Bearer ${client.token}`, "content-type": "application/json" };
  for (const date of days) {
    const availability = await call(
      tally,
      `/api/salons/${place.salonId}/availability?from=${date}&to=${date}&menus=${place.menuId}`,
      { headers: auth },
    );
    const slots: { start: string }[] =
      availability?.status === 200
        ? (JSON.parse(availability.text).data.days?.[0]?.slots ?? [])
        : [];
    for (const slot of slots.slice(0, 3)) {
      const hold = await call(tally, "/api/holds", {
        method: "POST",
        headers: { ...auth, ...extraHeaders },
        body: JSON.stringify({
          salonId: place.salonId,
          menuIds: [place.menuId],
          start: slot.start,
        }),
      });
      if (hold?.status !== 201) {
        if (hold && hold.status < 500) refused(tally, hold);
        continue;
      }
      const held = JSON.parse(hold.text).data as { id: string; staffId: string; startsAt: string };
      const booking = await call(tally, "/api/bookings", {
        method: "POST",
        headers: { ...auth, ...extraHeaders, "idempotency-key": randomUUID() },
        body: JSON.stringify({
          holdId: held.id,
          contact: {
            name: "負荷 太郎",
            kana: "フカ タロウ",
            phone: "09012345678",
            email: client.email,
          },
        }),
      });
      if (booking?.status === 201 || booking?.status === 200)
        return { id: JSON.parse(booking.text).data.id as string, date, held, answer: booking };
    }
  }
  return null;
}

/**
 * The owner's live ledger stream (Server-Sent Events) for `from`..`to`,
 * reconnected as EventSource would (after its `retry:`, here 500 ms) when the
 * connection ends: the time of each `event: ledger` and how often it reconnected.
 */
function watchLedger(token: string, salonId: string, from: string, to: string) {
  const events: number[] = [];
  let reconnects = -1;
  let stopped = false;
  const controller = new AbortController();
  const loop = (async () => {
    while (!stopped) {
      reconnects += 1;
      try {
        const response = await fetch(
          `${SITE}/api/owner/salons/${salonId}/ledger/stream?from=${from}&to=${to}`,
          { headers: { authorization: `Bearer ${token}` }, signal: controller.signal },
        );
        if (!response.ok || !response.body) throw new Error(String(response.status));
        const decoder = new TextDecoder();
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const text = decoder.decode(value, { stream: true });
          for (const _ of text.matchAll(/^event: ledger$/gm)) events.push(performance.now());
        }
      } catch {
        // Cut by a failover or a server going away: connect again.
      }
      if (!stopped) await sleep(500);
    }
  })();
  return {
    events,
    reconnects: () => Math.max(0, reconnects),
    stop: async () => {
      stopped = true;
      controller.abort();
      await loop;
    },
  };
}

async function signInToken(email: string, password: string) {
  const response = await fetch(`${SITE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const token = response.headers.get("set-auth-token");
  if (!token) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  /** The session cookie(s) as a Cookie header, for the pages. */
  const cookies = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  return { token, cookies };
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
  let readPrimaryCookie = "";
  for (let attempt = 0; seen.length < 20 && attempt < 200; attempt++) {
    const booked = await bookOne(tally, client, pick(places), [
      tokyoDate(3 + Math.floor(Math.random() * 25)),
    ]);
    if (!booked) continue;
    const booking = booked.answer;
    const acknowledged = performance.now();
    readPrimaryCookie ||= booking.headers.get("set-cookie")?.match(/read_primary=[^;]*/)?.[0] ?? "";
    const id = booked.id;
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
  const statements = async (pool: typeof db) => {
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

// ------------------------------------------------ e, f. database failover
/** Whether the cluster runs pg_auto_failover (the default; CLUSTER_FAILOVER=0 does not). */
async function monitorQuery<T extends pg.QueryResultRow>(sql: string) {
  const monitor = new pg.Client({ connectionString: MONITOR_URL, connectionTimeoutMillis: 2_000 });
  try {
    await monitor.connect();
    return (await monitor.query<T>(sql)).rows;
  } catch {
    return null;
  } finally {
    await monitor.end().catch(() => {});
  }
}

/** Until the formation is one primary and one secondary again (after a failover or a lost node). */
async function waitForPair(seconds: number) {
  const began = performance.now();
  while (performance.now() - began < seconds * 1000) {
    const states = await monitorQuery<{ primaries: number; secondaries: number }>(
      `select count(*) filter (where reportedstate = 'primary' and goalstate = 'primary')::int as primaries,
              count(*) filter (where reportedstate = 'secondary' and goalstate = 'secondary')::int as secondaries
         from pgautofailover.node`,
    );
    if (states?.[0]?.primaries === 1 && states[0].secondaries === 1)
      return (performance.now() - began) / 1000;
    await sleep(500);
  }
  throw new Error(`the formation is not a primary and a secondary after ${seconds} s`);
}

/** The demo owner's first salon (the seed: the first three published salons by slug). */
async function ownerSalon() {
  const { rows: salons } = await db.query<{ id: string; slug: string; name: string }>(
    "select id, slug, name from salons where status = 'published' order by slug limit 1",
  );
  const salon = salons[0];
  if (!salon) throw new Error("the demo owner has no salon: was the database seeded?");
  const { rows: menus } = await db.query<{ id: string }>(
    "select id from menus where salon_id = $1 order by duration_minutes, id limit 1",
    [salon.id],
  );
  return { ...salon, menuId: menus[0]?.id ?? "" };
}

/**
 * f. The primary's node lost under booking load (its keeper and postgres
 * killed, as a machine that dies): the monitor promotes the standby, HAProxy
 * routes to it, the pools reconnect. Meanwhile the owner's ledger stream is
 * open; a booking at that salon after the failover must reach it.
 */
async function unplannedFailover(clients: Client[], places: Target[]) {
  await waitForPair(180);
  const salon = await ownerSalon();
  const owner = await signInToken("demo-owner@example.jp", DEMO_PASSWORD);
  const days = [3, 4, 5, 6, 7, 8, 9].map(tokyoDate);
  const watcher = watchLedger(owner.token, salon.id, days[0] ?? "", days.at(-1) ?? "");
  let lost = "";
  try {
    await underLoad("f", clients, places, async () => {
      lost = (await cluster("lose-primary")).stdout.trim();
      record("f", "node lost (its pg_autoctl and postgres, kill -9)", lost);
    });
    const reconnectsBefore = watcher.reconnects();
    const before = performance.now();
    // A new member: the load's have many bookings each (a member's upcoming bookings are limited).
    const [client] = await makeClients(1);
    if (!client) throw new Error("no client");
    const tally = newTally();
    const booked = await bookOne(tally, client, { salonId: salon.id, menuId: salon.menuId }, days);
    if (!booked)
      throw new Error(
        `no booking at the owner's salon after the failover: ${[...tally.refusals.keys(), ...tally.failures.keys()].join(", ")}`,
      );
    const answered = performance.now();
    while (performance.now() - answered < 15_000 && !watcher.events.some((t) => t > before))
      await sleep(20);
    const first = watcher.events.find((t) => t > before);
    record(
      "f",
      "owner's live ledger after the failover: an event for a new booking",
      first === undefined
        ? "NO"
        : `yes, ${Math.max(0, first - answered).toFixed(0)} ms after its 201 (stream reconnected ${watcher.reconnects()} times in all, ${reconnectsBefore} during the outage)`,
    );
  } finally {
    await watcher.stop();
  }
  // The lost node back, as a standby of the new primary (pg_autoctl rewinds or re-clones it).
  const number = lost.replace("node", "");
  if (number) {
    await cluster("start-node", number);
    record(
      "f",
      `${lost} started again: back as the secondary after`,
      `${(await waitForPair(180)).toFixed(1)} s`,
    );
  }
}

// ------------------------------------------------------------ g. replica lag
/**
 * g. The standby held back on purpose (`recovery_min_apply_delay`): a visitor's
 * own booking and favorite still show at once (the pages that show them read
 * the primary, and the read-own-writes cookie sends the rest there); the time
 * just booked is still free on the replica, and a hold on it is refused by the
 * primary, so the late search never makes a booking that cannot be.
 */
async function lagPart() {
  const delay = Number(process.env.CLUSTER_LAG_SECONDS ?? 3);
  await replica.query(`alter system set recovery_min_apply_delay = '${delay}s'`);
  await replica.query("select pg_reload_conf()");
  try {
    const [client, other] = await makeClients(2);
    if (!client || !other) throw new Error("no client");
    // The account record a member completes on /account/edit before the other pages (SPEC §4).
    await db.query(
      `insert into account_profiles (user_id, name, name_kana, phone, gender, completed)
       select id, '負荷 太郎', 'フカ タロウ', '09012345678', 'unspecified', true from users where email = $1
       on conflict (user_id) do update set completed = true`,
      [client.email],
    );
    const { cookies } = await signInToken(client.email, "cluster-pass-1");
    const tally = newTally();
    const places = await targets();
    // A write first, so the replica has something to hold back: its apply delay is then in force.
    const days = [3, 4, 5, 6, 7, 8, 9].map(tokyoDate);
    const place = pick(places);
    const booked = await bookOne(tally, client, place, days);
    if (!booked) throw new Error("nothing to book");
    const answered = performance.now();
    const readPrimary =
      booked.answer.headers.get("set-cookie")?.match(/read_primary=[^;]*/)?.[0] ?? "";
    const cookie = [cookies, readPrimary].filter(Boolean).join("; ");
    const onReplica = async () =>
      (await replica.query("select 1 from bookings where id = $1", [booked.id])).rowCount ?? 0;
    record(
      "g",
      `the booking on the replica at once (apply delay ${delay} s)`,
      (await onReplica()) ? "yes" : "no, held back",
    );
    const history = await call(tally, "/account/history", { headers: { cookie } });
    record(
      "g",
      "the visitor's 予約履歴 shows it at once",
      history?.text.includes(booked.id) ? "yes" : "NO",
    );
    const { rows: named } = await db.query<{ name: string; slug: string }>(
      "select name, slug from salons where id = $1",
      [place.salonId],
    );
    const favorite = await call(tally, `/api/favorites/${place.salonId}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${client.token}` },
    });
    const favorites = await call(tally, "/account/favorite", { headers: { cookie } });
    record(
      "g",
      "a favorite just added shows on お気に入り at once",
      favorite && favorite.status < 300 && named[0] && favorites?.text.includes(named[0].name)
        ? "yes"
        : "NO",
    );
    // The search reads the replica: there the time is still free. Another visitor's hold on it:
    const stillFree = (await onReplica()) === 0;
    const hold = await call(tally, "/api/holds", {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        salonId: place.salonId,
        menuIds: [place.menuId],
        staffId: booked.held.staffId,
        start: booked.held.startsAt,
      }),
    });
    record(
      "g",
      "the same time and stylist held by another visitor while the replica still shows it free",
      `${stillFree ? "replica: free" : "replica: already taken"}; hold answered ${hold?.status} ${hold?.text.match(/"code":"([a-z_]+)"/)?.[1] ?? ""}`,
    );
    while ((await onReplica()) === 0 && performance.now() - answered < 30_000) await sleep(20);
    record(
      "g",
      "the booking reached the replica after",
      `${((performance.now() - answered) / 1000).toFixed(1)} s`,
    );
    record("g", "failed requests (no answer or 5xx)", tally.failed);
    await farBehind(tally);
  } finally {
    await replica.query("alter system reset recovery_min_apply_delay");
    await replica.query("select pg_reload_conf()");
  }
}

/** Each app server's gauge `name` from its /metrics (decision 0070), NaN when it does not answer. */
async function gauges(name: string) {
  return Promise.all(
    [1, 2, 3].map(async (n) => {
      const text = await fetch(
        `http://${process.env[`CLUSTER_METRICS_${n}`] ?? `127.0.0.1:${3730 + n}`}/metrics`,
      )
        .then((response) => response.text())
        .catch(() => "");
      return Number(text.match(new RegExp(`^${name} (\\S+)$`, "m"))?.[1] ?? Number.NaN);
    }),
  );
}

/**
 * g, second half: the standby held back further than the app servers accept
 * (REPLICA_MAX_LAG_SECONDS, 5 s by default): each server's replica monitor
 * sends the pages to the primary (gauge db_replica_in_use 0) while writes go
 * on, and back to the replica once the delay is lifted.
 */
async function farBehind(tally: Tally) {
  const delay = Number(process.env.CLUSTER_FAR_LAG_SECONDS ?? 10);
  await db.query(
    "create table if not exists cluster_test_ticks (at timestamptz not null default now())",
  );
  await replica.query(`alter system set recovery_min_apply_delay = '${delay}s'`);
  await replica.query("select pg_reload_conf()");
  const waitFor = async (value: number, seconds: number) => {
    const began = performance.now();
    while (performance.now() - began < seconds * 1000) {
      // A write now and then: lag shows only when the primary has something the replica has not.
      await db.query("insert into cluster_test_ticks default values");
      if ((await gauges("db_replica_in_use")).every((gauge) => gauge === value))
        return `${((performance.now() - began) / 1000).toFixed(1)} s`;
      await sleep(250);
    }
    return `NOT within ${seconds} s (${(await gauges("db_replica_in_use")).join(" / ")})`;
  };
  record(
    "g",
    `apply delay ${delay} s: every app server reads the primary (db_replica_in_use 0) after`,
    await waitFor(0, delay + 20),
  );
  const lag = await gauges("db_replica_lag_seconds");
  const pages = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((i) =>
      call(tally, `/salons/search?q=${encodeURIComponent("渋谷")}&page=${i}`),
    ),
  );
  record(
    "g",
    "search pages meanwhile (lag the servers saw)",
    `${pages.filter((page) => page?.status === 200).length} / ${pages.length} answered 200 (${lag.map((l) => l.toFixed(1)).join(" / ")} s)`,
  );
  await replica.query("alter system reset recovery_min_apply_delay");
  await replica.query("select pg_reload_conf()");
  record(
    "g",
    "delay lifted: every app server reads the replica again after",
    await waitFor(1, delay + 30),
  );
  await db.query("drop table if exists cluster_test_ticks");
}

// ---------------------------------------------------------- h. read scaling
/** A command on HAProxy's admin socket (e.g. to take app servers out of the pool). */
function haproxy(command: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.createConnection(`${process.env.CLUSTER_RUN ?? ".cluster"}/haproxy.sock`);
    let answer = "";
    socket.on("connect", () => socket.end(`${command}\n`));
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** CPU seconds a process and its children (living, and reaped ones through cutime) have used. */
function cpuSeconds(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(
        readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ")[1],
      );
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const own = (id: number, reaped: boolean) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      // utime, stime (fields 14, 15), cutime, cstime (16, 17), in clock ticks of 1/100 s.
      const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i] ?? 0));
      return ((utime ?? 0) + (stime ?? 0) + (reaped ? (cutime ?? 0) + (cstime ?? 0) : 0)) / 100;
    } catch {
      return 0;
    }
  };
  const walk = (id: number, top: boolean): number =>
    own(id, top) + (children.get(id) ?? []).reduce((sum, child) => sum + walk(child, false), 0);
  return walk(pid, true);
}

/** The processes whose CPU part h reports: the app servers, the two PostgreSQL nodes by role, HAProxy, this load. */
async function processGroups() {
  const run = process.env.CLUSTER_RUN ?? ".cluster";
  const pidOf = (file: string) => {
    try {
      return Number(readFileSync(file, "utf8").split("\n")[0]);
    } catch {
      return 0;
    }
  };
  const groups: Record<string, number[]> = {
    "app servers": [1, 2, 3].map((n) => pidOf(`${run}/app${n}.pid`)).filter(Boolean),
    HAProxy: [pidOf(`${run}/haproxy.pid`)].filter(Boolean),
    "load (this script)": [process.pid],
  };
  for (const node of ["node1", "node2", "primary", "replica"]) {
    const postmaster = pidOf(`${run}/pg/${node}/postmaster.pid`);
    if (!postmaster) continue;
    const port = readFileSync(`${run}/pg/${node}/postmaster.pid`, "utf8").split("\n")[3];
    const recovery = await new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    await recovery.connect();
    const { rows: role } = await recovery.query<{ r: boolean }>("select pg_is_in_recovery() as r");
    await recovery.end();
    const name = role[0]?.r ? "PostgreSQL standby" : "PostgreSQL primary";
    groups[name] = [...(groups[name] ?? []), postmaster];
  }
  return groups;
}

/**
 * h. Distinct search pages a second through the proxy, in one run: reads on
 * the primary only (the read-own-writes cookie) against primary + replica
 * (another cookie, so both pass the page cache alike), with one app server
 * (the other two in HAProxy's maintenance state) against three; the
 * configurations alternate for `rounds` rounds. Each app server's own
 * /metrics counts what it answered.
 */
async function readScaling() {
  const seconds = Number(process.env.CLUSTER_SCALE_SECONDS ?? 6);
  const rounds = Number(process.env.CLUSTER_SCALE_ROUNDS ?? 3);
  const concurrency = Number(process.env.CLUSTER_SCALE_CLIENTS ?? 16);
  const configs = [
    { name: "1 server, reads on the primary", servers: 1, cookie: "read_primary=1" },
    { name: "1 server, reads on the replica", servers: 1, cookie: "scale=1" },
    { name: "3 servers, reads on the primary", servers: 3, cookie: "read_primary=1" },
    { name: "3 servers, reads on the replica", servers: 3, cookie: "scale=1" },
  ];
  const paths = [...DISTINCT_SEARCHES, ...freeTimeSearches(tokyoDate(0))];
  let next = Math.floor(Math.random() * paths.length);
  const groups = await processGroups();
  const totals = configs.map(() => ({
    pages: 0,
    other: 0,
    failed: 0,
    seconds: 0,
    cpu: {} as Record<string, number>,
    served: [0, 0, 0],
  }));
  const served = async () =>
    Promise.all(
      [1, 2, 3].map(async (n) => {
        const text = await fetch(
          `http://${process.env[`CLUSTER_METRICS_${n}`] ?? `127.0.0.1:${3730 + n}`}/metrics`,
        )
          .then((r) => r.text())
          .catch(() => "");
        return [
          ...text.matchAll(
            /^http_requests_total\{method="GET",route="\/salons\/search",status="\d+"\} (\d+)/gm,
          ),
        ].reduce((sum, m) => sum + Number(m[1]), 0);
      }),
    );
  // Each server's code warmed (JIT, statement plans) before anything is counted.
  const warmUntil = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmUntil)
        await fetch(`${SITE}${paths[next++ % paths.length]}`, { headers: { cookie: "scale=1" } })
          .then((response) => response.arrayBuffer())
          .catch(() => {});
    }),
  );
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [index, config] of configs.entries()) {
        const state = config.servers === 1 ? "maint" : "ready";
        await haproxy(`set server app/app2 state ${state}`);
        await haproxy(`set server app/app3 state ${state}`);
        await sleep(300);
        const total = totals[index];
        if (!total) continue;
        const cpuBefore = Object.fromEntries(
          Object.entries(groups).map(([name, pids]) => [
            name,
            pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
          ]),
        );
        const servedBefore = await served();
        const began = performance.now();
        const until = began + seconds * 1000;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (performance.now() < until) {
              const path = paths[next++ % paths.length];
              try {
                // A search whose words become filters is redirected to them (issue 31): followed,
                // as a browser does, so each page counted is a page of results.
                const response = await fetch(`${SITE}${path}`, {
                  headers: { cookie: config.cookie },
                  signal: AbortSignal.timeout(30_000),
                });
                await response.arrayBuffer();
                if (response.status === 200) total.pages += 1;
                else if (response.status >= 500) total.failed += 1;
                if (response.redirected) total.other += 1;
              } catch {
                total.failed += 1;
              }
            }
          }),
        );
        total.seconds += (performance.now() - began) / 1000;
        for (const [name, pids] of Object.entries(groups))
          total.cpu[name] =
            (total.cpu[name] ?? 0) +
            pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) -
            (cpuBefore[name] ?? 0);
        const servedAfter = await served();
        total.served = total.served.map(
          (n, i) => n + (servedAfter[i] ?? 0) - (servedBefore[i] ?? 0),
        );
      }
    }
  } finally {
    await haproxy("set server app/app2 state ready");
    await haproxy("set server app/app3 state ready");
  }
  const rate = totals.map((t) => t.pages / t.seconds);
  for (const [index, config] of configs.entries()) {
    const total = totals[index];
    if (!total) continue;
    const perPage = Object.entries(total.cpu)
      .map(([name, cpu]) => `${name} ${((cpu * 1000) / Math.max(1, total.pages)).toFixed(1)}`)
      .join(", ");
    record(
      "h",
      config.name,
      `${(rate[index] ?? 0).toFixed(1)} pages/s (${total.pages} pages, ${total.other} of them after a redirect, ${total.failed} failed; app servers answered ${total.served.join(" / ")}); CPU ms a page: ${perPage}; CPU in use ${(Object.values(total.cpu).reduce((a, b) => a + b, 0) / total.seconds).toFixed(2)} cores`,
    );
  }
  const ratio = (a: number, b: number) => ((rate[a] ?? 0) / (rate[b] ?? 1)).toFixed(2);
  record(
    "h",
    "ratio 3 servers ÷ 1 (reads on the replica / on the primary)",
    `${ratio(3, 1)} / ${ratio(2, 0)}`,
  );
  record(
    "h",
    "ratio primary + replica ÷ primary only (3 servers / 1)",
    `${ratio(3, 2)} / ${ratio(1, 0)}`,
  );
}

// ------------------------------------------------------- jobs after the load
/**
 * Every booking acknowledged under load has one confirmation job: done once
 * (one claim: attempts = 1), though app servers were restarted, killed and
 * the database failed over meanwhile; and the mails it wrote, one per booking.
 */
async function jobsOnce(clients: Client[], since: Date) {
  const ids = [...acknowledgedEverywhere];
  if (ids.length === 0) return;
  const keys = ids.map((id) => `confirmed:${id}`);
  const began = performance.now();
  let state: { total: number; done: number; repeated: number } | undefined;
  // A job cut off by a failover runs again within a pass or two, or after its 30 s retry
  // delay; one whose claim committed but whose answer the failover cut waits out its lease (5 min).
  while (performance.now() - began < 360_000) {
    const { rows: counted } = await db.query<{ total: number; done: number; repeated: number }>(
      `select count(*)::int as total, count(done_at)::int as done,
              count(*) filter (where attempts > 1)::int as repeated
         from jobs where dedupe_key = any($1::text[])`,
      [keys],
    );
    state = counted[0];
    if (state && state.done === state.total) break;
    await sleep(500);
  }
  record(
    "jobs",
    "confirmation jobs of the acknowledged bookings: done / total (claimed more than once)",
    `${state?.done} / ${state?.total} (${state?.repeated}), all done ${((performance.now() - began) / 1000).toFixed(0)} s after this check began`,
  );
  // The same mail twice would be one text to one address twice (a booking's lines are its own).
  const { rows: mails } = await db.query<{ mails: number; twice: number }>(
    `select coalesce(sum(n), 0)::int as mails, count(*) filter (where n > 1)::int as twice from (
       select count(*) as n from mail_outbox
        where "to" = any($1::text[]) and created_at >= $2
          and (subject like '%ご予約が確定しました（%' or subject like '%仮予約を受け付けました%')
        group by "to", text) as each_mail`,
    [clients.map((client) => client.email), since],
  );
  record(
    "jobs",
    "customer confirmation mails written / written twice",
    `${mails[0]?.mails} (for ${ids.length} acknowledged bookings and any whose answer the clients never got) / ${mails[0]?.twice}`,
  );
}

const cluster = (...args: string[]) => run("bash", ["scripts/cluster.sh", ...args]);

async function main() {
  const ready = await fetch(`${SITE}/readyz`).catch(() => null);
  if (!ready?.ok) throw new Error(`${SITE}/readyz does not answer: start it with npm run cluster`);
  console.log(`cluster at ${SITE}`);
  const began = new Date();
  let loadClients: Client[] = [];
  if (wanted("a")) await salonDay();
  if (wanted("d")) await replicaPart();
  if (wanted("b") || wanted("c") || wanted("e") || wanted("f")) {
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
    const failover = (await monitorQuery("select 1")) !== null;
    if (!failover && (wanted("e") || wanted("f")))
      record(
        "e, f",
        "database failover",
        "skipped: the cluster runs without pg_auto_failover (CLUSTER_FAILOVER=0)",
      );
    if (failover && wanted("e")) await waitForPair(180);
    if (failover && wanted("e"))
      await underLoad("e", clients, places, async () => {
        const t = performance.now();
        await cluster("failover");
        record(
          "e",
          "pg_autoctl perform failover (standby promoted, old primary a standby again)",
          `${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      });
    if (failover && wanted("e")) await waitForPair(60);
    if (failover && wanted("f")) await unplannedFailover(clients, places);
    loadClients = clients;
  }
  if (wanted("g")) await lagPart();
  if (wanted("h")) await readScaling();
  if (loadClients.length > 0) await jobsOnce(loadClients, began);
  console.log(`\n| part | measure | value |\n| --- | --- | --- |`);
  for (const row of rows) console.log(`| ${row.part} | ${row.measure} | ${row.value} |`);
}

try {
  await main();
} finally {
  await db.end();
  await replica.end();
}
