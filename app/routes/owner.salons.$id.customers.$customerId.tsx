import { data, redirect } from "react-router";
import { appContext } from "../../server/context";
import { submitCustomerForm } from "../../server/owner/customer-forms.server";
import { customerDetailPage } from "../../server/owner/pages/customer-pages.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { CustomerDetailView } from "../components/owner/customer-detail";
import type { Route } from "./+types/owner.salons.$id.customers.$customerId";

export const meta: Route.MetaFunction = () => [
  { title: "顧客カルテ | Salon Navi サロン管理" },
  { name: "robots", content: "noindex" },
];

/**
 * What the page needs (loader) and its form posts (action): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "customers.manage",
  action: "customers.manage",
} as const satisfies OwnerRouteCapability;

// Guard: the salon's back office with customers.manage (decision 0037).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return customerDetailPage(ctx.db, access, params.customerId, new URL(request.url), new Date());
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitCustomerForm(
    ctx.db,
    access.salon.id,
    params.customerId,
    await request.formData(),
    new Date(),
  );
  if (outcome.kind === "refused") return data(outcome, { status: outcome.status });
  return redirect(
    `/owner/salons/${access.salon.id}/customers/${params.customerId}?done=${outcome.intent}`,
  );
}

export default function OwnerCustomer({ loaderData, actionData }: Route.ComponentProps) {
  return <CustomerDetailView data={loaderData} refused={actionData} />;
}
