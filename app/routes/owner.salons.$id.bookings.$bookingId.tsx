import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  bookingDetailPage,
  submitBookingForm,
} from "../../server/owner/booking-detail-page.server";
import { notFound } from "../../server/routing/not-found";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { BookingDetailView } from "../components/owner/booking-detail";
import type { Route } from "./+types/owner.salons.$id.bookings.$bookingId";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `予約の詳細 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理`,
  },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "ledger.read",
  action: "bookings.act",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess (ledger.read to see, bookings.act to act; a guest
// signs in and comes back; anyone else, another salon's id or another
// salon's booking, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const page = await bookingDetailPage(
    ctx.db,
    access,
    params.bookingId,
    new URL(request.url),
    new Date(),
  );
  if (!page) throw notFound(request);
  return page;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitBookingForm(
    ctx.db,
    access,
    params.bookingId,
    await request.formData(),
    new Date(),
    { provider: ctx.payments, publicUrl: ctx.config.PUBLIC_URL, log: ctx.log },
  );
  if (outcome.kind === "done") return redirect(outcome.location);
  const { status, kind: _kind, ...result } = outcome;
  return data(result, { status });
}

export default function OwnerBookingDetail({ loaderData, actionData }: Route.ComponentProps) {
  return <BookingDetailView data={loaderData} result={actionData} />;
}
