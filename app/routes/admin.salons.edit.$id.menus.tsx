import { menusTab } from "../../server/admin/salon-menus.server";
import { salonPartAction, salonPartLoader } from "../../server/admin/salon-part-routes.server";
import { menuFormAction } from "../../server/admin/salon-parts-forms.server";
import { appContext } from "../../server/context";
import { MenuForm, MenuList } from "../components/admin/salon-menus-tab";
import { formVersion, SalonPartPage } from "../components/admin/salon-part-form";
import type { Route } from "./+types/admin.salons.edit.$id.menus";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のメニュー | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?menu=<id> edits one menu.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, (salon, query) =>
    menusTab(ctx.db, salon.id, query.get("menu")),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return salonPartAction(context.get(appContext), request, params.id, "menus", menuFormAction);
}

export default function AdminSalonMenus({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, menus, staff, categories, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = `/admin/salons/edit/${salon.id}/menus`;
  return (
    <SalonPartPage salon={salon} base={base} done={done} actionData={actionData}>
      <MenuList
        base={base}
        menus={menus}
        staff={staff}
        version={version}
        editingId={editing?.id ?? null}
      />
      <MenuForm
        menu={editing}
        staff={staff}
        categories={categories}
        version={version}
        actionData={actionData}
      />
    </SalonPartPage>
  );
}
