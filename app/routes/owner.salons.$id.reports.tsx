import { data } from "react-router";
import { privatePageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { reportsPage } from "../../server/owner/reports.server";
import {
  type OwnerRouteCapability,
  requireSalonAccess,
} from "../../server/salon-access/salon-access.server";
import { ReportsPage } from "../components/owner/reports";
import type { Route } from "./+types/owner.salons.$id.reports";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `レポート | ${loaderData?.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

/**
 * What the page needs (loader): its guard uses it, and the role matrix test
 * checks it against capabilitiesOf (decision 0045).
 */
export const capability = { loader: "reports.read" } as const satisfies OwnerRouteCapability;

// Guard: requireSalonAccess with reports.read (owner, manager, admin; a guest signs in and
// comes back; anyone else and another salon's id, the 404 screen). A bad period: 400, the
// errors and what was typed, above the current month's report.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id, capability.loader);
  const page = await reportsPage(ctx.db, access, new URL(request.url), new Date());
  return data(page, { status: page.errors.length > 0 ? 400 : 200 });
}

export default function OwnerReports({ loaderData }: Route.ComponentProps) {
  return <ReportsPage data={loaderData} />;
}
