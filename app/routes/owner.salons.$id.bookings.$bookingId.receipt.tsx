import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { receiptPage } from "../../server/owner/checkout.server";
import { notFound } from "../../server/routing/not-found";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { ReceiptView } from "../components/owner/receipt";
import type { Route } from "./+types/owner.salons.$id.bookings.$bookingId.receipt";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `領収書 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/** The 領収書 of a 会計 (decision 0079): whoever may take 会計. */
export const capability = { loader: "checkout.act" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with checkout.act (a guest signs in; anyone else the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const page = await receiptPage(ctx.db, access, params.bookingId, new URL(request.url));
  if (!page) throw notFound(request);
  return page;
}

export default function OwnerReceipt({ loaderData }: Route.ComponentProps) {
  return <ReceiptView data={loaderData} />;
}
