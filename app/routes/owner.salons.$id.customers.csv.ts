import { appContext } from "../../server/context";
import { customersCsv } from "../../server/owner/customers-export.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { Route } from "./+types/owner.salons.$id.customers.csv";

/**
 * What the page needs (loader): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = { loader: "customers.export" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with customers.export (a guest signs in and comes back; anyone
// else and another salon's id, the 404 screen). A resource route: the file, streamed.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const now = new Date();
  const body = await customersCsv(ctx.db, access, now);
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="customers-${day}.csv"`,
      "cache-control": "private, no-store",
    },
  });
}
