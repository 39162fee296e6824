import { Form, Link, useNavigation } from "react-router";
import { RESOLUTION_NOTE_MAX } from "../../../common/payment-reconciliation";
import type {
  DiscrepanciesPageData,
  DiscrepancyFormResult,
  DiscrepancyLine,
} from "../../../server/admin/payment-discrepancies.server";
import { buttonClass, linkClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextAreaField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { AdminFrame } from "./admin-frame";
import { ViewTabs } from "./view-tabs";

/**
 * /admin/payments: what the daily reconciliation found between our payments
 * and the provider's (decision 0081), open ones oldest first; each can be
 * marked resolved with a note (audited). 今すぐ照合する runs today's now.
 */
export function PaymentDiscrepancies({
  data,
  result,
}: {
  data: DiscrepanciesPageData;
  result?: DiscrepancyFormResult;
}) {
  const navigation = useNavigation();
  const running = navigation.state === "submitting" && navigation.formData?.get("intent") === "run";
  const tabs = [
    { view: "open", label: `未解決（${data.openCount}件）` },
    { view: "resolved", label: `解決済み（${data.resolvedCount}件）` },
  ] as const;
  const runError = result && !result.discrepancyId ? result.errors : null;
  return (
    <AdminFrame title="決済の照合">
      {data.notice && !result ? <FocusedNotice tone="brand">{data.notice}</FocusedNotice> : null}
      <p className="max-w-3xl text-sm">
        毎日、決済サービス（Stripe）の決済・返金と、こちらの記録を照らし合わせます（前日分と、その前の2日分）。食い違いがあればここに表示します。こちらの記録が「手続き前」のまま決済サービスで完了していたものは、照合で自動的に完了にします（新たな請求は行いません）。
      </p>
      <section aria-labelledby="reconcile-run" className="flex flex-col gap-2">
        <h2 id="reconcile-run" className="text-lg font-bold">
          照合の実行
        </h2>
        {data.lastRun ? (
          <p className="text-sm">
            最後の照合：{data.lastRun.ranAtLabel}（{data.lastRun.dayLabel}分まで。決済
            {data.lastRun.paymentsChecked}件・返金{data.lastRun.refundsChecked}件を確認、差異
            {data.lastRun.found}件、うち自動で解決{data.lastRun.fixed}件）
          </p>
        ) : (
          <p className="text-sm">まだ照合していません。</p>
        )}
        <Form method="post" className="flex flex-col gap-2">
          {runError ? <ErrorSummary errors={runError} /> : null}
          <div>
            <button
              type="submit"
              name="intent"
              value="run"
              className={secondaryButtonClass}
              disabled={running}
            >
              {running ? "照合しています…" : "今日の分を今すぐ照合する"}
            </button>
          </div>
        </Form>
      </section>
      <ViewTabs label="差異の表示切り替え" path="/admin/payments" tabs={tabs} current={data.view} />
      {data.lines.length === 0 ? (
        <p>差異はありません。</p>
      ) : (
        <>
          {data.lines.length >= data.shownMax ? (
            <p className="text-sm">古いものから{data.shownMax}件を表示しています。</p>
          ) : null}
          <ul className="flex flex-col gap-4" aria-label="差異の一覧">
            {data.lines.map((line) => (
              <li key={line.id}>
                <Discrepancy
                  line={line}
                  result={result?.discrepancyId === line.id ? result : undefined}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </AdminFrame>
  );
}

function Discrepancy({ line, result }: { line: DiscrepancyLine; result?: DiscrepancyFormResult }) {
  const headingId = `discrepancy-${line.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-neutral-300 p-4"
    >
      <h3 id={headingId} className="font-bold">
        {line.kindLabel}（{line.providerObjectLabel}）
      </h3>
      <p className="break-words">{line.note}</p>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="font-bold">決済サービスの番号</dt>
        <dd className="break-all font-mono">{line.providerId}</dd>
        <dt className="font-bold">こちらの金額</dt>
        <dd>
          {line.ourAmountLabel}
          {line.paymentKindLabel ? `（${line.paymentKindLabel}）` : ""}
        </dd>
        <dt className="font-bold">決済サービスの金額</dt>
        <dd>{line.providerAmountLabel}</dd>
        {line.salon ? (
          <>
            <dt className="font-bold">サロン</dt>
            <dd className="break-words">
              {line.bookingId ? (
                <Link
                  to={`/owner/salons/${line.salon.id}/bookings/${line.bookingId}`}
                  className={linkClass}
                >
                  {line.salon.name}の予約
                </Link>
              ) : (
                line.salon.name
              )}
            </dd>
          </>
        ) : null}
        <dt className="font-bold">見つけた日</dt>
        <dd>
          {line.foundOnLabel}（最後に確認：{line.lastSeenLabel}）
        </dd>
        {line.resolved ? (
          <>
            <dt className="font-bold">解決</dt>
            <dd className="break-words">
              {line.resolved.atLabel}
              {line.resolved.auto
                ? "（照合で自動）"
                : line.resolved.byName
                  ? `（${line.resolved.byName}さん）`
                  : ""}
              {line.resolved.note ? `：${line.resolved.note}` : ""}
            </dd>
          </>
        ) : null}
      </dl>
      {line.resolved ? null : <ResolveForm line={line} result={result} />}
    </article>
  );
}

function ResolveForm({ line, result }: { line: DiscrepancyLine; result?: DiscrepancyFormResult }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("discrepancyId") === line.id;
  const errors = result?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-3 border-t border-neutral-200 pt-3">
      {result ? <ErrorSummary errors={errors} /> : null}
      <input type="hidden" name="discrepancyId" value={line.id} />
      <TextAreaField
        id={`note-${line.id}`}
        name="note"
        label="対応内容"
        rows={2}
        required
        maxLength={RESOLUTION_NOTE_MAX}
        hint={`${RESOLUTION_NOTE_MAX}文字まで。何を確認し、どう対応したか。操作履歴に残ります。`}
        defaultValue={result?.note ?? ""}
        error={errors.note}
      />
      <div>
        <button type="submit" name="intent" value="resolve" className={buttonClass} disabled={busy}>
          解決済みにする
        </button>
      </div>
    </Form>
  );
}
