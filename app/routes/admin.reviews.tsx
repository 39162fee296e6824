import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import {
  afterModeration,
  moderationPage,
  submitModerationForm,
} from "../../server/admin/review-moderation-form.server";
import { appContext } from "../../server/context";
import { ReviewModeration } from "../components/admin/review-moderation";
import type { Route } from "./+types/admin.reviews";

export const meta: Route.MetaFunction = () => [
  { title: "口コミの管理 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?view=reported|hidden|all&q=&page=, ?review=<id>.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  return moderationPage(ctx.db, new URL(request.url));
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const outcome = await submitModerationForm(ctx.db, admin, await request.formData(), new Date());
  if (outcome.kind === "form") return data(outcome.result, { status: outcome.status });
  return redirect(afterModeration(new URL(request.url), outcome.intent));
}

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  return <ReviewModeration data={loaderData} result={actionData} />;
}
