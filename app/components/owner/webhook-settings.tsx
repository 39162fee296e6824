import { Form, Link, useNavigation } from "react-router";
import type {
  WebhookFormOutcome,
  WebhookSettingsPageData,
} from "../../../server/webhooks/webhook-page.server";
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
import { FocusedNotice } from "../form/focused-notice";
import { OwnerPage } from "./owner-frame";

const savedNotices = {
  disabled: "送信先を停止しました。",
  enabled: "送信先を再開しました。",
  deleted: "送信先を削除しました。",
  replayed: "再送を受け付けました。数秒後に送信されます。",
} as const satisfies Record<NonNullable<WebhookSettingsPageData["saved"]>, string>;

const disabledLabels: Record<string, string> = {
  manual: "停止中",
  gone: "停止中（送信先が410 Goneと応答）",
  failing: "停止中（3日間失敗が続いたため）",
};

const statusLabels = {
  pending: "送信待ち・再試行中",
  delivered: "送信済み",
  failed: "失敗",
} as const;

/** The secret of an endpoint just added or rotated: shown here once, never again. */
function SecretOnce({ result }: { result: Extract<WebhookFormOutcome, { kind: "secret" }> }) {
  return (
    <FocusedNotice>
      {result.action === "created" ? "送信先を追加しました。" : "署名シークレットを更新しました。"}
      <span className="mt-2 block font-normal">
        署名シークレット（この画面を離れると二度と表示されません。受信側に保存してください）：
      </span>
      <code
        data-testid="webhook-secret"
        className="mt-1 block break-all rounded bg-white p-2 font-mono text-sm"
      >
        {result.secret}
      </code>
      {result.action === "rotated" ? (
        <span className="mt-2 block font-normal">
          以前のシークレットも24時間は署名に使われます（webhook-signature に2つの署名が入ります）。
        </span>
      ) : null}
    </FocusedNotice>
  );
}

/**
 * /owner/salons/{id}/settings/webhooks: the salon's webhook endpoints
 * (decision 0086) — add one with its events, its secret shown once, rotate,
 * stop or restart, delete, and each one's delivery log with replay.
 */
