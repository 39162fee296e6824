import { requireSalonAccessApi, type SalonCapability } from "../salon-access/salon-access.server";
import type { BookingApiApp } from "./api-deps";

/**
 * The capability an /api/owner operation needs (decision 0045), declared in
 * its OpenAPI operation as `x-salon-capability` so the document says which
 * roles may call it, its handler's guard uses the same value, and the role
 * matrix test checks it against capabilitiesOf. Spread it into createRoute:
 * `createRoute({ ...needs("ledger.read"), method: "get", … })`, then
 * `requireSalonAccessApi(request, deps, id, route[CAPABILITY])`.
 */
export const CAPABILITY = "x-salon-capability";

export function needs<C extends SalonCapability>(capability: C) {
  return { [CAPABILITY]: capability } as { readonly "x-salon-capability": C };
}

type GuardDeps = Parameters<typeof requireSalonAccessApi>[1];

/**
 * The app as the owner operations register on it: each operation that
 * declares its capability gets that guard in front of its validators, so a
 * role without it gets the 404 before the body is even read (not a 400 that
 * tells it how to call the operation). The handlers still ask for the
 * access they use with the same value.
 */
export function guardedByCapability(app: BookingApiApp, deps: GuardDeps): BookingApiApp {
  return new Proxy(app, {
    get(target, property, receiver) {
      if (property !== "openapi") return Reflect.get(target, property, receiver);
      const openapi = target.openapi.bind(target) as (...args: unknown[]) => unknown;
      return (
        route: { method: string; path: string; [CAPABILITY]?: SalonCapability },
        ...rest: unknown[]
      ) => {
        const capability = route[CAPABILITY];
        if (capability) {
          const path = route.path.replace(/\{(\w+)\}/g, ":$1");
          target.on(route.method.toUpperCase(), path, async (c, next) => {
            await requireSalonAccessApi(c.req.raw, deps, c.req.param("id") ?? "", capability);
            await next();
          });
        }
        return openapi(route, ...rest);
      };
    },
  });
}
