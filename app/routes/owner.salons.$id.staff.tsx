import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import type { OwnerRouteCapability } from "../../server/salon-access/salon-access.server";
import { ownerDoor } from "../../server/salon-editor/salon-editor-door.server";
import {
  salonPartAction,
  salonPartLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { staffFormAction } from "../../server/salon-editor/salon-parts-forms.server";
import { staffTab } from "../../server/salon-editor/salon-staff-tab.server";
import { SalonStaffPage } from "../components/salon-editor/salon-part-pages";
import type { Route } from "./+types/owner.salons.$id.staff";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `スタッフ | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader) and its form posts (action): the role matrix test checks it
 * against capabilitiesOf (decision 0045).
 */
export const capability = {
  loader: "salon.edit",
  action: "salon.edit",
} as const satisfies OwnerRouteCapability;

// Guard: the owner door of the salon editor (decision 0047), requireSalonAccess with
// salon.edit: the owner, a manager, an admin; anyone else and another salon's id, the 404 screen.
// ?staff=<id> opens one stylist.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, ownerDoor, (salon, query) =>
    staffTab(ctx.db, salon.id, query.get("staff"), new Date()),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  return salonPartAction(ctx, request, params.id, ownerDoor, "staff", staffFormAction);
}

export default function OwnerSalonStaff({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonStaffPage loaderData={loaderData} actionData={actionData} />;
}
