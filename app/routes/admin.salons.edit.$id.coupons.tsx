import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { couponsTab } from "../../server/admin/salon-coupons.server";
import { findSalonForEditor } from "../../server/admin/salon-editor.server";
import { salonTimeZone } from "../../server/admin/salon-parts.server";
import { couponFormAction } from "../../server/admin/salon-parts-forms.server";
import { appContext } from "../../server/context";
import { AdminFrame } from "../components/admin/admin-frame";
import { CouponForm, CouponList } from "../components/admin/salon-coupons-tab";
import { SalonEditorTabs } from "../components/admin/salon-editor-tabs";
import {
  ConflictReload,
  DoneNotice,
  formVersion,
  ListErrors,
  PublicPageLink,
  partLocation,
} from "../components/admin/salon-part-form";
import type { Route } from "./+types/admin.salons.edit.$id.coupons";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のクーポン | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?coupon=<id> edits one coupon.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const url = new URL(request.url);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const tab = await couponsTab(ctx.db, salon.id, timeZone, new Date());
  const editing =
    tab.coupons.find((coupon) => coupon.id === url.searchParams.get("coupon")) ?? null;
  return { salon, ...tab, editing, done: url.searchParams.get("done") };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const timeZone = await salonTimeZone(ctx.db, salon.id);
  const form = await request.formData();
  const result = await couponFormAction(
    ctx.db,
    { id: salon.id, timeZone },
    form,
    admin,
    new Date(),
  );
  if (result.ok) return redirect(partLocation(`/admin/salons/edit/${salon.id}/coupons`, result));
  return data(result, { status: result.status });
}

export default function AdminSalonCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, coupons, menus, today, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  return (
    <AdminFrame title={`${salon.name}の編集`} actions={<PublicPageLink salon={salon} />}>
      <SalonEditorTabs salonId={salon.id} salonName={salon.name} />
      <DoneNotice done={done} />
      <ListErrors actionData={actionData} />
      <ConflictReload actionData={actionData} href={`/admin/salons/edit/${salon.id}/coupons`} />
      <CouponList
        base={`/admin/salons/edit/${salon.id}/coupons`}
        coupons={coupons}
        menus={menus}
        version={version}
        editingId={editing?.id ?? null}
      />
      <CouponForm
        coupon={editing}
        menus={menus}
        today={today}
        version={version}
        actionData={actionData}
      />
    </AdminFrame>
  );
}
