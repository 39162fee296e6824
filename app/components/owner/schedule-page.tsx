import { useEffect, useRef } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { weekdayLabels } from "../../../common/salon-parts";
import type { ScheduleRequestView } from "../../../server/owner/schedule-requests.server";
import type {
  MonthDay,
  ScheduleFormResult,
  ScheduleMonth,
} from "../../../server/owner/schedules.server";
import type { StrandedBooking } from "../../../server/salon-editor/schedule-stranding.server";
import { linkClass, secondaryButtonClass } from "../back-office-ui";
import { OwnerPage } from "./owner-frame";
import {
  ClosureForms,
  ExceptionForms,
  HolidayRuleForm,
  OpeningHoursForm,
  PatternForms,
} from "./schedule-forms";
import { OwnRequests, PendingRequests } from "./schedule-requests";

export type SchedulePageData = ScheduleMonth & {
  done: string | null;
  /** A stylist's own month (schedules.request): no editing forms, no other stylists. */
  readOnly?: boolean;
  /** The stylists' pending requests (the managers' page; decision 0052). */
  requests?: ScheduleRequestView[];
  /** A stylist's own requests (their own month), else null. */
  ownRequests?: ScheduleRequestView[] | null;
};

/** The day's number: a link to its forms, or plain text on a read-only month. */
function DayLink({
  data,
  day,
  className,
}: {
  data: SchedulePageData;
  day: MonthDay;
  className: string;
}) {
  const today = day.today ? "（今日）" : "";
  if (data.readOnly) {
    return (
      <span className="font-bold">
        {day.day}
        <span className="sr-only">日{today}</span>
      </span>
    );
  }
  return (
    <a
      href={dayHref(data, day.date)}
      className={className}
      aria-label={`${day.label}${today}を選ぶ`}
    >
      {day.day}
    </a>
  );
}

const doneMessages: Record<string, string> = {
  "schedule-saved": "勤務パターンを保存しました。",
  "schedule-deleted": "勤務パターンを削除しました。",
  "exception-added": "休み・勤務時間の変更を登録しました。",
  "exception-deleted": "休み・勤務時間の変更を削除しました。",
  "closure-added": "臨時休業を登録しました。",
  "closure-deleted": "臨時休業を削除しました。",
  "holiday-rule-saved": "祝日の休業設定を保存しました。",
  "hours-saved": "営業時間・定休日を保存しました。",
  "request-created": "申請しました。承認されると勤務表に反映されます。",
  "request-withdrawn": "申請を取り下げました。",
  "request-approved": "申請を承認し、勤務表に反映しました。",
  "request-declined": "申請を見送りました。",
};

function Notice({ children, tone }: { children: React.ReactNode; tone: "ok" | "warn" }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      role={tone === "ok" ? "status" : "alert"}
      tabIndex={-1}
      className={`rounded-lg border-2 p-4 focus:outline-none focus-visible:ring-2 ${
        tone === "ok"
          ? "border-green-700 bg-green-50 text-green-900 focus-visible:ring-green-700"
          : "border-red-700 bg-red-50 focus-visible:ring-red-700"
      }`}
    >
      {children}
    </div>
  );
}

/** The bookings a change leaves outside working time, each linked to its detail. */
export function StrandedList({ bookings }: { bookings: readonly StrandedBooking[] }) {
  return (
    <ul className="mt-2 flex flex-col gap-1 pl-5 text-sm [list-style:disc]">
      {bookings.map((b) => (
        <li key={b.id}>
          <a href={b.href} className={linkClass}>
            {b.dateLabel} {b.startTime}〜{b.endTime} {b.customerName || "（お名前なし）"}様
          </a>
          （{b.staffName}、{b.menus.join("・") || "メニューなし"}）
        </li>
      ))}
    </ul>
  );
}

const staffWords: Record<MonthDay["staffKind"], string> = {
  working: "",
  weekly_off: "休み（毎週）",
  day_off: "休み",
  changed: "時間変更",
  extra: "臨時出勤",
};

const salonWords: Record<Exclude<MonthDay["salonClosure"], null>, string> = {
  regular: "定休日",
  closure: "臨時休業",
  holiday: "祝日休業",
};

