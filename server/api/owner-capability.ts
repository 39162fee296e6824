import type { SalonCapability } from "../owner/salon-access.server";

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
