import { appContext } from "../../server/context";
import { couponsExportResponse } from "../../server/owner/coupons-export.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { Route } from "./+types/owner.salons.$id.coupons.csv";

/** The reports' own figures (reports.read); the role matrix test checks it (decision 0045). */
export const capability = { loader: "reports.read" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with reports.read (owner, manager, admin; a guest signs in and
// comes back; anyone else and another salon's id, the 404 screen). A resource route: the
// coupon figures (by target and by coupon) of ?from=&to= (the salon's local dates); a bad or missing period, a Japanese 400.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return couponsExportResponse(ctx.db, access, new URL(request.url));
}
