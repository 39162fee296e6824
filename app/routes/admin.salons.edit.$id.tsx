import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requireAdmin } from "../../server/accounts/guards";
import { findSalonForEditor } from "../../server/admin/salon-editor.server";
import { submitSalonForm } from "../../server/admin/salon-editor-actions.server";
import { loadSalonEditor } from "../../server/admin/salon-update.server";
import { appContext } from "../../server/context";
import { Notice } from "../components/accounts/account-frame";
import {
  AdminFrame,
  formatDateTime,
  linkClass,
  secondaryButtonClass,
} from "../components/admin/admin-frame";
import { SalonEditorTabs } from "../components/admin/salon-editor-tabs";
import { SalonForm } from "../components/admin/salon-form";
import { salonStatusLabels } from "../components/admin/salon-status";
import type { Route } from "./+types/admin.salons.edit.$id";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.salon.name ?? "サロン"}の編集 | Salon Navi 管理` },
  { name: "robots", content: "noindex" },
];

// Guards (SPEC.md §2): auth-full, admin-only. A malformed or unknown id is the 404 screen.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireAdmin(request, ctx);
  const done = new URL(request.url).searchParams.get("done");
  return { ...(await loadSalonEditor(ctx.db, params.id)), done };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const admin = await requireAdmin(request, ctx);
  const salon = await findSalonForEditor(ctx.db, params.id);
  const form = await request.formData();
  const outcome = await submitSalonForm(ctx, form, { salonId: salon.id }, admin, new Date());
  if (outcome.kind === "deleted") return redirect("/admin/salons?done=deleted");
  if (outcome.kind === "saved")
    return redirect(`/admin/salons/edit/${salon.id}?done=${outcome.done}`);
  if (outcome.kind !== "form") throw new Error("unexpected outcome");
  const { status, values, errors, notice, missing } = outcome;
  // The status buttons are their own small forms: their errors go above the form.
  const fromStatusPanel = ["publish", "suspend", "unpublish", "delete"].includes(
    String(form.get("intent")),
  );
  // The version the form was loaded with stays in the form: after a refused
  // save, saving again must be refused too until the admin reloads.
  const versionText = String(form.get("version") ?? "");
  const version = /^\d{1,9}$/.test(versionText) ? Number(versionText) : salon.version;
  const conflict = status === 409 && errors.form !== undefined;
  return data(
    {
      values,
      errors,
      notice,
      missing,
      fromStatusPanel,
      version,
      conflict,
      key: crypto.randomUUID(),
    },
    { status },
  );
}

const doneMessages: Record<string, string> = {
  created: "サロンを下書きとして登録しました。続けてメニューとスタッフを登録してください。",
  saved: "基本情報を保存しました。",
  published: "サロンを公開しました。検索とサロンページに表示されます。",
  suspended:
    "サロンを利用停止にしました。検索とサロンページには表示されません（予約はそのまま残ります）。",
  unpublished: "サロンを下書きに戻しました。",
};

export default function AdminSalonEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, options, missing, done } = loaderData;
  const busy = useNavigation().state === "submitting";
  const panelError = actionData?.fromStatusPanel ? actionData.errors.form : undefined;
  const formResult = actionData && !actionData.fromStatusPanel ? actionData : undefined;
  const stillMissing = actionData?.missing ?? missing;
  return (
    <AdminFrame title={`${salon.name}の編集`}>
      <SalonEditorTabs salonId={salon.id} salonName={salon.name} />
      {done && doneMessages[done] ? <Notice>{doneMessages[done]}</Notice> : null}
      {panelError ? <Notice tone="error">{panelError}</Notice> : null}
      <section
        aria-labelledby="salon-status-heading"
        className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-4"
      >
        <h2 id="salon-status-heading" className="text-lg font-bold">
          公開状態：{salonStatusLabels[salon.status]}
        </h2>
        <p className="text-sm">
          サロンページ：
          {salon.status === "published" ? (
            <Link to={`/salons/${salon.slug}`} className={linkClass}>
              /salons/{salon.slug}
            </Link>
          ) : (
            <span>/salons/{salon.slug}（公開中のみ表示）</span>
          )}
          <span className="ml-3">最終更新：{formatDateTime(salon.updatedAt)}</span>
        </p>
        {salon.status !== "published" && stillMissing.length > 0 ? (
          <div>
            <p className="font-bold">公開に必要な情報が足りません：</p>
            <ul className="list-disc pl-5">
              {stillMissing.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {salon.status !== "published" ? (
            <StatusButton version={salon.version} intent="publish" busy={busy}>
              公開する
            </StatusButton>
          ) : null}
          {salon.status !== "suspended" ? (
            <StatusButton version={salon.version} intent="suspend" busy={busy}>
              利用停止にする
            </StatusButton>
          ) : null}
          {salon.status !== "draft" ? (
            <StatusButton version={salon.version} intent="unpublish" busy={busy}>
              下書きに戻す
            </StatusButton>
          ) : null}
        </div>
        <Form
          method="post"
          className="flex flex-wrap items-center gap-2 border-t border-neutral-200 pt-3"
        >
          <input type="hidden" name="version" value={salon.version} />
          <input type="hidden" name="intent" value="delete" />
          <button
            type="submit"
            disabled={busy}
            className={`${secondaryButtonClass} border-red-700 text-red-700`}
          >
            このサロンを削除する
          </button>
          <span className="text-sm">予約（今後の予約・履歴）があるサロンは削除できません。</span>
        </Form>
      </section>
      {formResult?.notice ? <Notice>{formResult.notice}</Notice> : null}
      {formResult?.conflict ? (
        <p>
          <a href={`/admin/salons/edit/${salon.id}`} className={linkClass}>
            最新の内容を表示する
          </a>
          （入力中の内容は破棄されます。必要なら控えてから開いてください）
        </p>
      ) : null}
      <SalonForm
        key={formResult?.key ?? `v${salon.version}`}
        values={formResult?.values ?? loaderData.values}
        errors={formResult?.errors ?? {}}
        notice={formResult?.notice}
        options={options}
        version={formResult?.version ?? salon.version}
        submitLabel="基本情報を保存する"
        busy={busy}
      />
    </AdminFrame>
  );
}

function StatusButton({
  version,
  intent,
  busy,
  children,
}: {
  version: number;
  intent: string;
  busy: boolean;
  children: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="version" value={version} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        className={secondaryButtonClass}
      >
        {children}
      </button>
    </Form>
  );
}
