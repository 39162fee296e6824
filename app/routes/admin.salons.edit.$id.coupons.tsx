import { appContext } from "../../server/context";
import { couponsTab } from "../../server/salon-editor/salon-coupons.server";
import { adminDoor } from "../../server/salon-editor/salon-editor-door.server";
import {
  salonPartAction,
  salonPartLoader,
} from "../../server/salon-editor/salon-part-routes.server";
import { couponFormAction } from "../../server/salon-editor/salon-parts-forms.server";
import { SalonCouponsPage } from "../components/salon-editor/salon-part-pages";
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
