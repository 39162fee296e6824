import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { findSalonForEditor } from "../../server/admin/salon-editor.server";
import { menusTab } from "../../server/admin/salon-menus.server";
import { salonTimeZone } from "../../server/admin/salon-parts.server";
import { menuFormAction } from "../../server/admin/salon-parts-forms.server";
import { appContext } from "../../server/context";
import { AdminFrame } from "../components/admin/admin-frame";
import { SalonEditorTabs } from "../components/admin/salon-editor-tabs";
import { MenuForm, MenuList } from "../components/admin/salon-menus-tab";
import {
  ConflictReload,
  DoneNotice,
  formVersion,
  ListErrors,
  PublicPageLink,
  partLocation,
} from "../components/admin/salon-part-form";
import type { Route } from "./+types/admin.salons.edit.$id.menus";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のメニュー | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?menu=<id> edits one menu.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const url = new URL(request.url);
  const tab = await menusTab(ctx.db, salon.id);
  const editing = tab.menus.find((menu) => menu.id === url.searchParams.get("menu")) ?? null;
  return { salon, ...tab, editing, done: url.searchParams.get("done") };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const form = await request.formData();
  const result = await menuFormAction(ctx.db, { id: salon.id, timeZone }, form, admin, new Date());
  if (result.ok) return redirect(partLocation(`/admin/salons/edit/${salon.id}/menus`, result));
  return data(result, { status: result.status });
}

export default function AdminSalonMenus({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, menus, staff, categories, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  return (
    <AdminFrame title={`${salon.name}の編集`} actions={<PublicPageLink salon={salon} />}>
      <SalonEditorTabs salonId={salon.id} salonName={salon.name} />
      <DoneNotice done={done} />
      <ListErrors actionData={actionData} />
      <ConflictReload actionData={actionData} href={`/admin/salons/edit/${salon.id}/menus`} />
      <MenuList
        base={`/admin/salons/edit/${salon.id}/menus`}
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
    </AdminFrame>
  );
}
