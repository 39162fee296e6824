import { salonPartAction, salonPartLoader } from "../../server/admin/salon-part-routes.server";
import { staffFormAction } from "../../server/admin/salon-parts-forms.server";
import { staffTab } from "../../server/admin/salon-staff-tab.server";
import { appContext } from "../../server/context";
import { formVersion, SalonPartPage } from "../components/admin/salon-part-form";
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
  return salonPartLoader(ctx, request, params.id, (salon, query) =>
    staffTab(ctx.db, salon.id, query.get("staff"), new Date()),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return salonPartAction(context.get(appContext), request, params.id, "staff", staffFormAction);
}

export default function AdminSalonStaff({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, members, menus, selected, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = `/admin/salons/edit/${salon.id}/staff`;
  return (
    <SalonPartPage salon={salon} base={base} done={done} actionData={actionData}>
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
    </SalonPartPage>
  );
}
