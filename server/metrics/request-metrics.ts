import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { matchPath, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { AppMetrics } from "./metrics.server";

/**
 * Counts and times every request under the route pattern that answered it
 * (`/salons/:id/confirm`, `/api/bookings/:id`), never the raw path: a label
 * per salon or booking would grow without end. Hono's own routes name their
 * pattern; what React Router answers (the catch-all) is named by the page
 * route the path matches, found by `pagePattern`.
 */
export function requestMetrics(
  metrics: AppMetrics,
  pagePattern: (pathname: string) => string | null = () => null,
): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    // After next(), the index of the route that responded (Hono's compose leaves it there).
    let route = routePath(c);
    if (route === "*" || route === "/*") {
      const path = c.req.path.replace(/\.data$/, "");
      route = path.startsWith("/assets/") ? "/assets/*" : (pagePattern(path) ?? "page");
    }
    metrics.observeRequest(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
  };
}

/** The page route pattern a path is answered by, from a React Router build's route table. */
export function pagePatternsOf(build: Pick<ServerBuild, "routes">) {
  const tree = routeTreeOf(build);
  const branches = rankedBranches(tree);
  // Optional segments and partial params rank in ways not copied here: React Router's own walk.
  if (branches.some((branch) => /\?|(^|\/):[\w-]+[^\w\-/]/.test(branch.path))) {
    return (pathname: string) => matchedPattern(tree, pathname);
  }
  return (pathname: string): string | null => {
    const decoded = decodePath(pathname);
    const first = decoded.split("/")[1]?.toLowerCase();
    for (const branch of branches) {
      if (branch.first !== null && branch.first !== first) continue;
      if (matchPath({ path: branch.path, end: true }, decoded)) return branch.label;
    }
    return null;
  };
}

/**
 * The pattern React Router's `matchRoutes` finds. It flattens, ranks and
 * compiles the whole route table on every call (about 0.5 ms of each page
 * request, measured under bench:search), so pagePatternsOf ranks once and
 * keeps this for the tables it does not rank itself, and for its test.
 */
export function matchedPattern(tree: RouteObject[], pathname: string): string | null {
  const matches = matchRoutes(tree, pathname);
  if (!matches) return null;
  const parts = matches.map((match) => match.route.path ?? "").filter((part) => part !== "");
  return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
}

export function routeTreeOf(build: Pick<ServerBuild, "routes">): RouteObject[] {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, path: route.path }
          : { id: route.id, path: route.path, children: childrenOf(route.id) },
      );
  return childrenOf(undefined);
}

type Branch = { path: string; score: number; label: string; first: string | null };

/**
 * Every route that can answer a path, in React Router's order: by its
 * score (flattenRoutes and computeScore in react-router's utils), ties in
 * the order of the table (its sort is stable, and siblings compare by index).
 */
function rankedBranches(tree: RouteObject[]): Branch[] {
  const branches: Branch[] = [];
  const walk = (routes: RouteObject[], parentPath: string, parentParts: string[]) => {
    for (const route of routes) {
      const relative = route.path ?? "";
      const path = `${parentPath}/${relative}`.replace(/\/{2,}/g, "/");
      const parts = relative === "" ? parentParts : [...parentParts, relative];
      if (route.children && route.children.length > 0) walk(route.children, path, parts);
      if (route.path == null && !route.index) continue;
      const label = `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
      const head = path.split("/")[1] ?? "";
      const first = head === "" || head.startsWith(":") || head === "*" ? null : head.toLowerCase();
      branches.push({ path, score: scoreOf(path, route.index === true), label, first });
    }
  };
  walk(tree, "", []);
  return branches.sort((a, b) => b.score - a.score);
}

function scoreOf(path: string, index: boolean) {
  const segments = path.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    score += /^:[\w-]+$/.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

/** As React Router decodes a path before matching it. */
function decodePath(pathname: string) {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}
