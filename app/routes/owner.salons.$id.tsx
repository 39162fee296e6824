import { appContext } from "../../server/context";
import { requireSalonAccess } from "../../server/owner/salon-access.server";
import { todayPage } from "../../server/owner/today.server";
import { OwnerToday } from "../components/owner/owner-today";
import type { Route } from "./+types/owner.salons.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `今日の予約 | ${loaderData?.view.salon.name ?? "サロン"} | Salon Navi サロン管理` },
  { name: "robots", content: "noindex" },
];

// Guard: requireSalonAccess (the salon's owner or an administrator; a guest
// signs in and comes back; anyone else, or another salon's id, the 404 screen).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const access = await requireSalonAccess(request, ctx, params.id);
  return todayPage(ctx.db, access, new Date());
}

export default function OwnerTodayPage({ loaderData }: Route.ComponentProps) {
  return <OwnerToday data={loaderData} />;
}
