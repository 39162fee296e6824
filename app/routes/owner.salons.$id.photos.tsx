import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import type { OwnerRouteCapability } from "../../server/salon-access/salon-access.server";
import { ownerDoor } from "../../server/salon-editor/salon-editor-door.server";
import {
  salonPhotosAction,
  salonPhotosLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { SalonPhotosPage } from "../components/salon-editor/salon-photos-page";
import type { Route } from "./+types/owner.salons.$id.photos";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `写真 | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
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
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return salonPhotosLoader(context.get(appContext), request, params.id, ownerDoor);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return salonPhotosAction(context.get(appContext), request, params.id, ownerDoor);
}

export default function OwnerSalonPhotos({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonPhotosPage {...loaderData} actionData={actionData} />;
}
