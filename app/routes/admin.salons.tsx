import { requireAdmin } from "../../server/accounts/guards";
import { parseSalonListQuery, salonListPage } from "../../server/admin/salon-list.server";
import { appContext } from "../../server/context";
import { SalonList } from "../components/admin/salon-list";
import type { Route } from "./+types/admin.salons";

export const meta: Route.MetaFunction = () => [
  { title: "サロン一覧 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const params = new URL(request.url).searchParams;
  const page = await salonListPage(ctx.db, parseSalonListQuery(params));
  return { ...page, done: params.get("done") };
}

export default function AdminSalons({ loaderData }: Route.ComponentProps) {
  return <SalonList data={loaderData} />;
}
