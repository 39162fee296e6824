import { parseDate } from "@internationalized/date";
import { useEffect, useMemo, useState } from "react";
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
  Heading,
  I18nProvider,
} from "react-aria-components";
import { Link, useNavigate } from "react-router";
import { formatLocalDate, weekdayLetters, weekdayOf } from "../../lib/booking-format";

export type DayOption = {
  /** "YYYY-MM-DD" in the salon's time zone. */
  date: string;
  holiday: boolean;
  /** The public holiday's name (勤労感謝の日), when `holiday`. */
  holidayName?: string | null;
  /** At least one free start time that day. */
  available: boolean;
};

type Props = {
  /** Every bookable-range day in order, from today to the end of the booking window. */
  days: DayOption[];
  selected: string | null;
  /** The URL that shows a day's times (the flow is driven by the URL). */
  hrefFor: (date: string) => string;
  headingId: string;
};

/** Weekend colours; the weekday letter and 祝 say the same in text. */
function dayTone(date: string, holiday: boolean) {
  const weekday = weekdayOf(date);
  if (holiday || weekday === 0) return "text-red-700";
  if (weekday === 6) return "text-blue-700";
  return "";
}

/**
 * The day step. Without JavaScript (and before hydration) it is a month
 * table of links, one per day with free times; once JavaScript runs, React
 * Aria's Calendar (ja-JP) replaces it, with the days without free times
 * unavailable, and picking a day follows the same link.
 */
export function DayPicker(props: Props) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return (
    <div>
      <p className="text-sm text-neutral-700">
        <span className="text-blue-700">土</span>＝土曜日、
        <span className="text-red-700">日</span>＝日曜日、
        <span className="text-red-700">祝</span>
        ＝祝日。空きのない日は選べません（<span className="line-through">斜線</span>）。
      </p>
      {enhanced ? <AriaDayPicker {...props} /> : <DayLinks {...props} />}
      <HolidayList days={props.days} />
    </div>
  );
}

function AriaDayPicker({ days, selected, hrefFor }: Props) {
  const navigate = useNavigate();
  const byDate = useMemo(() => new Map(days.map((day) => [day.date, day])), [days]);
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  const firstAvailable = days.find((day) => day.available)?.date;
  if (!first || !last) return null;
  const focus = selected ?? firstAvailable ?? first;
  return (
    <I18nProvider locale="ja-JP">
      <Calendar
        aria-label="ご来店日"
        className="mt-3 w-full max-w-sm"
        value={selected ? parseDate(selected) : null}
        defaultFocusedValue={parseDate(focus)}
        minValue={parseDate(first)}
        maxValue={parseDate(last)}
        isDateUnavailable={(date) => !byDate.get(date.toString())?.available}
        onChange={(date) =>
          navigate(hrefFor(date.toString()), { preventScrollReset: true, replace: false })
        }
      >
        <header className="flex items-center justify-between gap-2">
          <Button
            slot="previous"
            // React Aria names the slot's button 前へ/次へ, over any text inside it.
            aria-label="前の月"
            className="rounded-lg border border-neutral-400 px-3 py-1 disabled:opacity-40"
          >
            <span aria-hidden="true">‹</span>
          </Button>
          <Heading className="text-lg font-bold" />
          <Button
            slot="next"
            // React Aria names the slot's button 前へ/次へ, over any text inside it.
            aria-label="次の月"
            className="rounded-lg border border-neutral-400 px-3 py-1 disabled:opacity-40"
          >
            <span aria-hidden="true">›</span>
          </Button>
        </header>
        <CalendarGrid className="mt-2 w-full border-collapse" weekdayStyle="narrow">
          <CalendarGridHeader>
            {(day) => (
              <CalendarHeaderCell
                className={`py-1 text-sm font-bold ${day === "日" ? "text-red-700" : day === "土" ? "text-blue-700" : ""}`}
              >
                {day}
              </CalendarHeaderCell>
            )}
          </CalendarGridHeader>
          <CalendarGridBody>
            {(date) => {
              const day = byDate.get(date.toString());
              return (
                <CalendarCell
                  date={date}
                  className={({
                    isSelected,
                    isUnavailable,
                    isDisabled,
                    isOutsideMonth,
                    isFocusVisible,
                  }) =>
                    [
                      "m-0.5 flex h-11 flex-col items-center justify-center rounded-lg text-sm",
                      isOutsideMonth ? "invisible" : "",
                      isSelected
                        ? "bg-brand-700 font-bold text-white"
                        : isUnavailable || isDisabled
                          ? "text-neutral-500 line-through"
                          : `cursor-pointer border border-brand-700 font-bold hover:bg-brand-50 ${dayTone(date.toString(), day?.holiday ?? false)}`,
                      isFocusVisible ? "outline-2 outline-offset-2 outline-brand-700" : "",
                    ].join(" ")
                  }
                >
                  {({ formattedDate }) => (
                    // The 祝 mark is drawn by CSS so the cell's visible text stays its
                    // date, as React Aria's label says; the holidays are listed below in words.
                    <span
                      data-holiday={day?.holiday ? "" : undefined}
                      className="flex flex-col items-center leading-tight data-[holiday]:after:text-[10px] data-[holiday]:after:content-['祝']"
                    >
                      {formattedDate}
                    </span>
                  )}
                </CalendarCell>
              );
            }}
          </CalendarGridBody>
        </CalendarGrid>
      </Calendar>
    </I18nProvider>
  );
}

