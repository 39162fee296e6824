import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { matchedPattern, pagePatternsOf, routeTreeOf } from "./request-metrics";

type BuildRoutes = Pick<ServerBuild, "routes">;

/** The routes as the server build lists them: the root layout, then app/routes.ts under it. */
function buildOf(entries: RouteConfigEntry[]): BuildRoutes {
  const table: Record<string, { id: string; parentId?: string; path?: string; index?: boolean }> = {
    root: { id: "root", path: "" },
  };
  const add = (list: RouteConfigEntry[], parentId: string) =>
    list.forEach((entry, i) => {
      const id = entry.id ?? `${parentId}/${entry.file}#${i}`;
      table[id] = { id, parentId, path: entry.path, index: entry.index };
      if (entry.children) add(entry.children, id);
    });
  add(entries, "root");
  return { routes: table } as unknown as BuildRoutes;
}

/** A path each pattern answers (params filled in), and near misses around it. */
function pathsFor(build: BuildRoutes): string[] {
  const paths = new Set(["/", "/nowhere", "/salons/", "/SALONS/search", "/a/b/c/d/e", "/%E0%A4%A"]);
  const tree = routeTreeOf(build);
  const walk = (list: ReturnType<typeof routeTreeOf>, parent: string) => {
    for (const route of list) {
      const full = `${parent}/${route.path ?? ""}`.replace(/\/{2,}/g, "/");
      const filled = full.replace(/:[\w-]+/g, "x-1").replace(/\*$/, "a/b");
      paths.add(filled);
      paths.add(`${filled}/extra`);
      paths.add(filled.replace(/\/$/, "") || "/");
      paths.add(encodeURI(full.replace(/:[\w-]+/g, "サロン")));
      if (route.children) walk(route.children, full);
    }
  };
  walk(tree, "");
  return [...paths];
}

describe("pagePatternsOf", () => {
  it("names every path of the app's route table as React Router's matchRoutes does", () => {
    const build = buildOf(routes);
    const tree = routeTreeOf(build);
    const pattern = pagePatternsOf(build);
    const paths = pathsFor(build);
    expect(paths.length).toBeGreaterThan(200);
    for (const path of paths)
      expect([path, pattern(path)]).toEqual([path, matchedPattern(tree, path)]);
  });

  it("ranks a static segment over a param and a param over a splat, whatever the order", () => {
    const build = buildOf([
      { path: "*", file: "splat.tsx" },
      { path: "salons/:id", file: "salon.tsx", children: [{ index: true, file: "top.tsx" }] },
      { path: "salons/search", file: "search.tsx" },
      { path: "salons/:id/reviews", file: "reviews.tsx" },
    ]);
    const pattern = pagePatternsOf(build);
    expect(pattern("/salons/search")).toBe("/salons/search");
    expect(pattern("/salons/abc")).toBe("/salons/:id");
    expect(pattern("/salons/abc/reviews")).toBe("/salons/:id/reviews");
    expect(pattern("/elsewhere/deep")).toBe("/*");
  });

  it("falls back to React Router's own walk for optional segments", () => {
    const build = buildOf([{ path: ":lang?/about", file: "about.tsx" }]);
    const pattern = pagePatternsOf(build);
    expect(pattern("/en/about")).toBe("/:lang?/about");
    expect(pattern("/about")).toBe("/:lang?/about");
  });
});
