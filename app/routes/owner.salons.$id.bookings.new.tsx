import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  parseSalonEntryQuery,
  salonEntryPage,
  submitSalonEntryForm,
} from "../../server/owner/salon-entry-form.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import type { OwnerPageHandle } from "../components/owner/owner-frame";
import { SalonEntryForm } from "../components/owner/salon-entry-form";
import type { Route } from "./+types/owner.salons.$id.bookings.new";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `予約・ブロックの入力 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

/** The frame links to the salon's public page (published salons only). */
export const handle = { ownerFrame: { publicLink: true } } satisfies OwnerPageHandle;

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "bookings.enter",
  action: "bookings.enter",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with bookings.enter (a guest signs in and comes
// back; anyone else, or another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const query = parseSalonEntryQuery(
    new URL(request.url).searchParams,
    access.salon.timeZone,
    new Date(),
  );
  return salonEntryPage(ctx.db, access, query);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitSalonEntryForm(ctx.db, access, await request.formData(), new Date());
  if (outcome.kind === "done") return redirect(outcome.location);
  const { errors, values } = outcome;
  return data({ errors, values }, { status: outcome.status });
}

export default function OwnerBookingNew({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonEntryForm data={loaderData} result={actionData} />;
}
