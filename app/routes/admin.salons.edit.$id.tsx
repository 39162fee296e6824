import { appContext } from "../../server/context";
import {
  salonDetailsAction,
  salonDetailsLoader,
} from "../../server/salon-editor/salon-details-door.server";
import { adminDoor } from "../../server/salon-editor/salon-editor-door.server";
import { SalonDetailsPage } from "../components/salon-editor/salon-details-page";
import type { Route } from "./+types/admin.salons.edit.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}の編集 | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (the admin door, decision 0047). A malformed or
// unknown id is the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return salonDetailsLoader(context.get(appContext), request, params.id, adminDoor);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return salonDetailsAction(context.get(appContext), request, params.id, adminDoor);
}

export default function AdminSalonEdit({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonDetailsPage loaderData={loaderData} actionData={actionData} />;
}