export function WebhookSettingsPage({
  data,
  result,
}: {
  data: WebhookSettingsPageData;
  result?: WebhookFormOutcome;
}) {
  const busy = useNavigation().state === "submitting";
  const error = result?.kind === "error" && result.form === "create" ? result : undefined;
  const buttonError = result?.kind === "error" && result.form === "endpoint" ? result : undefined;
  const base = `/owner/salons/${data.salon.id}/settings/webhooks`;
  const values = error?.values ?? { url: "", events: ["booking.created"] };
  return (
    <OwnerPage title="Webhook">
      <p>
        <Link to={`/owner/salons/${data.salon.id}/settings`} className={linkClass}>
          設定に戻る
        </Link>
      </p>
      {data.saved && !result ? <FocusedNotice>{savedNotices[data.saved]}</FocusedNotice> : null}
      {result?.kind === "secret" ? <SecretOnce result={result} /> : null}
      {buttonError ? <ErrorSummary errors={buttonError.errors} /> : null}
      <p className="max-w-3xl">
        予約や口コミがあったとき、指定したURLへお知らせ（JSON）を送ります。Standard Webhooks
        の方式で署名します（ヘッダー
        webhook-id・webhook-timestamp・webhook-signature）。失敗したときは5秒後から最長約1日、間隔をあけて再送し、3日間失敗が続くと停止してオーナーにメールでお知らせします。
      </p>
      <section aria-labelledby="endpoints-heading" className="flex flex-col gap-3">
        <h2 id="endpoints-heading" className="text-xl font-bold">
          送信先（{data.endpoints.length}/{data.maxEndpoints}件）
        </h2>
        {data.endpoints.length === 0 ? (
          <p>送信先はまだありません。</p>
        ) : (
          <div className="overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={headCellClass}>URL</th>
                  <th className={headCellClass}>イベント</th>
                  <th className={headCellClass}>状態</th>
                  <th className={headCellClass}>操作</th>
                </tr>
              </thead>
              <tbody>
                {data.endpoints.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <td className={`${cellClass} break-all`}>
                      {endpoint.url}
                      <span className="block text-xs text-neutral-700">
                        シークレット {endpoint.secretHint}
                        {endpoint.rotatingUntil
                          ? `（以前のシークレットも ${formatDateTime(endpoint.rotatingUntil)} まで有効）`
                          : ""}
                      </span>
                    </td>
                    <td className={cellClass}>{endpoint.events.join(", ")}</td>
                    <td className={cellClass}>
                      {endpoint.disabledAt
                        ? (disabledLabels[endpoint.disabledReason ?? "manual"] ?? "停止中")
                        : endpoint.failingSince
                          ? `有効（${formatDateTime(endpoint.failingSince)} から失敗中）`
                          : "有効"}
                    </td>
                    <td className={cellClass}>
                      <div className="flex flex-wrap gap-2">
                        <Link to={`${base}?log=${endpoint.id}`} className={secondaryButtonClass}>
                          送信履歴
                        </Link>
                        <Form method="post">
                          <input type="hidden" name="endpoint" value={endpoint.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="rotate"
                            className={secondaryButtonClass}
                            disabled={busy}
                          >
                            シークレットを更新
                          </button>
                        </Form>
                        <Form method="post">
                          <input type="hidden" name="endpoint" value={endpoint.id} />
                          <button
                            type="submit"
                            name="intent"
                            value={endpoint.disabledAt ? "enable" : "disable"}
                            className={secondaryButtonClass}
                            disabled={busy}
                          >
                            {endpoint.disabledAt ? "再開" : "停止"}
                          </button>
                        </Form>
                        <Form method="post">
                          <input type="hidden" name="endpoint" value={endpoint.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="delete"
                            className={secondaryButtonClass}
                            disabled={busy}
                          >
                            削除
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
      {data.log ? (
        <section aria-labelledby="log-heading" className="flex flex-col gap-3">
          <h2 id="log-heading" className="text-xl font-bold">
            送信履歴：{data.log.endpoint.url}
          </h2>
          <p className="text-sm">
            新しい順に最大50件。再送は1つの送信先につき1時間に{data.maxReplaysPerHour}回までです。
          </p>
          {data.log.deliveries.length === 0 ? (
            <p>まだ送信していません。</p>
          ) : (
            <div className="overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={headCellClass}>日時</th>
                    <th className={headCellClass}>イベント</th>
                    <th className={headCellClass}>結果</th>
                    <th className={headCellClass}>内容</th>
                    <th className={headCellClass}>操作</th>
                  </tr>
                </thead>
                <tbody>
                  {data.log.deliveries.map((delivery) => (
                    <tr key={delivery.id} data-testid="webhook-delivery">
                      <td className={cellClass}>
                        {formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}
                        {delivery.replay ? <span className="block text-xs">（再送）</span> : null}
                      </td>
                      <td className={cellClass}>{delivery.eventType}</td>
                      <td className={cellClass}>
                        {statusLabels[delivery.status]}
                        {delivery.lastStatus !== null ? `（HTTP ${delivery.lastStatus}）` : ""}
                        <span className="block text-xs">
                          試行 {delivery.attempts}回
                          {delivery.lastError ? `・${delivery.lastError}` : ""}
                          {delivery.nextAttemptAt
                            ? `・次回 ${formatDateTime(delivery.nextAttemptAt)}`
                            : ""}
                        </span>
                      </td>
                      <td className={cellClass}>
                        <details>
                          <summary className="cursor-pointer">{delivery.messageId}</summary>
                          <pre className="max-w-md overflow-x-auto whitespace-pre-wrap break-all text-xs">
                            {delivery.body}
                          </pre>
                        </details>
                      </td>
                      <td className={cellClass}>
                        <Form method="post">
                          <input type="hidden" name="endpoint" value={data.log?.endpoint.id} />
                          <input type="hidden" name="delivery" value={delivery.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="replay"
                            className={secondaryButtonClass}
                            disabled={busy}
                          >
                            再送
                          </button>
                        </Form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
      <section aria-labelledby="add-heading" className="flex max-w-2xl flex-col gap-4">
        <h2 id="add-heading" className="text-xl font-bold">
          送信先を追加
        </h2>
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-4"
          key={error ? JSON.stringify(error.errors) : "add"}
        >
          {error ? <ErrorSummary errors={error.errors} /> : null}
          <input type="hidden" name="intent" value="create" />
          <TextField
            id="webhook-url"
            name="url"
            type="url"
            label="送信先URL"
            hint="https:// で始まるURL。社内ネットワークのアドレスには送信できません。"
            maxLength={2000}
            defaultValue={values.url}
            error={error?.errors.url}
            required
          />
          <fieldset className="flex flex-col gap-2">
            <legend className="font-bold">送信するイベント</legend>
            {error?.errors.events ? (
              <p className="text-sm font-bold text-red-700">{error.errors.events}</p>
            ) : null}
            {data.events.map((event) => (
              <label key={event.type} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="events"
                  value={event.type}
                  defaultChecked={values.events.includes(event.type)}
                  className="size-5"
                />
                {event.label}（{event.type}）
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className={buttonClass} disabled={busy}>
              追加する
            </button>
          </div>
        </Form>
      </section>
    </OwnerPage>
  );
}
