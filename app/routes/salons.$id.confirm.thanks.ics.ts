import { requireLogin } from "../../server/accounts/guards";
import { bookingIcs, ownBookingAt } from "../../server/bookings/thanks-page.server";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { notFound } from "../../server/routing/not-found";
import type { Route } from "./+types/salons.$id.confirm.thanks.ics";

/** The add-to-calendar file of the visitor's own booking. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const bookingId = new URL(request.url).searchParams.get("booking") ?? "";
  try {
    const booking = await ownBookingAt(ctx.db, {
      salonSlug: params.id,
      bookingId,
      userId: user.id,
    });
    const text = await bookingIcs(ctx.db, booking, ctx.config.PUBLIC_URL, new Date());
    return new Response(text, {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": `attachment; filename="booking-${booking.bookingNumber}.ics"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw notFound(request);
    throw error;
  }
}
