import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { findSalonForEditor } from "../../server/admin/salon-editor.server";
import { salonTimeZone } from "../../server/admin/salon-parts.server";
import { staffFormAction } from "../../server/admin/salon-parts-forms.server";
import { staffTab } from "../../server/admin/salon-staff.server";
import { appContext } from "../../server/context";
import { AdminFrame } from "../components/admin/admin-frame";
import { SalonEditorTabs } from "../components/admin/salon-editor-tabs";
import {
  ConflictReload,
  DoneNotice,
  formVersion,
  ListErrors,
  PublicPageLink,
  partLocation,
} from "../components/admin/salon-part-form";
import {
  ExceptionSection,
  ScheduleSection,
  StaffForm,
  StaffList,
} from "../components/admin/salon-staff-tab";
import type { Route } from "./+types/admin.salons.edit.$id.staff";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のスタッフ | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?staff=<id> opens one stylist.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const url = new URL(request.url);
  const tab = await staffTab(ctx.db, salon.id, url.searchParams.get("staff"), new Date());
  return { salon, ...tab, done: url.searchParams.get("done") };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const form = await request.formData();
  const result = await staffFormAction(ctx.db, { id: salon.id, timeZone }, form, admin, new Date());
  if (result.ok) return redirect(partLocation(`/admin/salons/edit/${salon.id}/staff`, result));
  return data(result, { status: result.status });
}

export default function AdminSalonStaff({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, members, menus, selected, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = `/admin/salons/edit/${salon.id}/staff`;
  return (
    <AdminFrame title={`${salon.name}の編集`} actions={<PublicPageLink salon={salon} />}>
      <SalonEditorTabs salonId={salon.id} salonName={salon.name} />
      <DoneNotice done={done} />
      <ListErrors actionData={actionData} />
      <ConflictReload actionData={actionData} href={`/admin/salons/edit/${salon.id}/staff`} />
      <StaffList
        base={base}
        members={members}
        version={version}
        selectedId={selected?.id ?? null}
      />
      <StaffForm member={selected} menus={menus} version={version} actionData={actionData} />
      {selected ? (
        <>
          {selected.upcomingBookings > 0 && !selected.active ? (
            <p className="rounded-lg bg-brand-50 p-4">
              退職中ですが、今後の予約が{selected.upcomingBookings}
              件残っています。予約の担当はそのままです。
            </p>
          ) : null}
          <ScheduleSection member={selected} version={version} actionData={actionData} />
          <ExceptionSection member={selected} version={version} actionData={actionData} />
        </>
      ) : null}
    </AdminFrame>
  );
}
