import { appContext } from "../../server/context";
import { adminDoor } from "../../server/salon-editor/salon-editor-door.server";
import {
  salonPartAction,
  salonPartLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { staffFormAction } from "../../server/salon-editor/salon-parts-forms.server";
import { staffTab } from "../../server/salon-editor/salon-staff-tab.server";
import { SalonStaffPage } from "../components/salon-editor/salon-part-pages";
import type { Route } from "./+types/admin.salons.edit.$id.staff";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のスタッフ | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (the admin door, decision 0047). ?staff=<id> opens one stylist.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, adminDoor, (salon, query) =>
    staffTab(ctx.db, salon.id, query.get("staff"), new Date()),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  return salonPartAction(ctx, request, params.id, adminDoor, "staff", staffFormAction);
}

export default function AdminSalonStaff({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonStaffPage loaderData={loaderData} actionData={actionData} />;
}
