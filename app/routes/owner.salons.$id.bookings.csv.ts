import { appContext } from "../../server/context";
import { bookingsExportResponse } from "../../server/owner/bookings-export.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { Route } from "./+types/owner.salons.$id.bookings.csv";

/**
 * What the page needs (loader): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = { loader: "bookings.export" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with bookings.export (owner, manager, admin; a guest signs in and
// comes back; anyone else and another salon's id, the 404 screen). A resource route: the file
// of ?from=&to= (the salon's local dates), streamed; a bad or missing period, a Japanese 400.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return bookingsExportResponse(ctx.db, access, new URL(request.url), new Date());
}
