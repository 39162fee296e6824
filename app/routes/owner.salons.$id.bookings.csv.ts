import { appContext } from "../../server/context";
import { bookingsExportResponse } from "../../server/owner/bookings-export.server";
import { requireSalonAccess } from "../../server/owner/salon-access.server";
import type { Route } from "./+types/owner.salons.$id.bookings.csv";

// Guard: requireSalonAccess with bookings.export (owner, manager, admin; a guest signs in and
// comes back; anyone else and another salon's id, the 404 screen). A resource route: the file
// of ?from=&to= (the salon's local dates), streamed; a bad or missing period, a Japanese 400.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, "bookings.export");
  return bookingsExportResponse(ctx.db, access, new URL(request.url), new Date());
}
