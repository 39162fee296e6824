import { appContext } from "../../server/context";
import { receiptPdfResponse } from "../../server/owner/receipt-pdf.server";
import { notFound } from "../../server/routing/not-found";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { Route } from "./+types/owner.salons.$id.bookings.$bookingId.receipt[.pdf]";

/** The 領収書 as a PDF (decision 0083): whoever may open the receipt page (checkout.act). */
export const capability = { loader: "checkout.act" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with checkout.act, as the receipt page (a guest signs in; anyone
// else or another salon's booking: the 404 screen; before the 会計: the receipt page, which
// says 会計未登録). A resource route.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const response = await receiptPdfResponse(
    ctx.db,
    access,
    params.bookingId,
    new URL(request.url),
    new Date(),
  );
  if (!response) throw notFound(request);
  return response;
}