/** Months of the range as tables of day links, for browsers without JavaScript. */
function DayLinks({ days, selected, hrefFor }: Props) {
  const months = new Map<string, DayOption[]>();
  for (const day of days) {
    const key = day.date.slice(0, 7);
    months.set(key, [...(months.get(key) ?? []), day]);
  }
  return (
    <div className="mt-3 flex flex-col gap-6">
      {[...months].map(([month, list]) => {
        const [y, m] = month.split("-").map(Number);
        const lead = weekdayOf(list[0]?.date ?? `${month}-01`);
        const cells: (DayOption | null)[] = [...Array(lead).fill(null), ...list];
        const weeks: (DayOption | null)[][] = [];
        for (let index = 0; index < cells.length; index += 7)
          weeks.push(cells.slice(index, index + 7));
        return (
          <table key={month} className="w-full max-w-sm border-collapse text-center">
            <caption className="text-left text-lg font-bold">
              {y}年{m}月
            </caption>
            <thead>
              <tr>
                {weekdayLetters.map((letter, index) => (
                  <th
                    key={letter}
                    scope="col"
                    className={`py-1 text-sm ${index === 0 ? "text-red-700" : index === 6 ? "text-blue-700" : ""}`}
                  >
                    {letter}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week.find(Boolean)?.date}>
                  {Array.from({ length: 7 }, (_, index) => {
                    const day = week[index];
                    if (!day) return <td key={weekdayLetters[index]} />;
                    const dayNumber = Number(day.date.slice(8));
                    const label = `${formatLocalDate(day.date, false)}${day.holiday ? "（祝日）" : ""}`;
                    return (
                      <td key={day.date} className="p-0.5">
                        {day.available ? (
                          <Link
                            to={hrefFor(day.date)}
                            preventScrollReset
                            aria-current={day.date === selected ? "date" : undefined}
                            className={`flex h-11 flex-col items-center justify-center rounded-lg border border-brand-700 text-sm font-bold ${day.date === selected ? "bg-brand-700 text-white" : `hover:bg-brand-50 ${dayTone(day.date, day.holiday)}`}`}
                          >
                            <span className="sr-only">{`${label} 空きあり`}</span>
                            <span aria-hidden="true">{dayNumber}</span>
                            {day.holiday ? (
                              <span aria-hidden="true" className="text-[10px] leading-none">
                                祝
                              </span>
                            ) : null}
                          </Link>
                        ) : (
                          <span className="flex h-11 flex-col items-center justify-center text-sm text-neutral-500 line-through">
                            <span className="sr-only">{`${label} 空きなし`}</span>
                            <span aria-hidden="true">{dayNumber}</span>
                            {day.holiday ? (
                              <span aria-hidden="true" className="text-[10px] leading-none">
                                祝
                              </span>
                            ) : null}
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </div>
  );
}

/** The public holidays of the range in words, so the 祝 marks are not colour or symbol alone. */
function HolidayList({ days }: { days: DayOption[] }) {
  const holidays = days.filter((day) => day.holiday);
  if (holidays.length === 0) return null;
  return (
    <p className="mt-2 text-sm text-neutral-700">
      この期間の祝日：
      {holidays
        .map(
          (day) =>
            `${formatLocalDate(day.date, false)}${day.holidayName ? ` ${day.holidayName}` : ""}`,
        )
        .join("、")}
    </p>
  );
}
