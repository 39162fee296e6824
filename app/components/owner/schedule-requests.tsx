import { Form } from "react-router";
import { scheduleExceptionLabels } from "../../../common/salon-parts";
import type { ScheduleRequestView } from "../../../server/owner/schedule-requests.server";
import type { ScheduleFormResult } from "../../../server/owner/schedules.server";
import { buttonClass, linkClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { ScheduleChangeFields } from "../salon-editor/schedule-fields";
import { stateOf } from "./schedule-forms";

/**
 * A stylist's schedule requests (decision 0052): on their own month the
 * form to ask and the list of their requests (withdraw a pending one); on
 * the managers' 勤務表 the pending ones with 承認する / 見送る. Each row
 * posts the request's version; a refusal keeps what was typed.
 */

const kindLabels = scheduleExceptionLabels;

export const requestStatusLabels = {
  pending: "承認待ち",
  approved: "承認済み",
  declined: "見送り",
  withdrawn: "取り下げ",
} as const;

const requestText = (r: ScheduleRequestView) =>
  `${r.dateLabel} ${kindLabels[r.kind]}${r.startsAt ? ` ${r.startsAt}〜${r.endsAt}` : ""}`;

/** The stylist's form to ask and their requests (their own month, /schedules/mine). */
export function OwnRequests({
  requests,
  today,
  result,
  busy,
}: {
  requests: ScheduleRequestView[];
  today: string;
  result: ScheduleFormResult | undefined;
  busy: boolean;
}) {
  const state = stateOf(result, "request");
  return (
    <section aria-labelledby="requests-heading" className="flex flex-col gap-4">
      <h2 id="requests-heading" className="text-xl font-bold">
        勤務の変更の申請
      </h2>
      <Form
        method="post"
        noValidate
        aria-labelledby="request-new-heading"
        className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-4"
        key={state.key}
      >
        <h3 id="request-new-heading" className="font-bold">
          休み・勤務時間の変更・臨時出勤を申請
        </h3>
        <ErrorSummary errors={state.errors} />
        <input type="hidden" name="intent" value="request-create" />
        <TextField
          id="request-date"
          name="date"
          type="date"
          label="日付"
          required
          min={today}
          defaultValue={state.value("date")}
          error={state.errors.date}
          hint="今日から1年以内の日付です。"
        />
        <ScheduleChangeFields idPrefix="request" state={state} noteMax={200} />
        <div>
          <button type="submit" className={buttonClass} disabled={busy}>
            申請する
          </button>
        </div>
      </Form>
      <h3 className="font-bold">これまでの申請</h3>
      {requests.length === 0 ? (
        <p>申請はまだありません。</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {requests.map((r) => {
            const row = stateOf(result, `request:${r.id}`);
            return (
              <li
                key={r.id}
                className="flex flex-col gap-2 rounded-lg border border-neutral-300 p-3"
              >
                <p>
                  <span className="font-bold">{requestText(r)}</span>
                  <span className="ml-2 rounded bg-neutral-100 px-2 py-0.5 text-sm">
                    {requestStatusLabels[r.status]}
                  </span>
                </p>
                {r.note ? <p className="text-sm">メモ：{r.note}</p> : null}
                {r.decisionNote ? (
                  <p className="text-sm">
                    {r.status === "declined" ? "見送りの理由" : "サロンからのメモ"}：
                    {r.decisionNote}
                  </p>
                ) : null}
                {r.status === "pending" ? (
                  <Form method="post" className="flex flex-col gap-2" key={row.key}>
                    <ErrorSummary errors={row.errors} />
                    <input type="hidden" name="intent" value="request-withdraw" />
                    <input type="hidden" name="requestId" value={r.id} />
                    <input type="hidden" name="requestVersion" value={r.version} />
                    <div>
                      <button
                        type="submit"
                        className={secondaryButtonClass}
                        disabled={busy}
                        aria-label={`${requestText(r)}の申請を取り下げる`}
                      >
                        取り下げる
                      </button>
                    </div>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** 「スタッフからの申請」 on the managers' 勤務表: approve (through the exception writer) or decline. */
export function PendingRequests({
  requests,
  result,
  month,
  staffId,
  busy,
}: {
  requests: ScheduleRequestView[];
  result: ScheduleFormResult | undefined;
  month: string;
  staffId: string | null;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="staff-requests-heading" className="flex flex-col gap-3">
      <h2 id="staff-requests-heading" className="text-xl font-bold">
        スタッフからの申請
      </h2>
      {requests.length === 0 ? (
        <p>承認待ちの申請はありません。</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {requests.map((r) => {
            const row = stateOf(result, `request:${r.id}`);
            const text = `${r.staffName}さん ${requestText(r)}`;
            const hidden = (
              <>
                <input type="hidden" name="requestId" value={r.id} />
                <input type="hidden" name="requestVersion" value={r.version} />
                <input type="hidden" name="month" value={month} />
                {staffId ? <input type="hidden" name="staffId" value={staffId} /> : null}
              </>
            );
            return (
              <li
                key={r.id}
                className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-3"
              >
                <p className="font-bold">{text}</p>
                {r.note ? <p className="text-sm">メモ：{r.note}</p> : null}
                <a
                  href={`?${new URLSearchParams({ staff: r.staffId, month: r.date.slice(0, 7), date: r.date })}`}
                  className={linkClass}
                  aria-label={`${r.staffName}さんの${r.dateLabel}の勤務を勤務表で見る`}
                >
                  勤務表で見る
                </a>
                <ErrorSummary errors={row.errors} />
                <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
                  <Form method="post" className="flex flex-col gap-2" key={`a-${row.key}`}>
                    <input type="hidden" name="intent" value="request-approve" />
                    {hidden}
                    <div className="flex items-center gap-2">
                      <input
                        id={`request-force-${r.id}`}
                        type="checkbox"
                        name="force"
                        defaultChecked={row.value("force") === "on"}
                        className="size-5"
                      />
                      <label htmlFor={`request-force-${r.id}`} className="text-sm">
                        予約が残っていても承認する
                      </label>
                    </div>
                    <div>
                      <button
                        type="submit"
                        className={buttonClass}
                        disabled={busy}
                        aria-label={`${text}を承認する`}
                      >
                        承認する
                      </button>
                    </div>
                  </Form>
                  <Form
                    method="post"
                    noValidate
                    className="flex flex-col gap-2"
                    key={`d-${row.key}`}
                  >
                    <input type="hidden" name="intent" value="request-decline" />
                    {hidden}
                    <TextField
                      id={`request-decline-note-${r.id}`}
                      name="decisionNote"
                      label="見送りの理由（任意）"
                      maxLength={200}
                      defaultValue={row.value("decisionNote")}
                      error={row.errors.decisionNote}
                    />
                    <div>
                      <button
                        type="submit"
                        className={secondaryButtonClass}
                        disabled={busy}
                        aria-label={`${text}を見送る`}
                      >
                        見送る
                      </button>
                    </div>
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
