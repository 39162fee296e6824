import { describe, expect, it } from "vitest";
import { getCurrentUser } from "../../server/accounts/current-user";
import { browser, createAccountsApp } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const post = (b: ReturnType<typeof browser>, body: unknown) =>
  b.request("/api/test/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("POST /api/test/login", () => {
  it("does not exist unless E2E_LOGIN is set", async () => {
    const env = createAccountsApp(database);
    const response = await post(browser(env.app), {});
    expect(response.status).not.toBe(201);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("signs in a new, verified user with a completed profile and the asked role", async () => {
    const env = createAccountsApp(database, { E2E_LOGIN: "true" });
    for (const role of ["user", "owner", "admin"] as const) {
      const b = browser(env.app);
      const response = await post(b, { role });
      expect(response.status).toBe(201);
      const { email, password } = await response.json();
      expect(password).toEqual(expect.any(String));
      const user = await getCurrentUser(b.toRequest("/account"), {
        db: database.db,
        accounts: env.accounts,
      });
      expect(user).toMatchObject({
        email,
        role,
        emailVerified: true,
        profile: { completed: true, name: "山田 花子" },
      });
    }
  });

  it("answers 400 in Japanese for an unknown role", async () => {
    const env = createAccountsApp(database, { E2E_LOGIN: "true" });
    const response = await post(browser(env.app), { role: "root" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("invalid-input");
  });
});
