import { data, redirect, useNavigation } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { appContext } from "../../server/context";
import { salonFormOptions } from "../../server/salon-editor/salon-basic-info-read.server";
import { blankSalonValues } from "../../server/salon-editor/salon-create.server";
import { submitSalonForm } from "../../server/salon-editor/salon-editor-actions.server";
import { Notice } from "../components/accounts/account-frame";
import { AdminFrame } from "../components/admin/admin-frame";
import { SalonForm } from "../components/salon-editor/salon-form";
import type { Route } from "./+types/admin.salons.add";

export const meta: Route.MetaFunction = () => [
  { title: "サロンの追加 | Salon Navi 管理" },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  return { values: blankSalonValues(), options: await salonFormOptions(ctx.db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const outcome = await submitSalonForm(ctx, await request.formData(), null, admin, new Date());
  if (outcome.kind === "created") {
    return redirect(`/admin/salons/edit/${outcome.salonId}?done=created`);
  }
  if (outcome.kind !== "form") throw new Error("unexpected outcome");
  const { status, values, errors, notice } = outcome;
  return data({ values, errors, notice, key: crypto.randomUUID() }, { status });
}

export default function AdminSalonAdd({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AdminFrame title="サロンの追加">
      <p>
        サロンは下書きとして登録されます。メニューとスタッフを登録し、公開に必要な情報がそろうと公開できます。
      </p>
      {actionData?.notice ? <Notice>{actionData.notice}</Notice> : null}
      <SalonForm
        key={actionData?.key ?? "initial"}
        values={actionData?.values ?? loaderData.values}
        errors={actionData?.errors ?? {}}
        notice={actionData?.notice}
        options={loaderData.options}
        submitLabel="下書きとして登録する"
        busy={busy}
      />
    </AdminFrame>
  );
}
