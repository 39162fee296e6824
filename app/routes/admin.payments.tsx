import { data, redirect } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import {
  discrepanciesPage,
  submitDiscrepancyForm,
} from "../../server/admin/payment-discrepancies.server";
import { appContext } from "../../server/context";
import { PaymentDiscrepancies } from "../components/admin/payment-discrepancies";
import type { Route } from "./+types/admin.payments";

export const meta: Route.MetaFunction = () => [
  { title: "決済の照合 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. ?view=open|resolved.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  return discrepanciesPage(ctx.db, new URL(request.url));
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const outcome = await submitDiscrepancyForm(
    ctx.db,
    ctx.payments,
    admin,
    await request.formData(),
    {
      now: new Date(),
      log: ctx.log,
    },
  );
  if (outcome.kind === "form") return data(outcome.result, { status: outcome.status });
  const view = new URL(request.url).searchParams.get("view") === "resolved" ? "resolved" : "open";
  return redirect(`/admin/payments?view=${view}&done=${outcome.done}`);
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  return <PaymentDiscrepancies data={loaderData} result={actionData} />;
}