/** What a day says, in the cell and in the list. */
function DayBody({ day }: { day: MonthDay }) {
  return (
    <div className="flex flex-col gap-0.5 text-xs">
      {day.holidayName ? <span className="font-bold text-red-800">{day.holidayName}</span> : null}
      {day.salonClosure ? (
        <span className="font-bold">{salonWords[day.salonClosure]}</span>
      ) : day.salonHoursChanged ? (
        <span>営業時間変更</span>
      ) : null}
      {staffWords[day.staffKind] ? <span>{staffWords[day.staffKind]}</span> : null}
      {day.hours.length > 0 ? (
        day.hours.map((h) => (
          <span key={h.start}>
            {h.start}〜{h.end}
          </span>
        ))
      ) : (
        <span className="text-neutral-700">勤務なし</span>
      )}
      {day.bookings > 0 ? <span className="font-bold">予約{day.bookings}件</span> : null}
    </div>
  );
}

function dayHref(data: SchedulePageData, date: string) {
  const query = new URLSearchParams({
    ...(data.selected ? { staff: data.selected.id } : {}),
    month: data.month,
    date,
  });
  return `?${query}#day-forms`;
}

function MonthTable({ data }: { data: SchedulePageData }) {
  return (
    <table className="hidden w-full table-fixed border-collapse text-left sm:table">
      <caption className="sr-only">
        {data.selected?.name}さんの{data.monthLabel}の勤務
        {data.readOnly ? "" : "（日付を選ぶとその日の休み・時間変更を登録できます）"}
      </caption>
      <thead>
        <tr>
          {weekdayLabels.map((label, weekday) => (
            <th
              key={label}
              scope="col"
              abbr={`${label}曜日`}
              className={`border-b-2 border-neutral-400 px-1 py-1 text-center text-sm ${
                weekday === 0 ? "text-red-800" : weekday === 6 ? "text-blue-800" : ""
              }`}
            >
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.weeks.map((week) => (
          <tr key={week.find((d) => d)?.date}>
            {week.map((day, index) =>
              day ? (
                <td
                  key={day.date}
                  className={`h-24 border border-neutral-300 p-1 align-top ${
                    day.salonClosure || day.hours.length === 0 ? "bg-neutral-100" : ""
                  } ${day.today ? "outline outline-2 outline-brand-700" : ""}`}
                >
                  <DayLink
                    data={data}
                    day={day}
                    className="font-bold text-brand-700 underline underline-offset-2"
                  />
                  <DayBody day={day} />
                </td>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: the empty cells of a week have no other key
                <td key={`empty-${index}`} className="border border-neutral-200" />
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MonthList({ data }: { data: SchedulePageData }) {
  return (
    <ol className="flex flex-col gap-2 sm:hidden" aria-label={`${data.monthLabel}の勤務`}>
      {data.days.map((day) => (
        <li
          key={day.date}
          className={`rounded-lg border border-neutral-300 p-2 ${
            day.salonClosure || day.hours.length === 0 ? "bg-neutral-100" : ""
          }`}
        >
          {data.readOnly ? (
            <span className="font-bold">
              {day.label}
              {day.today ? "（今日）" : ""}
            </span>
          ) : (
            <a href={dayHref(data, day.date)} className="font-bold text-brand-700 underline">
              {day.label}
              {day.today ? "（今日）" : ""}
            </a>
          )}
          <DayBody day={day} />
        </li>
      ))}
    </ol>
  );
}

function Picker({ data }: { data: SchedulePageData }) {
  const staffQuery = data.selected ? `staff=${data.selected.id}&` : "";
  return (
    <div className="flex flex-wrap items-end gap-4">
      <Form method="get" className="flex flex-wrap items-end gap-3">
        {data.readOnly ? null : (
          <div className="flex flex-col gap-1">
            <label htmlFor="schedule-staff" className="font-bold">
              スタッフ
            </label>
            <select
              id="schedule-staff"
              name="staff"
              defaultValue={data.selected?.id ?? ""}
              className="rounded-lg border border-neutral-400 px-3 py-2"
            >
              {data.staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                  {s.active ? "" : "（退職）"}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor="schedule-month" className="font-bold">
            月
          </label>
          <input
            id="schedule-month"
            name="month"
            type="month"
            defaultValue={data.month}
            className="rounded-lg border border-neutral-400 px-3 py-2"
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          表示する
        </button>
      </Form>
      <nav aria-label="月の移動" className="flex gap-3">
        <Link to={`?${staffQuery}month=${data.previousMonth}`} className={linkClass}>
          前の月
        </Link>
        <Link to={`?${staffQuery}month=${data.nextMonth}`} className={linkClass}>
          次の月
        </Link>
      </nav>
    </div>
  );
}

/** /owner/salons/{id}/schedules: a stylist's month as the booking engine sees it, and its forms. */
export function SchedulePage({
  data,
  result,
}: {
  data: SchedulePageData;
  result?: ScheduleFormResult;
}) {
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const chosenDate = params.get("date") ?? "";
  // After a conflict the forms keep what was typed and the version they were loaded with, so
  // saving again is refused too until the latest is opened (the admin editor's way).
  const version =
    result && !result.ok && result.conflict && typeof result.version === "number"
      ? result.version
      : data.salon.version;
  return (
    <OwnerPage title="勤務表">
      <div className="flex flex-col gap-6">
        {data.done && !result && doneMessages[data.done] ? (
          <Notice tone="ok">
            <p className="font-bold">{doneMessages[data.done]}</p>
          </Notice>
        ) : null}
        {result?.ok ? (
          <Notice tone="warn">
            <p className="font-bold">
              変更を保存しました。次の{result.stranded.length}
              件の予約が勤務時間の外に残っています。予約を移動するか、キャンセルしてください。
            </p>
            <StrandedList bookings={result.stranded} />
          </Notice>
        ) : null}
        {result && !result.ok && result.stranded ? (
          <Notice tone="warn">
            <p className="font-bold">
              変更できません。次の{result.stranded.length}
              件の予約が勤務時間の外に残ります。先に予約を移動・キャンセルするか、「予約が残っていても変更する」を選んで保存してください。
            </p>
            <StrandedList bookings={result.stranded} />
          </Notice>
        ) : null}
        {result && !result.ok && result.conflict ? (
          <Notice tone="warn">
            <p className="font-bold">{result.errors.form}</p>
            <a
              href={`?${new URLSearchParams({ ...(data.selected ? { staff: data.selected.id } : {}), month: data.month })}`}
              className={linkClass}
            >
              最新の内容を開く
            </a>
          </Notice>
        ) : null}
        {data.readOnly && data.ownRequests ? (
          <OwnRequests requests={data.ownRequests} today={data.today} result={result} busy={busy} />
        ) : null}
        {!data.readOnly ? (
          <PendingRequests
            requests={data.requests ?? []}
            result={result}
            month={data.month}
            staffId={data.selected?.id ?? null}
            busy={busy}
          />
        ) : null}
        <Picker data={data} />
        {data.selected ? (
          <section aria-labelledby="month-heading" className="flex flex-col gap-3">
            <h2 id="month-heading" className="text-xl font-bold">
              {data.selected.name}さんの{data.monthLabel}
            </h2>
            <p className="text-sm text-neutral-700">
              表示は予約受付と同じ計算です（サロンの営業時間・定休日・臨時休業・祝日の設定と、スタッフの勤務パターン・休みを重ねた時間）。
            </p>
            <MonthTable data={data} />
            <MonthList data={data} />
          </section>
        ) : (
          <p>スタッフがまだ登録されていません。先にスタッフを登録してください。</p>
        )}
        {data.selected && !data.readOnly ? (
          <>
            <ExceptionForms
              data={data}
              result={result}
              version={version}
              date={chosenDate}
              busy={busy}
            />
            <PatternForms data={data} result={result} version={version} busy={busy} />
          </>
        ) : null}
        {!data.readOnly ? (
          <section aria-labelledby="salon-heading" className="flex flex-col gap-4">
            <h2 id="salon-heading" className="text-xl font-bold">
              サロン全体の休業
            </h2>
            <ClosureForms
              data={data}
              result={result}
              version={version}
              date={chosenDate}
              busy={busy}
            />
            <HolidayRuleForm data={data} result={result} version={version} busy={busy} />
            <OpeningHoursForm data={data} result={result} version={version} busy={busy} />
          </section>
        ) : null}
      </div>
    </OwnerPage>
  );
}
