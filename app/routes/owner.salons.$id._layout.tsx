import { Outlet, type ShouldRevalidateFunctionArgs, useMatches } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import {
  type OwnerRouteCapability,
  ownerFrame,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { OwnerFrame, type OwnerPageHandle } from "../components/owner/owner-frame";
import type { Route } from "./+types/owner.salons.$id._layout";

export const headers = privatePageHeaders;

/**
 * The frame reads what every role may read (decision 0045). It protects
 * nothing below it: each page's loader and action still opens
 * requireSalonAccess with its own capability, since loaders run side by side
 * and an action runs without this loader.
 */
export const capability = { loader: "ledger.read" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess (a guest signs in and comes back; anyone else, or another salon's
// id, the 404 screen), then the frame once for every /owner/salons/{id} page: the salon, the
// switcher's salons and the menu the role may see.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  return ownerFrame(ctx.db, access);
}

/**
 * The frame is read again for another salon and after a form post (a new
 * name, a member's role); not when a page moves within the salon or
 * refreshes itself (the ledger's live updates, 今日's minute).
 */
export function shouldRevalidate({
  currentParams,
  nextParams,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (currentParams.id !== nextParams.id) return true;
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  return false;
}

export default function OwnerSalonLayout({ loaderData }: Route.ComponentProps) {
  const page = useMatches().at(-1)?.handle as OwnerPageHandle | undefined;
  return (
    <OwnerFrame
      salon={loaderData.salon}
      salons={loaderData.salons}
      capabilities={loaderData.capabilities}
      publicLink={page?.ownerFrame?.publicLink ?? false}
    >
      <Outlet />
    </OwnerFrame>
  );
}
