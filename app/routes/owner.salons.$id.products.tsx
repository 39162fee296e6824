import { data, redirect } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { productsPage, submitProductsForm } from "../../server/owner/products.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { ProductsView } from "../components/owner/products-page";
import type { Route } from "./+types/owner.salons.$id.products";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `店販商品・領収書 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** Like the menus (salon.edit: owner, manager, admin); the role matrix test checks it. */
export const capability = {
  loader: "salon.edit",
  action: "salon.edit",
} as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with salon.edit (a guest signs in; anyone else the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return productsPage(ctx.db, access, new URL(request.url));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.action);
  const outcome = await submitProductsForm(ctx.db, access, await request.formData(), new Date());
  if (outcome.ok)
    return redirect(`/owner/salons/${access.salon.id}/products?saved=${outcome.saved}`);
  const { status, ok: _ok, ...result } = outcome;
  return data(result, { status });
}

export default function OwnerProducts({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductsView data={loaderData} result={actionData} />;
}
