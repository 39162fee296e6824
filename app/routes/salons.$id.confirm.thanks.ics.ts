import { bookingIcs, requireOwnBooking } from "../../server/bookings/pages/thanks-page.server";
import { appContext } from "../../server/context";
import type { Route } from "./+types/salons.$id.confirm.thanks.ics";

/** The add-to-calendar file of the visitor's own booking. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const booking = await requireOwnBooking(request, ctx, params.id);
  const text = await bookingIcs(ctx.db, booking, ctx.config.PUBLIC_URL, new Date());
  return new Response(text, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": `attachment; filename="booking-${booking.bookingNumber}.ics"`,
      "cache-control": "private, no-store",
    },
  });
}
