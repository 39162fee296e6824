import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import type { OwnerRouteCapability } from "../../server/salon-access/salon-access.server";
import {
  salonDetailsAction,
  salonDetailsLoader,
} from "../../server/salon-editor/salon-details-door.server";
import { ownerDoor } from "../../server/salon-editor/salon-editor-door.server";
import { SalonDetailsPage } from "../components/salon-editor/salon-details-page";
import type { Route } from "./+types/owner.salons.$id.details";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `基本情報 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
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
// Status, deletion, URL name and owners are refused here (admin only).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return salonDetailsLoader(context.get(appContext), request, params.id, ownerDoor);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return salonDetailsAction(context.get(appContext), request, params.id, ownerDoor);
}

export default function OwnerSalonDetails({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonDetailsPage loaderData={loaderData} actionData={actionData} />;
}
