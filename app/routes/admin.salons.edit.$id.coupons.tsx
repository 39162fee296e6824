import { couponsTab } from "../../server/admin/salon-coupons.server";
import { salonPartAction, salonPartLoader } from "../../server/admin/salon-part-routes.server";
import { couponFormAction } from "../../server/admin/salon-parts-forms.server";
import { appContext } from "../../server/context";
import { CouponForm, CouponList } from "../components/admin/salon-coupons-tab";
import { formVersion, SalonPartPage } from "../components/admin/salon-part-form";
import type { Route } from "./+types/admin.salons.edit.$id.coupons";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のクーポン | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?coupon=<id> edits one coupon.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, (salon, query) =>
    couponsTab(ctx.db, salon.id, query.get("coupon"), new Date()),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return salonPartAction(context.get(appContext), request, params.id, "coupons", couponFormAction);
}

export default function AdminSalonCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, coupons, menus, today, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = `/admin/salons/edit/${salon.id}/coupons`;
  return (
    <SalonPartPage salon={salon} base={base} done={done} actionData={actionData}>
      <CouponList
        base={base}
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
    </SalonPartPage>
  );
}
