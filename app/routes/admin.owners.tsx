import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { ownerListQuerySchema } from "../../server/admin/admin.schema";
import { submitOwnerAction } from "../../server/admin/owner-forms.server";
import { listOwners } from "../../server/admin/owners";
import { appContext } from "../../server/context";
import { OwnerList } from "../components/admin/owner-list";
import type { Route } from "./+types/admin.owners";

export const meta: Route.MetaFunction = () => [
  { title: "オーナー一覧 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const url = new URL(request.url);
  const query = ownerListQuerySchema.parse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const done = url.searchParams.get("done");
  return { ...(await listOwners(ctx.db, query)), q: query.q, done };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const outcome = await submitOwnerAction(
    ctx.db,
    await request.formData(),
    admin,
    new Date(),
    ctx.config,
  );
  if (outcome.kind === "refused") return data({ error: outcome.error }, { status: outcome.status });
  // Back to the same list (search and page kept), with the outcome.
  const back = new URL(request.url).searchParams;
  back.set("done", outcome.intent);
  back.delete("index");
  return redirect(`/admin/owners?${back}`);
}

export default function AdminOwners({ loaderData, actionData }: Route.ComponentProps) {
  return <OwnerList data={loaderData} error={actionData?.error} />;
}
