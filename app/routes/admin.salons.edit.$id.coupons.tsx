import { couponsTab } from "../../server/admin/salon-coupons.server";
import { adminDoor } from "../../server/admin/salon-editor-door.server";
import { salonPartAction, salonPartLoader } from "../../server/admin/salon-part-routes.server";
import { couponFormAction } from "../../server/admin/salon-parts-forms.server";
import { appContext } from "../../server/context";
import { SalonCouponsPage } from "../components/admin/salon-part-pages";
import type { Route } from "./+types/admin.salons.edit.$id.coupons";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}のクーポン | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (the admin door, decision 0047). ?coupon=<id> edits one coupon.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  return salonPartLoader(ctx, request, params.id, adminDoor, (salon, query) =>
    couponsTab(ctx.db, salon.id, query.get("coupon"), new Date()),
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  return salonPartAction(ctx, request, params.id, adminDoor, "coupons", couponFormAction);
}

export default function AdminSalonCoupons({ loaderData, actionData }: Route.ComponentProps) {
  return <SalonCouponsPage loaderData={loaderData} actionData={actionData} />;
}
