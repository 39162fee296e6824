import { appContext } from "../../server/context";
import { customerListPage } from "../../server/owner/pages/customer-pages.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { CustomerList } from "../components/owner/customer-list";
import type { Route } from "./+types/owner.salons.$id.customers";

export const meta: Route.MetaFunction = () => [
  { title: "顧客一覧 | Salon Navi サロン管理" },
  { name: "robots", content: "noindex" },
];

/**
 * What the page needs (loader): its guard uses it, and the
 * role matrix test checks it against capabilitiesOf (decision 0045).
 */
export const capability = { loader: "customers.manage" } as const satisfies OwnerRouteCapability;

// Guard: the salon's back office with customers.manage (decision 0037).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return customerListPage(ctx.db, access, new URL(request.url), new Date());
}

export default function OwnerCustomers({ loaderData }: Route.ComponentProps) {
  return <CustomerList data={loaderData} />;
}
