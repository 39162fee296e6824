import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import {
  ownerInvitePage,
  parseOwnerInviteQuery,
  submitOwnerInvite,
} from "../../server/admin/owner-forms.server";
import { appContext } from "../../server/context";
import { OwnerInviteForm } from "../components/admin/owner-invite-form";
import type { Route } from "./+types/admin.owners.add";

export const meta: Route.MetaFunction = () => [
  { title: "オーナーの追加 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const query = parseOwnerInviteQuery(new URL(request.url).searchParams);
  return ownerInvitePage(ctx.db, query);
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const outcome = await submitOwnerInvite(ctx, await request.formData(), admin, new Date());
  if (outcome.kind === "invited") {
    return redirect(
      `/admin/owners?${new URLSearchParams({ done: outcome.done, q: outcome.email })}`,
    );
  }
  const { errors, values, selected } = outcome;
  return data({ errors, values, selected }, { status: outcome.status });
}

export default function AdminOwnerAdd({ loaderData, actionData }: Route.ComponentProps) {
  return <OwnerInviteForm data={loaderData} result={actionData} />;
}
