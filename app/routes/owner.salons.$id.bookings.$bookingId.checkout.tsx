import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { NotFoundError } from "../../server/errors/domain-error";
import { checkoutPage, submitCheckout } from "../../server/owner/checkout.server";
import { notFound } from "../../server/routing/not-found";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { CheckoutView } from "../components/owner/checkout-page";
import type { Route } from "./+types/owner.salons.$id.bookings.$bookingId.checkout";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `会計 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * 会計 (decision 0079): owner, manager, reception, admin; the role matrix test checks it.
 * Its 取消 (intent void, decision 0085) is checked again inside: checkout.void.
 */
export const capability = {
  loader: "checkout.act",
  action: "checkout.act",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with checkout.act (a guest signs in and comes back; anyone else,
// another salon's id or booking, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const page = await checkoutPage(
    ctx.db,
    access,
    params.bookingId,
    new Date(),
    new URL(request.url),
  );
  if (!page) throw notFound(request);
  return page;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const form = await request.formData();
  let outcome: Awaited<ReturnType<typeof submitCheckout>>;
  try {
    outcome = await submitCheckout(ctx.db, access, params.bookingId, form, new Date());
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound(request);
    throw error;
  }
  if (outcome.kind === "done") return redirect(outcome.location);
  const { status, kind: _kind, ...result } = outcome;
  return data(result, { status });
}

export default function OwnerCheckout({ loaderData, actionData }: Route.ComponentProps) {
  return <CheckoutView data={loaderData} result={actionData} />;
}
