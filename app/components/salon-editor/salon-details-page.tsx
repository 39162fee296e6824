import { Form, Link, useNavigation } from "react-router";
import type { SalonFormOptions } from "../../../server/salon-editor/salon-basic-info-read.server";
import type { EditorDoorView } from "../../../server/salon-editor/salon-editor-door.server";
import type { SalonFormValues } from "../../../server/salon-editor/salon-form";
import { Notice } from "../accounts/account-frame";
import { formatDateTime, linkClass, secondaryButtonClass } from "../back-office-ui";
import { SalonEditorFrame } from "./salon-editor-tabs";
import { SalonForm } from "./salon-form";
import { salonStatusLabels } from "./salon-status";

/**
 * The 基本情報 tab behind either door (decision 0047). The status panel
 * (publish, suspend, back to draft, delete) is the administrator's; the
 * salon's own people see the status and the public address only.
 */

export type SalonDetailsData = {
  door: EditorDoorView;
  salon: {
    id: string;
    name: string;
    slug: string;
    status: keyof typeof salonStatusLabels;
    version: number;
    updatedAt: Date | string;
  };
  values: SalonFormValues;
  options: SalonFormOptions;
  missing: string[];
  done: string | null;
};

export type SalonDetailsResult = {
  values: SalonFormValues;
  errors: Record<string, string | undefined>;
  notice?: string;
  missing?: string[];
  fromStatusPanel: boolean;
  version: number;
  conflict: boolean;
  key: string;
};

const doneMessages: Record<string, string> = {
  created: "サロンを下書きとして登録しました。続けてメニューとスタッフを登録してください。",
  saved: "基本情報を保存しました。",
  published: "サロンを公開しました。検索とサロンページに表示されます。",
  suspended:
    "サロンを利用停止にしました。検索とサロンページには表示されません（予約はそのまま残ります）。",
  unpublished: "サロンを下書きに戻しました。",
};

export function SalonDetailsPage({
  loaderData,
  actionData,
}: {
  loaderData: SalonDetailsData;
  actionData: SalonDetailsResult | undefined;
}) {
  const { door, salon, options, missing, done } = loaderData;
  const admin = door.kind === "admin";
  const busy = useNavigation().state === "submitting";
  const panelError = actionData?.fromStatusPanel ? actionData.errors.form : undefined;
  const formResult = actionData && !actionData.fromStatusPanel ? actionData : undefined;
  const stillMissing = actionData?.missing ?? missing;
  return (
    <SalonEditorFrame door={door} salon={salon}>
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
        {admin ? (
          <StatusPanel status={salon.status} version={salon.version} busy={busy} />
        ) : (
          <p className="text-sm">
            公開・利用停止、サロンの削除、URL名とオーナーの変更は運営者が行います。
          </p>
        )}
      </section>
      {formResult?.notice ? <Notice>{formResult.notice}</Notice> : null}
      {formResult?.conflict ? (
        <p>
          <a href={door.paths.details} className={linkClass}>
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
        door={door.kind}
      />
    </SalonEditorFrame>
  );
}

/** The administrator's status buttons and delete, each its own small form. */
function StatusPanel({
  status,
  version,
  busy,
}: {
  status: keyof typeof salonStatusLabels;
  version: number;
  busy: boolean;
}) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {status !== "published" ? (
          <StatusButton version={version} intent="publish" busy={busy}>
            公開する
          </StatusButton>
        ) : null}
        {status !== "suspended" ? (
          <StatusButton version={version} intent="suspend" busy={busy}>
            利用停止にする
          </StatusButton>
        ) : null}
        {status !== "draft" ? (
          <StatusButton version={version} intent="unpublish" busy={busy}>
            下書きに戻す
          </StatusButton>
        ) : null}
      </div>
      <Form
        method="post"
        className="flex flex-wrap items-center gap-2 border-t border-neutral-200 pt-3"
      >
        <input type="hidden" name="version" value={version} />
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
    </>
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
