import type { ReactNode } from "react";
import { Form } from "react-router";
import { formatDate } from "../../../common/format";
import { scheduleExceptionLabels } from "../../../common/salon-parts";
import type { ScheduleFormResult } from "../../../server/owner/schedules.server";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import {
  PatternFields,
  ScheduleChangeFields,
  scheduleKindHint,
} from "../salon-editor/schedule-fields";
import { rangeText, WeekGrid } from "../salon-editor/week-grid";
import type { SchedulePageData } from "./schedule-page";

/**
 * The 勤務表's forms: each posts its `intent` with the salon's version (a
 * second person's save in between is refused, as in the admin editor) and
 * the 「予約が残っていても変更する」 box; a refusal keeps what was typed.
 */

type FormProps = {
  data: SchedulePageData;
  result: ScheduleFormResult | undefined;
  version: number;
  busy: boolean;
};

const kindLabels = scheduleExceptionLabels;

/** The refusal of the form named `name`, with its typed values and messages. */
export function stateOf(result: ScheduleFormResult | undefined, name: string) {
  const refusal = result && !result.ok && result.form === name ? result : null;
  return {
    errors: refusal?.errors ?? {},
    value: (key: string, stored: string | null | undefined = "") => {
      const typed = refusal?.values[key];
      return typeof typed === "string" ? typed : (stored ?? "");
    },
    forced: refusal?.values.force === "on",
    key: refusal ? JSON.stringify(refusal.errors) : "fresh",
  };
}

function Hidden({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function Force({ id, checked }: { id: string; checked: boolean }) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="checkbox" name="force" defaultChecked={checked} className="size-5" />
      <label htmlFor={id} className="text-sm">
        予約が残っていても変更する（勤務時間の外になる予約は、保存後に一覧で表示します）
      </label>
    </div>
  );
}

