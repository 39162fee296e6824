import { data, redirect } from "react-router";
import { uuidText } from "../../common/field-rules";
import { requireAdmin } from "../../server/accounts/guards";
import { redirectsPage, submitRedirectForm } from "../../server/admin/redirect-form.server";
import { appContext } from "../../server/context";
import { RedirectRules } from "../components/admin/redirect-rules";
import type { Route } from "./+types/admin.redirects";

export const meta: Route.MetaFunction = () => [
  { title: "リダイレクト | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?edit=<id> opens a rule in the form.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const params = new URL(request.url).searchParams;
  const editId = uuidText("リダイレクト").safeParse(params.get("edit") ?? "");
  const page = await redirectsPage(ctx.db, editId.success ? editId.data : null);
  return { ...page, done: params.get("done") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const form = await request.formData();
  const outcome = await submitRedirectForm(ctx, form, admin, new Date());
  if (outcome.kind === "done") return redirect(`/admin/redirects?done=${outcome.done}`);
  const { errors, values, intent, id } = outcome;
  return data({ errors, values, intent, id }, { status: outcome.status });
}

export default function AdminRedirects({ loaderData, actionData }: Route.ComponentProps) {
  return <RedirectRules data={loaderData} result={actionData} />;
}
