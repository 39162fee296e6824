import type { RouteConfigEntry } from "@react-router/dev/routes";
import { expect } from "vitest";
import routes from "../../app/routes";
import type {
  OwnerRouteCapability,
  SalonCapability,
} from "../../server/salon-access/salon-access.server";

/**
 * The back office's routes as the app declares them, for the access and
 * role matrices (decisions 0037, 0045): every /owner page of app/routes.ts
 * with its module's declared `capability`, and every /api/owner operation
 * of the OpenAPI document with its `x-salon-capability`. A route added
 * later is walked without editing any test.
 */

export type OwnerPageRoute = { pattern: string; file: string };

function flatten(entries: RouteConfigEntry[], prefix = ""): OwnerPageRoute[] {
  return entries.flatMap((entry) => {
    const pattern = [prefix, entry.path ?? ""].filter(Boolean).join("/");
    return [
      ...(entry.index || entry.path !== undefined ? [{ pattern, file: entry.file }] : []),
      ...flatten(entry.children ?? [], pattern),
    ];
  });
}

/** Every /owner route of app/routes.ts (patterns without the leading slash). */
export const ownerPageRoutes = () =>
  flatten(routes).filter(({ pattern }) => pattern === "owner" || pattern.startsWith("owner/"));

/** A route pattern (`:id` or `{id}`) with real ids in its parameters. */
export function fillPattern(pattern: string, ids: Record<string, string>) {
  return pattern.replace(/[:{](\w+)}?/g, (_, name: string) => {
    const value = ids[name];
    if (value === undefined) throw new Error(`no test id for :${name} in ${pattern}`);
    return value;
  });
}

/**
 * The capability a route module declares (`export const capability`), read
 * from the module itself: the same value its guard passes to
 * requireSalonAccess. Undefined when it declares none (or none for its
 * action): the matrix reports that as a failure of its own.
 */
export async function declaredCapability(
  route: OwnerPageRoute,
): Promise<OwnerRouteCapability | undefined> {
  const module = (await import(/* @vite-ignore */ `../../app/${route.file}`)) as {
    capability?: OwnerRouteCapability;
    action?: unknown;
  };
  if (!module.capability) return undefined;
  if (module.action && !module.capability.action) return undefined;
  return module.capability;
}

export type OwnerOperation = {
  method: string;
  /** The document's path under /api, e.g. /owner/salons/{id}/today. */
  pattern: string;
  operationId: string;
  /** Undefined when the operation declares none (a failure the matrix reports). */
  capability: SalonCapability | undefined;
};

/** Every /api/owner/salons/{id} operation of the OpenAPI document, with its declared capability. */
export async function ownerOperations(app: {
  request: (path: string) => Response | Promise<Response>;
}): Promise<OwnerOperation[]> {
  const response = await app.request("/api/openapi.json");
  expect(response.status).toBe(200);
  const document = (await response.json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const operations: OwnerOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const pattern = path.replace(/^\/api/, "");
    if (!pattern.startsWith("/owner/salons/{id}")) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const capability = operation["x-salon-capability"];
      operations.push({
        method: method.toUpperCase(),
        pattern,
        operationId: String(operation.operationId ?? ""),
        capability: typeof capability === "string" ? (capability as SalonCapability) : undefined,
      });
    }
  }
  return operations;
}
