import { beforeAll, describe, expect, it } from "vitest";
import * as favoriteRoute from "../../app/routes/account.favorite";
import * as areaRoute from "../../app/routes/area.$id";
import * as homeRoute from "../../app/routes/home";
import * as salonRoute from "../../app/routes/salons.$id";
import * as salonLayout from "../../app/routes/salons.$id._layout";
import * as featureRoute from "../../app/routes/salons.feature.$param";
import * as recommendRoute from "../../app/routes/salons.recommend.$param";
import * as searchRoute from "../../app/routes/salons.search";
import * as staffRoute from "../../app/routes/salons.staffs.$param";
import { cacheKey } from "../../server/http/page-cache";
import { browser } from "../support/accounts";
import { buildArea, buildFeature, buildSalon, buildStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(async () => {
  env = createRouteApp(database, [
    { path: "/", module: homeRoute },
    { path: "/area/:id", module: areaRoute },
    { path: "/salons/search", module: searchRoute },
    { path: "/salons/staffs/:param", module: staffRoute },
    { path: "/salons/feature/:param", module: featureRoute },
    { path: "/salons/recommend/:param", module: recommendRoute },
    { path: "/salons/:id", module: salonRoute, layout: salonLayout },
    { path: "/account/favorite", module: favoriteRoute },
  ]);
  const { db } = database;
  const area = await buildArea(db, { slug: "heart-area", name: "ハート町" });
  const liked = await buildSalon(db, { slug: "heart-liked", areaId: area.id, reviewCount: 90 });
  const other = await buildSalon(db, { slug: "heart-other", areaId: area.id, reviewCount: 80 });
  await buildStaff(db, liked.id, { slug: "heart-stylist" });
  await buildFeature(db, [liked.id, other.id], { slug: "heart-feature", name: "ハート特集" });
});

/** Every page that shows salon cards (or the salon page's heart), and the salons it lists. */
const pages = [
  "/",
  "/area/heart-area",
  "/salons/search?area=heart-area",
  "/salons/staffs/heart-stylist",
  "/salons/feature/heart-feature",
  "/salons/recommend/heart-area",
  "/salons/heart-liked",
];

async function favoritesOn(b: ReturnType<typeof browser>, path: string) {
  const response = await b.request(path);
  expect(response.status, path).toBe(200);
  // The salon page's heart is its frame's, read by the layout route.
  const body = await response.json();
  return (body.layoutData ?? body.loaderData).favorites as string[] | null;
}

describe("the hearts on salon cards", () => {
  it("are sign-in links (null) for a guest, also with the display-preference cookies", async () => {
    const guest = browser(env.app);
    guest.jar.store(new Headers({ "set-cookie": "theme=dark; Path=/" }));
    for (const path of pages) expect(await favoritesOn(guest, path), path).toBeNull();
  });

  it("show a member's own favorites among the listed salons, on every page", async () => {
    const { b } = await signedInMember(database, env, "hearts");
    for (const path of pages) expect(await favoritesOn(b, path), path).toEqual([]);
    const added = await b.request(
      "/account/favorite",
      postForm({ intent: "add", salon: "heart-liked", redirect: "/area/heart-area" }),
    );
    expect(added.headers.get("location")).toBe("/area/heart-area");
    for (const path of pages) expect(await favoritesOn(b, path), path).toEqual(["heart-liked"]);
    // Another member's heart is their own.
    const { b: someoneElse } = await signedInMember(database, env, "hearts-other");
    expect(await favoritesOn(someoneElse, "/area/heart-area")).toEqual([]);
  });

  it("are never personal on a request the page micro-cache may share", async () => {
    const { b } = await signedInMember(database, env, "hearts-cache");
    await b.request("/account/favorite", postForm({ intent: "add", salon: "heart-other" }));
    // The member's own request bypasses the cache (its session cookie), so it is personal.
    expect(cacheKey(b.toRequest("/area/heart-area"))).toBeNull();
    expect(await favoritesOn(b, "/area/heart-area")).toEqual(["heart-other"]);
    // The same URL without the session cookie is the shared, anonymous page.
    const anonymous = browser(env.app);
    expect(cacheKey(anonymous.toRequest("/area/heart-area"))).not.toBeNull();
    expect(await favoritesOn(anonymous, "/area/heart-area")).toBeNull();
  });
});
