import { requireAdmin } from "../../server/accounts/guards";
import { auditFilterSchema } from "../../server/admin/admin.schema";
import { adminHome } from "../../server/admin/admin-home.server";
import { appContext } from "../../server/context";
import { AdminHome } from "../components/admin/admin-home";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = () => [
  { title: "管理ホーム | Salon Navi" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only (a guest signs in first; others get the 404 screen).
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const url = new URL(request.url);
  const filter = auditFilterSchema.parse({
    salon: url.searchParams.get("salon") || undefined,
    actor: url.searchParams.get("actor") || undefined,
  });
  return adminHome(ctx.db, filter, new Date(), ctx.config.LINE_MONTHLY_QUOTA);
}

export default function AdminHomePage({ loaderData }: Route.ComponentProps) {
  return <AdminHome data={loaderData} />;
}
