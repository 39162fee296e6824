import { appContext } from "../../server/context";
import { adminDoor } from "../../server/salon-editor/salon-editor-door.server";
import {
  salonPhotosAction,
  salonPhotosLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { SalonPhotosPage } from "../components/salon-editor/salon-photos-page";
import type { Route } from "./+types/admin.salons.edit.$id.photos";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `写真 ${loaderData?.salon.name ?? ""} | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (the admin door, decision 0047). An unknown or malformed id is the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return salonPhotosLoader(context.get(appContext), request, params.id, adminDoor);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return salonPhotosAction(context.get(appContext), request, params.id, adminDoor);
}

export default function AdminSalonPhotos({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonPhotosPage {...loaderData} actionData={actionData} />;
}
