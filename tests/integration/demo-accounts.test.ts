import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getCurrentUser } from "../../server/accounts/current-user";
import {
  DEMO_PASSWORD,
  demoAccounts,
  presentDemoAccounts,
  seedDemoAccounts,
} from "../../server/accounts/demo-accounts";
import { loadConfig } from "../../server/config";
import { mailOutbox, salonOwners, salons, users } from "../../server/db/schema";
import { seedDatabase } from "../../server/db/seed/seed";
import { browser, createAccountsApp } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;
let firstRun: Awaited<ReturnType<typeof seedDemoAccounts>>;
let productionRun: Awaited<ReturnType<typeof seedDemoAccounts>>;

beforeAll(async () => {
  env = createAccountsApp(database);
  const production = loadConfig({
    NODE_ENV: "production",
    BETTER_AUTH_SECRET: "a-production-secret-of-at-least-32-characters",
  });
  await seedDatabase(database.db, { salonCount: 3 });
  productionRun = await seedDemoAccounts(database.db, env.accounts, production);
  firstRun = await seedDemoAccounts(database.db, env.accounts, env.config);
});

describe("demo accounts", () => {
  it("are never created in production", () => {
    expect(productionRun).toEqual({ created: [], skipped: true });
  });

  it("are all created outside production", async () => {
    expect(firstRun.created).toEqual(demoAccounts.map((account) => account.email));
    expect(await presentDemoAccounts(database.db)).toEqual(demoAccounts);
  });

  it("each sign in with the printed password, verified, with a completed profile and its role", async () => {
    for (const account of demoAccounts) {
      const b = browser(env.app);
      const response = await b.request("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: account.email, password: DEMO_PASSWORD }),
      });
      expect(response.status, account.email).toBe(200);
      const user = await getCurrentUser(b.toRequest("/account"), {
        db: database.db,
        accounts: env.accounts,
      });
      expect(user).toMatchObject({
        email: account.email,
        emailVerified: true,
        role: account.role,
        profile: { completed: true, name: account.profile.name },
      });
    }
    // Made without the sign-up flow: no verification mail waits in the outbox.
    expect(await database.db.$count(mailOutbox)).toBe(0);
  });

  it("link the owner to the three published salons of the seed, and a second run changes nothing", async () => {
    const owned = await database.db
      .select({ status: salons.status })
      .from(salonOwners)
      .innerJoin(users, eq(users.id, salonOwners.userId))
      .innerJoin(salons, eq(salons.id, salonOwners.salonId))
      .where(eq(users.email, "demo-owner@example.jp"));
    // The demo owner runs three salons (decision 0043); the seed here has exactly three.
    expect(owned).toEqual([
      { status: "published" },
      { status: "published" },
      { status: "published" },
    ]);

    const usersBefore = await database.db.$count(users);
    expect(await seedDemoAccounts(database.db, env.accounts, env.config)).toEqual({
      created: [],
      skipped: false,
    });
    expect(await database.db.$count(users)).toBe(usersBefore);
    expect(await database.db.$count(salonOwners)).toBe(3);
  });
});
