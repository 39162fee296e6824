import { appContext } from "../../server/context";
import { adminDoor } from "../../server/salon-editor/salon-editor-door.server";
import { menusTab } from "../../server/salon-editor/salon-menus.server";
import {
  salonPartAction,
  salonPartLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { menuFormAction } from "../../server/salon-editor/salon-parts-forms.server";
import { SalonMenusPage } from "../components/salon-editor/salon-part-pages";
import type { Route } from "./+types/admin.salons.edit.$id.menus";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のメニュー | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (the admin door, decision 0047). ?menu=<id> edits one menu.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, adminDoor, (salon, query) =>
    menusTab(ctx.db, salon.id, query.get("menu")),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  return salonPartAction(ctx, request, params.id, adminDoor, "menus", menuFormAction);
}

export default function AdminSalonMenus({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonMenusPage loaderData={loaderData} actionData={actionData} />;
}
