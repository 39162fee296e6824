import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
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
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, path: route.path }
          : { id: route.id, path: route.path, children: childrenOf(route.id) },
      );
  const tree = childrenOf(undefined);
  return (pathname: string): string | null => {
    const matches = matchRoutes(tree, pathname);
    if (!matches) return null;
    const parts = matches.map((match) => match.route.path ?? "").filter((part) => part !== "");
    return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
  };
}
