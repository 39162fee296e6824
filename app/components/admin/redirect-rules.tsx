import { Form, Link, useNavigation } from "react-router";
import type {
  RedirectFormResult,
  RedirectFormValues,
  RedirectsPageData,
} from "../../../server/admin/redirect-form.server";
import { Notice } from "../accounts/account-frame";
import {
  buttonClass,
  cellClass,
  formatDateTime,
  headCellClass,
  linkClass,
  secondaryButtonClass,
  tableClass,
} from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { AdminFrame } from "./admin-frame";

const emptyValues: RedirectFormValues = { path: "", target: "", statusCode: "301" };

const doneMessages: Record<string, string> = {
  created: "リダイレクトを追加しました。すべてのサーバーですぐに有効になります。",
  updated: "リダイレクトを変更しました。すべてのサーバーですぐに有効になります。",
  deleted: "リダイレクトを削除しました。",
};

const statusLabels: Record<number, string> = {
  301: "恒久的（301）",
  302: "一時的（302）",
};

/**
 * /admin/redirects: the add/edit form (a refused submit shown again with
 * what was typed) and the list of rules with their edit and delete buttons.
 */
export function RedirectRules({
  data,
  result,
}: {
  data: RedirectsPageData & { done: string | null };
  result: RedirectFormResult | undefined;
}) {
  const { rules, editing, done } = data;
  const busy = useNavigation().state === "submitting";
  const failedEdit = result && result.intent === "update" ? result.id : null;
  const editId = failedEdit ?? editing?.id ?? null;
  const formErrors: Record<string, string | undefined> =
    result && result.intent !== "delete" ? result.errors : {};
  const values: RedirectFormValues =
    result && result.intent !== "delete" ? result.values : (editing?.values ?? emptyValues);
  const deleteError = result?.intent === "delete" ? result.errors.form : undefined;
  return (
    <AdminFrame title="リダイレクト">
      <p>
        古いURLや終了したキャンペーンのページを、サイト内の別のページへ転送します。
        変更はすべてのサーバーに1秒以内に反映されます。
      </p>
      {done && doneMessages[done] ? <Notice>{doneMessages[done]}</Notice> : null}
      {deleteError ? <Notice tone="error">{deleteError}</Notice> : null}
      <section aria-labelledby="redirect-form-heading" className="flex flex-col gap-4">
        <h2 id="redirect-form-heading" className="text-xl font-bold">
          {editId ? "リダイレクトの編集" : "リダイレクトの追加"}
        </h2>
        <Form
          method="post"
          noValidate
          className="flex max-w-2xl flex-col gap-5"
          key={`${editId ?? "new"}-${result ? "result" : "initial"}`}
        >
          <ErrorSummary errors={formErrors} />
          <input type="hidden" name="intent" value={editId ? "update" : "create"} />
          {editId ? <input type="hidden" name="id" value={editId} /> : null}
          <TextField
            id="redirect-path"
            name="path"
            label="転送元のパス"
            required
            autoComplete="off"
            hint="サイト内のパス。例：/campaign/2026-spring"
            defaultValue={values.path}
            error={formErrors.path}
          />
          <TextField
            id="redirect-target"
            name="target"
            label="転送先"
            required
            autoComplete="off"
            hint="サイト内のパス（例：/articles）か、このサイトのURL。他のサイトへは転送できません。"
            defaultValue={values.target}
            error={formErrors.target}
          />
          <fieldset
            className="flex flex-col gap-2"
            aria-describedby={formErrors.statusCode ? "redirect-status-error" : undefined}
          >
            <legend className="font-bold">転送の種類</legend>
            {formErrors.statusCode ? (
              <p id="redirect-status-error" className="text-sm font-bold text-red-700">
                {formErrors.statusCode}
              </p>
            ) : null}
            {(["301", "302"] as const).map((code) => (
              <label key={code} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="statusCode"
                  value={code}
                  defaultChecked={values.statusCode === code}
                />
                {code === "301"
                  ? "恒久的（301）：URLが変わった。検索エンジンにも新しいURLを伝えます"
                  : "一時的（302）：期間限定の転送。元のURLはいずれ戻ります"}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={busy} className={buttonClass}>
              {editId ? "変更を保存する" : "追加する"}
            </button>
            {editId ? (
              <Link to="/admin/redirects" className={linkClass}>
                編集をやめる
              </Link>
            ) : null}
          </div>
        </Form>
      </section>
      <section aria-labelledby="redirect-list-heading" className="flex flex-col gap-4">
        <h2 id="redirect-list-heading" className="text-xl font-bold">
          登録済みのリダイレクト（{rules.length}件）
        </h2>
        {rules.length === 0 ? (
          <p>まだリダイレクトはありません。</p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={headCellClass}>
                    転送元
                  </th>
                  <th scope="col" className={headCellClass}>
                    転送先
                  </th>
                  <th scope="col" className={headCellClass}>
                    種類
                  </th>
                  <th scope="col" className={headCellClass}>
                    更新日時
                  </th>
                  <th scope="col" className={headCellClass}>
                    操作
                  </th>
                </tr>
              </thead>
              <tbody>
                {rules.map((rule) => (
                  <tr key={rule.id}>
                    <td className={`${cellClass} break-all`}>
                      {rule.path}
                      {rule.enabled ? null : <span className="block text-xs">（無効）</span>}
                      {rule.includeSubpaths ? (
                        <span className="block text-xs">（配下のパスも転送）</span>
                      ) : null}
                    </td>
                    <td className={`${cellClass} break-all`}>{rule.target}</td>
                    <td className={cellClass}>
                      {statusLabels[rule.statusCode] ?? rule.statusCode}
                    </td>
                    <td className={cellClass}>{formatDateTime(rule.updatedAt)}</td>
                    <td className={cellClass}>
                      <div className="flex flex-wrap items-center gap-2">
                        <Link
                          to={`/admin/redirects?edit=${rule.id}`}
                          className={linkClass}
                          aria-label={`${rule.path} のリダイレクトを編集`}
                        >
                          編集
                        </Link>
                        <Form method="post">
                          <input type="hidden" name="intent" value="delete" />
                          <input type="hidden" name="id" value={rule.id} />
                          <button type="submit" disabled={busy} className={secondaryButtonClass}>
                            削除
                            <span className="sr-only">（{rule.path}）</span>
                          </button>
                        </Form>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AdminFrame>
  );
}