function ScheduleForm({
  name,
  intent,
  hidden,
  data,
  version,
  busy,
  result,
  children,
  submitLabel,
  force = true,
  headingId,
  heading,
}: FormProps & {
  name: string;
  intent: string;
  hidden: Record<string, string>;
  children?: ReactNode;
  submitLabel: string;
  force?: boolean;
  headingId: string;
  heading: string;
}) {
  const state = stateOf(result, name);
  const fields = {
    intent,
    version: String(version),
    month: data.month,
    ...(data.selected ? { staffId: data.selected.id } : {}),
    ...hidden,
  };
  return (
    <Form
      method="post"
      noValidate
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-4"
      key={state.key}
    >
      <h3 id={headingId} className="font-bold">
        {heading}
      </h3>
      <ErrorSummary errors={state.errors} />
      <Hidden fields={fields} />
      {children}
      {force ? <Force id={`${headingId}-force`} checked={state.forced} /> : null}
      <div>
        <button type="submit" className={buttonClass} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

function RowButton({
  props,
  intent,
  hidden,
  label,
  name,
}: {
  props: FormProps;
  intent: string;
  hidden: Record<string, string>;
  label: string;
  name: string;
}) {
  const fields = {
    intent,
    version: String(props.version),
    month: props.data.month,
    ...(props.data.selected ? { staffId: props.data.selected.id } : {}),
    ...hidden,
  };
  return (
    <Form method="post" className="inline">
      <Hidden fields={fields} />
      <button
        type="submit"
        className={secondaryButtonClass}
        disabled={props.busy}
        aria-label={`${name}を${label}`}
      >
        {label}
      </button>
    </Form>
  );
}

/** The stylist's dated exceptions of the month, and the form to add one (the chosen day's). */
export function ExceptionForms(props: FormProps & { date: string }) {
  const { data, result } = props;
  const state = stateOf(result, "exception");
  const rows = data.days.flatMap((day) => day.exceptions.map((e) => ({ ...e, date: day.date })));
  return (
    <section id="day-forms" aria-labelledby="exceptions-heading" className="flex flex-col gap-4">
      <h2 id="exceptions-heading" className="text-xl font-bold">
        {data.selected?.name}さんの休み・勤務時間の変更
      </h2>
      {rows.length === 0 ? (
        <p>この月の登録はありません。</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rows.map((row) => {
            const text = `${formatDate(row.date)} ${kindLabels[row.kind]}${
              row.startsAt ? ` ${row.startsAt}〜${row.endsAt}` : ""
            }`;
            return (
              <li key={row.id} className="flex flex-wrap items-center gap-3">
                <span>
                  {text}
                  {row.note ? `（${row.note}）` : ""}
                </span>
                <RowButton
                  props={props}
                  intent="exception-delete"
                  hidden={{ exceptionId: row.id }}
                  label="削除"
                  name={text}
                />
              </li>
            );
          })}
        </ul>
      )}
      <ScheduleForm
        {...props}
        name="exception"
        intent="exception-add"
        hidden={{}}
        headingId="exception-new-heading"
        heading="休み・勤務時間の変更・臨時出勤を登録"
        submitLabel="登録する"
      >
        <TextField
          id="exception-date"
          name="date"
          type="date"
          label="日付"
          required
          min={data.today}
          defaultValue={state.value("date", props.date)}
          error={state.errors.date}
        />
        <ScheduleChangeFields
          idPrefix="exception"
          state={state}
          noteMax={100}
          kindHint={scheduleKindHint}
        />
      </ScheduleForm>
    </section>
  );
}

/** The stylist's weekly patterns (each with its validity), and a new one. */
export function PatternForms(props: FormProps) {
  const { data } = props;
  const patterns = data.selected?.patterns ?? [];
  const latest = patterns.at(-1) ?? null;
  const forms = [
    ...patterns.map((p) => ({ key: p.key, pattern: p })),
    { key: "new", pattern: null },
  ];
  return (
    <section aria-labelledby="patterns-heading" className="flex flex-col gap-4">
      <h2 id="patterns-heading" className="text-xl font-bold">
        {data.selected?.name}さんの勤務パターン（毎週）
      </h2>
      {patterns.length === 0 ? (
        <p>勤務パターンがまだありません。登録するまで、このスタッフは予約を受けられません。</p>
      ) : null}
      {forms.map(({ key, pattern }) => {
        const name = `schedule:${key}`;
        const state = stateOf(props.result, name);
        const prefix = `pattern-${key.replace(/[^0-9a-z]/g, "") || "open"}`;
        const source = pattern ?? latest;
        const heading = pattern ? `勤務パターン（${rangeText(pattern)}）` : "新しい勤務パターン";
        return (
          <div key={key} className="flex flex-col gap-2">
            <ScheduleForm
              {...props}
              name={name}
              intent="schedule-save"
              hidden={{ pattern: key }}
              headingId={`${prefix}-heading`}
              heading={heading}
              submitLabel={pattern ? "このパターンを保存" : "パターンを追加"}
            >
              <PatternFields
                prefix={prefix}
                isNew={!pattern}
                validFrom={pattern?.validFrom}
                validUntil={pattern?.validUntil}
                source={source}
                state={state}
              />
            </ScheduleForm>
            {pattern ? (
              <div>
                <RowButton
                  props={props}
                  intent="schedule-delete"
                  hidden={{ pattern: key }}
                  label="削除"
                  name={heading}
                />
              </div>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}

/** 臨時休業 of the month (removable) and a form to add one. */
export function ClosureForms(props: FormProps & { date: string }) {
  const { data } = props;
  const state = stateOf(props.result, "closure");
  const closures = data.days.filter((d) => d.closureId);
  return (
    <div className="flex flex-col gap-3">
      <h3 className="font-bold">臨時休業（{data.monthLabel}）</h3>
      {closures.length === 0 ? (
        <p>この月の臨時休業はありません。</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {closures.map((day) => (
            <li key={day.date} className="flex flex-wrap items-center gap-3">
              <span>
                {day.label}
                {day.closureNote ? `（${day.closureNote}）` : ""}
              </span>
              <RowButton
                props={props}
                intent="closure-delete"
                hidden={{ exceptionId: day.closureId ?? "" }}
                label="削除"
                name={`${day.label}の臨時休業`}
              />
            </li>
          ))}
        </ul>
      )}
      <ScheduleForm
        {...props}
        name="closure"
        intent="closure-add"
        hidden={{}}
        headingId="closure-new-heading"
        heading="臨時休業を登録（すべてのスタッフが休み）"
        submitLabel="臨時休業にする"
      >
        <TextField
          id="closure-date"
          name="date"
          type="date"
          label="日付"
          required
          min={data.today}
          defaultValue={state.value("date", props.date)}
          error={state.errors.date}
        />
        <TextField
          id="closure-note"
          name="note"
          label="メモ（任意）"
          maxLength={100}
          defaultValue={state.value("note")}
          error={state.errors.note}
        />
      </ScheduleForm>
    </div>
  );
}

/** 祝日は休業: the public-holiday rule. */
export function HolidayRuleForm(props: FormProps) {
  const state = stateOf(props.result, "holiday");
  const checked =
    state.key === "fresh" ? props.data.closedOnHolidays : state.value("closedOnHolidays") === "on";
  return (
    <ScheduleForm
      {...props}
      name="holiday"
      intent="holiday-rule"
      hidden={{}}
      headingId="holiday-heading"
      heading="祝日の営業"
      submitLabel="保存する"
    >
      <div className="flex items-center gap-2">
        <input
          id="holiday-closed"
          type="checkbox"
          name="closedOnHolidays"
          defaultChecked={checked}
          className="size-5"
        />
        <label htmlFor="holiday-closed">祝日（振替休日を含む）は休業する</label>
      </div>
    </ScheduleForm>
  );
}

/** The weekly opening hours; a weekday left empty is a 定休日. */
export function OpeningHoursForm(props: FormProps) {
  const state = stateOf(props.result, "hours");
  return (
    <ScheduleForm
      {...props}
      name="hours"
      intent="hours-save"
      hidden={{}}
      headingId="hours-heading"
      heading="営業時間・定休日（毎週）"
      submitLabel="営業時間を保存"
    >
      <p className="text-sm">時間を入れない曜日は定休日になります。</p>
      <WeekGrid
        prefix="hours"
        value={state.value}
        errors={state.errors}
        stored={(weekday, index) => {
          const i = props.data.openingHours.filter((x) => x.weekday === weekday)[index];
          return i ? { start: i.start, end: i.end } : undefined;
        }}
      />
    </ScheduleForm>
  );
}
