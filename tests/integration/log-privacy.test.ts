import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import { accountProfiles, jobs, users } from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createJobWorker, enqueue } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { browser, ORIGIN } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

// What the server writes when a query fails or Better Auth speaks: our JSON
// lines only, with the SQLSTATE and constraint, and no customer's name,
// kana, phone number or address (issue 27, point 4).
const database = withTestDatabase();
const lines: string[] = [];
const log = createLogger("info", {}, (line) => lines.push(line));
const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

const customer = {
  id: "log-privacy-user",
  email: "hanako.yamada@mail.example.jp",
  name: "山田 花子",
  nameKana: "ヤマダ ハナコ",
  phone: "09087654321",
};

function expectNoPersonalData(text: string) {
  for (const value of [customer.email, customer.name, customer.nameKana, customer.phone]) {
    expect(text).not.toContain(value);
  }
}

let accounts: ReturnType<typeof createAccountServices>;
beforeAll(async () => {
  accounts = createAccountServices(
    database.db,
    loadConfig({ PUBLIC_URL: ORIGIN, TRUST_PROXY: "true", LOG_LEVEL: "info" }),
    log,
  );
  await database.db.insert(users).values({ id: customer.id, name: "", email: customer.email });
  await database.db.insert(accountProfiles).values({
    userId: customer.id,
    name: customer.name,
    nameKana: customer.nameKana,
    phone: customer.phone,
  });
});
afterAll(async () => {
  await accounts?.close();
});
afterEach(() => {
  lines.length = 0;
  vi.restoreAllMocks();
});

/** The real Hono app in front of a page that fails with the given query. */
function appFailingWith(query: () => Promise<unknown>) {
  return createHttpApp({
    config: loadConfig({ PUBLIC_URL: ORIGIN, LOG_LEVEL: "info" }),
    database,
    log,
    accounts,
    handleRequest: async () => {
      await query();
      return new Response("unreachable");
    },
  });
}

describe("a failed query in the log", () => {
  it("names the SQLSTATE, constraint and table of a unique violation, not the values", async () => {
    const app = appFailingWith(() =>
      database.db
        .insert(users)
        .values({ id: "log-privacy-2", name: customer.name, email: customer.email }),
    );
    const response = await app.request("/account/edit");
    expect(response.status).toBe(500);

    const error = parsed().find((line) => line.msg === "unhandled error");
    expect(error).toMatchObject({
      level: "error",
      errorName: "DrizzleQueryError",
      sqlState: "23505",
      constraint: "users_email_unique",
      table: "users",
      cause: { message: 'duplicate key value violates unique constraint "users_email_unique"' },
    });
    expect(String(error?.error)).toMatch(/^Failed query: insert into "users"/);
    expect(String(error?.stack)).toContain("at ");
    expectNoPersonalData(lines.join("\n"));
  });

  it("keeps a profile's name, kana and phone out (primary key violation)", async () => {
    const app = appFailingWith(() =>
      database.db.insert(accountProfiles).values({
        userId: customer.id,
        name: customer.name,
        nameKana: customer.nameKana,
        phone: customer.phone,
      }),
    );
    expect((await app.request("/account/edit")).status).toBe(500);
    expect(parsed().find((line) => line.msg === "unhandled error")).toMatchObject({
      sqlState: "23505",
      constraint: "account_profiles_pkey",
      table: "account_profiles",
    });
    expectNoPersonalData(lines.join("\n"));
  });

  it("keeps them out of a failed job's log line and its stored last error", async () => {
    await enqueue(database.db, {
      kind: "profile-copy",
      payload: {},
      runAt: new Date(0),
      dedupeKey: "log-privacy:1",
    });
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: {
        "profile-copy": async ({ tx }) => {
          await tx
            .insert(users)
            .values({ id: "log-privacy-3", name: customer.name, email: customer.email });
        },
      },
    });
    await worker.runOnce();

    const [job] = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, "log-privacy:1"));
    expect(job?.lastError).toMatch(/^Failed query: insert into "users"/);
    expectNoPersonalData(job?.lastError ?? "");
    expect(parsed().find((line) => line.msg === "job failed; will retry")).toMatchObject({
      sqlState: "23505",
      constraint: "users_email_unique",
    });
    expectNoPersonalData(lines.join("\n"));
  });
});

describe("Better Auth in the log", () => {
  it("writes a second sign-up with the same address as our JSON line, the address redacted", async () => {
    const consoleWrites = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    const app = appFailingWith(async () => {});
    const email = "taro.suzuki@mail.example.jp";
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await browser(app).request("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "secret-pass-1", name: "" }),
      });
      expect(response.status).toBe(200);
    }

    const attempt = parsed().find((line) =>
      String(line.msg).startsWith("Sign-up attempt for existing email"),
    );
    expect(attempt).toMatchObject({
      level: "info",
      source: "better-auth",
      msg: "Sign-up attempt for existing email: [email]",
    });
    expect(lines.join("\n")).not.toContain(email);
    for (const write of consoleWrites) expect(write).not.toHaveBeenCalled();
  });

  it("writes nothing of its own on the console when an endpoint refuses (its API errors)", async () => {
    const consoleWrites = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    const app = appFailingWith(async () => {});
    const refused = await browser(app).request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: customer.email, password: "wrong-pass-1" }),
    });
    expect(refused.status).toBe(401);
    const weak = await browser(app).request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "weak@mail.example.jp", password: "1", name: "" }),
    });
    expect(weak.status).toBe(400);
    for (const write of consoleWrites) expect(write).not.toHaveBeenCalled();
    expectNoPersonalData(lines.join("\n"));
  });
});
