import { Fragment } from "react";
import { formatDate } from "../../../common/format";
import { INTERVALS_PER_DAY, weekdayLabels } from "../../../common/salon-parts";

/** Monday first, as a Japanese salon's week reads. */
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];

/**
 * Weekday × up to three intervals (two make a break): the inputs of a
 * weekly pattern, posted as start-<weekday>-<index> / end-<weekday>-<index>.
 * One grid for the admin スタッフ tab, the 勤務表 and the opening hours.
 */
export function WeekGrid({
  prefix,
  value,
  errors,
  stored,
}: {
  prefix: string;
  /** What was typed (after a refusal), else the stored value. */
  value: (key: string, stored?: string | null) => string;
  errors: Record<string, string | undefined>;
  stored: (weekday: number, index: number) => { start: string; end: string } | undefined;
}) {
  return (
    <div className="flex flex-col gap-3">
      {WEEKDAYS.map((weekday) => {
        const dayLabel = `${weekdayLabels[weekday]}曜日`;
        const dayError = errors[`day-${weekday}`];
        const errorId = `${prefix}-day-${weekday}-error`;
        return (
          <fieldset
            key={weekday}
            className="flex flex-col gap-2 border-t border-neutral-200 pt-2"
            aria-describedby={dayError ? errorId : undefined}
          >
            <legend className="font-bold">{dayLabel}</legend>
            {dayError ? (
              <p id={errorId} className="text-sm font-bold text-red-700">
                {dayError}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {Array.from({ length: INTERVALS_PER_DAY }, (_, index) => {
                const interval = stored(weekday, index);
                const text = `${dayLabel} 時間帯${index + 1}`;
                return (
                  <div key={text} className="flex items-center gap-1">
                    {(["start", "end"] as const).map((end) => {
                      const name = `${end}-${weekday}-${index}`;
                      return (
                        <Fragment key={end}>
                          {end === "end" ? <span aria-hidden="true">〜</span> : null}
                          <label htmlFor={`${prefix}-${name}`} className="sr-only">
                            {text}の{end === "start" ? "開始" : "終了"}
                          </label>
                          <input
                            id={`${prefix}-${name}`}
                            name={name}
                            type="time"
                            step={300}
                            defaultValue={value(name, interval?.[end])}
                            aria-invalid={dayError ? true : undefined}
                            className="rounded-lg border border-neutral-400 px-2 py-1"
                          />
                        </Fragment>
                      );
                    })}
                  </div>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}

/** A weekly pattern's validity in words: 2026年12月1日(火) 〜 終了日なし. */
export function rangeText(pattern: { validFrom: string | null; validUntil: string | null }) {
  if (!pattern.validFrom && !pattern.validUntil) return "期間の定めなし";
  return `${pattern.validFrom ? formatDate(pattern.validFrom) : "開始日なし"} 〜 ${
    pattern.validUntil ? formatDate(pattern.validUntil) : "終了日なし"
  }`;
}
