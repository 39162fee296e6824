import { beforeAll, describe, expect, it } from "vitest";
import * as favoriteRoute from "../../app/routes/account.favorite";
import { requireLogin } from "../../server/accounts/guards";
import { signUpWithPassword } from "../../server/accounts/identity";
import { saveProfile } from "../../server/accounts/profile";
import { favoriteSlugs, listFavorites } from "../../server/favorites/favorites.server";
import { browser, lastMailLink, uniqueEmail } from "../support/accounts";
import { buildSalon } from "../support/builders";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(async () => {
  env = createRouteApp(database, [{ path: "/account/favorite", module: favoriteRoute }]);
  await buildSalon(database.db, { slug: "fav-one", name: "Salon ONE" });
  await buildSalon(database.db, { slug: "fav-two", name: "Salon TWO" });
  await buildSalon(database.db, { slug: "fav-draft", status: "draft" });
});

/** A verified user with a completed profile, signed in. */
async function member() {
  const b = browser(env.app);
  const email = uniqueEmail("fav");
  b.keep(
    await signUpWithPassword(env.accounts, { email, password: "secret1" }, b.toRequest("/signup")),
  );
  await b.request(await lastMailLink(database.db, email));
  const user = await requireLogin(b.toRequest("/"), { db: database.db, accounts: env.accounts });
  await saveProfile(database.db, user.id, {
    name: "山田 花子",
    nameKana: "ヤマダ ハナコ",
    phone: "09012345678",
    gender: "female",
    birthDate: null,
  });
  return { b, userId: user.id };
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

describe("favorites (/account/favorite)", () => {
  it("sends a guest to sign in and back, for the page and the toggle", async () => {
    const guest = browser(env.app);
    const page = await guest.request("/account/favorite");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/signin?redirect=%2Faccount%2Ffavorite");
    const toggle = await guest.request(
      "/account/favorite",
      form({ intent: "add", salon: "fav-one", redirect: "/salons/fav-one" }),
    );
    expect(toggle.status).toBe(302);
    expect(toggle.headers.get("location")).toMatch(/^\/signin\?redirect=/);
  });

  it("adds without JavaScript (back to the page), twice is once, lists and removes", async () => {
    const { b, userId } = await member();
    const added = await b.request(
      "/account/favorite",
      form({ intent: "add", salon: "fav-one", redirect: "/salons/fav-one" }),
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe("/salons/fav-one");
    await b.request("/account/favorite", form({ intent: "add", salon: "fav-one", stay: "1" }));
    await b.request("/account/favorite", form({ intent: "add", salon: "fav-two", stay: "1" }));
    const list = await (await b.request("/account/favorite")).json();
    expect(list.loaderData.salons.map((s: { slug: string }) => s.slug).sort()).toEqual([
      "fav-one",
      "fav-two",
    ]);
    const removed = await b.request(
      "/account/favorite",
      form({ intent: "remove", salon: "fav-one", stay: "1" }),
    );
    expect(removed.status).toBe(200);
    expect((await removed.json()).actionData).toEqual({ favorite: false });
    expect((await listFavorites(database.db, userId)).map((s) => s.slug)).toEqual(["fav-two"]);
    expect(await favoriteSlugs(database.db, userId, ["fav-one", "fav-two"])).toEqual(
      new Set(["fav-two"]),
    );
  });

  it("never follows a redirect off the site", async () => {
    const { b } = await member();
    const response = await b.request(
      "/account/favorite",
      form({ intent: "add", salon: "fav-one", redirect: "https://evil.example/" }),
    );
    expect(response.headers.get("location")).toBe("/account/favorite");
  });

  it("answers bad input with a 4xx and a Japanese message", async () => {
    const { b } = await member();
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: "add", salon: "no-such-salon" }, 404, "サロンが見つかりません。"],
      [{ intent: "add", salon: "fav-draft" }, 404, "サロンが見つかりません。"],
      [{ intent: "add", salon: "../../etc" }, 404, "サロンが見つかりません。"],
      [{ intent: "delete", salon: "fav-one" }, 400, "操作が正しくありません。"],
      [{ intent: "add" }, 400, "サロンを指定してください。"],
    ];
    for (const [fields, status, message] of cases) {
      const response = await b.request("/account/favorite", form(fields));
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect((await response.json()).actionData.error).toBe(message);
    }
  });
});
