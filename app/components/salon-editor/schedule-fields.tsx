import { scheduleExceptionLabels } from "../../../common/salon-parts";
import { SelectField, TextField } from "../form/field";
import { WeekGrid } from "./week-grid";

/**
 * The fields of a stylist's schedule, one set for both doors: the salon
 * editor's スタッフ tab (administrator, owner) and the 勤務表 (owner,
 * manager), whose writers read them alike. Each door wraps them in its own
 * form (the editor's version check; the 勤務表's 「予約が残っていても変更する」).
 */

type FieldState = {
  /** What was typed (after a refusal), else the stored value. */
  value: (key: string, stored?: string | null) => string;
  errors: Record<string, string | undefined>;
};

type PatternInterval = { weekday: number; startsAt: string; endsAt: string };

/** A weekly pattern: its validity and each weekday's hours (a new one starts from `source`'s). */
export function PatternFields({
  prefix,
  isNew,
  validFrom,
  validUntil,
  source,
  state,
}: {
  prefix: string;
  isNew: boolean;
  validFrom: string | null | undefined;
  validUntil: string | null | undefined;
  /** The pattern whose hours fill the grid: the pattern itself, or the latest one for a new pattern. */
  source: { intervals: readonly PatternInterval[] } | null;
  state: FieldState;
}) {
  return (
    <>
      {isNew ? (
        <p className="text-sm">
          適用開始日を入れると、その日から新しいパターンに切り替わり、それまでのパターンは前日で終わります。
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${prefix}-from`}
          name="validFrom"
          type="date"
          label="適用開始日"
          hint="空欄は開始日なし"
          defaultValue={state.value("validFrom", validFrom)}
          error={state.errors.validFrom}
        />
        <TextField
          id={`${prefix}-until`}
          name="validUntil"
          type="date"
          label="適用終了日"
          hint="空欄は終了日なし"
          defaultValue={state.value("validUntil", validUntil)}
          error={state.errors.validUntil}
        />
      </div>
      <p className="text-sm text-neutral-700">
        勤務しない曜日は空欄のままにします。休憩は、時間帯を分けて入力します（例：10:00〜13:00 と
        14:00〜19:00）。
      </p>
      <WeekGrid
        prefix={prefix}
        value={state.value}
        errors={state.errors}
        stored={(weekday, index) => {
          const interval = source?.intervals.filter((i) => i.weekday === weekday)[index];
          return interval ? { start: interval.startsAt, end: interval.endsAt } : undefined;
        }}
      />
    </>
  );
}

/**
 * What a dated change of one day says — its kind, the hours (blank for a day
 * off) and a note —, for the スタッフ tab's and the 勤務表's exception forms and
 * a stylist's request (schedule-requests.tsx), which the exception writer reads alike.
 */
export function ScheduleChangeFields({
  idPrefix,
  state,
  noteMax,
  kindHint,
}: {
  idPrefix: string;
  state: FieldState;
  noteMax: number;
  kindHint?: string;
}) {
  return (
    <>
      <SelectField
        id={`${idPrefix}-kind`}
        name="kind"
        label="種類"
        required
        options={Object.entries(scheduleExceptionLabels).map(([value, label]) => ({
          value,
          label,
        }))}
        defaultValue={state.value("kind", "closed")}
        error={state.errors.kind}
        hint={kindHint}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${idPrefix}-start`}
          name="startsAt"
          type="time"
          step={300}
          label="開始時刻（休みは空欄）"
          defaultValue={state.value("startsAt")}
          error={state.errors.startsAt}
        />
        <TextField
          id={`${idPrefix}-end`}
          name="endsAt"
          type="time"
          step={300}
          label="終了時刻（休みは空欄）"
          defaultValue={state.value("endsAt")}
          error={state.errors.endsAt}
        />
      </div>
      <TextField
        id={`${idPrefix}-note`}
        name="note"
        label="メモ（任意）"
        maxLength={noteMax}
        defaultValue={state.value("note")}
        error={state.errors.note}
      />
    </>
  );
}

/** The hint under the kind: what each kind does to the day. */
export const scheduleKindHint =
  "勤務時間の変更はその日の勤務時間を置き換え、臨時出勤は休みの曜日に勤務を加えます。";
