import { beforeAll, describe, expect, it } from "vitest";
import { createAccountsApp } from "../support/accounts";
import { apiClient, apiUser } from "../support/api-client";
import { buildSalon } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;
beforeAll(async () => {
  env = createAccountsApp(database);
});

describe("/api/favorites", () => {
  it("adds by slug or UUID, lists newest first, removes, and is per user", async () => {
    const first = await buildSalon(database.db);
    const second = await buildSalon(database.db);
    const alice = await apiUser(env.app);
    const bob = await apiUser(env.app);

    const added = await alice.request(`/api/favorites/${first.slug}`, { method: "PUT" });
    expect(added.status).toBe(200);
    expect(added.headers.get("cache-control")).toBe("private, no-store");
    expect(await added.json()).toEqual({ data: { salonId: first.id, favorite: true } });
    expect((await alice.request(`/api/favorites/${first.slug}`, { method: "PUT" })).status).toBe(
      200,
    );
    expect((await alice.request(`/api/favorites/${second.id}`, { method: "PUT" })).status).toBe(
      200,
    );

    const list = await (await alice.request("/api/favorites")).json();
    expect(list.data.map((s: { slug: string }) => s.slug)).toEqual([second.slug, first.slug]);
    expect((await (await bob.request("/api/favorites")).json()).data).toEqual([]);

    const removed = await alice.request(`/api/favorites/${second.slug}`, { method: "DELETE" });
    expect(await removed.json()).toEqual({ data: { salonId: second.id, favorite: false } });
    const after = await (await alice.request("/api/favorites")).json();
    expect(after.data.map((s: { slug: string }) => s.slug)).toEqual([first.slug]);
  });

  it("answers 401 to guests, 404 for an unknown or unpublished salon, 400 for a malformed id", async () => {
    const draft = await buildSalon(database.db, { status: "draft" });
    const guest = apiClient(env.app);
    const user = await apiUser(env.app);

    for (const [method, path] of [
      ["GET", "/api/favorites"],
      ["PUT", `/api/favorites/${draft.slug}`],
      ["DELETE", `/api/favorites/${draft.slug}`],
      ["PUT", "/api/favorites/Bad_Slug!"],
    ] as const) {
      const response = await guest.request(path, { method });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: "unauthorized", message: "ログインしてください。" },
      });
    }

    const unknown = await user.request("/api/favorites/no-such-salon", { method: "PUT" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("salon_not_found");
    expect((await user.request(`/api/favorites/${draft.slug}`, { method: "PUT" })).status).toBe(
      404,
    );

    const malformed = await user.request("/api/favorites/Bad_Slug!", { method: "PUT" });
    expect(malformed.status).toBe(400);
    const body = await malformed.json();
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/サロンID/);
  });
});
