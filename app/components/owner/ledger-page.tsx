import { type CSSProperties, createContext, type ReactNode, useContext } from "react";
import { Form, Link } from "react-router";
import { formatDate, formatMonthDayWeekday, formatYen } from "../../../common/format";
import type {
  LedgerColumn,
  LedgerDay,
  LedgerEntry,
  LedgerPage as LedgerPageData,
  LedgerSpan,
  LedgerView,
  LedgerWeek,
} from "../../../server/owner/ledger.server";
import { ScrollRegion } from "../scroll-region";
import { LedgerWaitlist } from "./ledger-waitlist";
import { OwnerPage } from "./owner-frame";
import { useLedgerLive } from "./use-ledger-live";

/**
 * /owner/salons/{id}/bookings (issue 28, point 3; decision 0038). The day is
 * one ordered list per stylist: without CSS or JavaScript, and on a phone,
 * it reads as lists of times; from 600 px (the site's sm breakpoint, so on a
 * 768 px tablet) the same DOM is laid out as
 * columns on a 15-minute time axis (CSS grid rows set per item), scrolled
 * sideways inside a labelled, focusable region. Every booking, hold and
 * block is a link to its page, every free spot a link to enter a booking.
 */

const linkClass = "font-bold text-brand-700 underline underline-offset-4";
/** Height of one 15-minute row of the grid. */
const ROW_REM = 1.5;

const ledgerPath = (salonId: string, date: string, view: LedgerView = "day") =>
  `/owner/salons/${salonId}/bookings?${new URLSearchParams(
    view === "week" ? { view, date } : { date },
  )}`;
const bookingPath = (salonId: string, id: string) => `/owner/salons/${salonId}/bookings/${id}`;
const newBookingPath = (salonId: string, staffId: string, date: string, time?: string) =>
  `/owner/salons/${salonId}/bookings/new?${new URLSearchParams({
    staff: staffId,
    date,
    ...(time ? { time } : {}),
  })}`;

/**
 * Whether the person may enter bookings (bookings.enter): a stylist reads
 * their column without the links to enter one (decision 0045).
 */
const CanEnter = createContext(true);

const sourceLabels: Record<string, string> = {
  web: "ネット",
  phone: "電話",
  walk_in: "当日来店",
};

function Nav({
  salonId,
  view,
  date,
  previous,
  next,
  today,
  typed,
}: {
  salonId: string;
  view: LedgerView;
  date: string;
  previous: string;
  next: string;
  today: string;
  typed?: string;
}) {
  const week = view === "week";
  const button =
    "inline-block rounded-lg border border-neutral-400 px-3 py-1.5 font-bold text-neutral-900 hover:bg-neutral-100";
  return (
    <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
      <nav aria-label="日付の移動">
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link to={ledgerPath(salonId, previous, view)} className={button}>
              {week ? "前の週" : "前日"}
            </Link>
          </li>
          <li>
            <Link to={ledgerPath(salonId, today, view)} className={button}>
              今日
            </Link>
          </li>
          <li>
            <Link to={ledgerPath(salonId, next, view)} className={button}>
              {week ? "次の週" : "翌日"}
            </Link>
          </li>
        </ul>
      </nav>
      <nav aria-label="表示の切り替え">
        <ul className="flex gap-2">
          {(["day", "week"] as const).map((v) => (
            <li key={v}>
              <Link
                to={ledgerPath(salonId, date, v)}
                aria-current={v === view ? "page" : undefined}
                className={`inline-block rounded-lg border px-3 py-1.5 font-bold ${
                  v === view
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 text-neutral-900 hover:bg-neutral-100"
                }`}
              >
                {v === "day" ? "日" : "週"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form
        method="get"
        action={`/owner/salons/${salonId}/bookings`}
        className="flex flex-wrap items-end gap-2"
        aria-label="日付を指定して表示"
      >
        {week ? <input type="hidden" name="view" value="week" /> : null}
        <div className="flex flex-col">
          <label htmlFor="ledger-date" className="text-sm font-bold">
            日付を指定
          </label>
          <input
            id="ledger-date"
            type="date"
            name="date"
            defaultValue={typed ?? date}
            aria-describedby={typed !== undefined ? "ledger-date-error" : undefined}
            aria-invalid={typed !== undefined ? true : undefined}
            className="rounded-lg border border-neutral-400 px-2 py-1.5"
          />
        </div>
        <button type="submit" className={button}>
          表示
        </button>
      </Form>
    </div>
  );
}

function StaffMark({ requested }: { requested: boolean }) {
  return (
    <span
      className={`inline-block rounded border px-1 text-xs font-bold ${
        requested ? "border-brand-700 text-brand-700" : "border-neutral-500 text-neutral-700"
      }`}
    >
      {requested ? "指名" : "指名なし"}
    </span>
  );
}

function Times({ span }: { span: LedgerSpan }) {
  return (
    <>
      {span.startTime}〜{span.endTime}
    </>
  );
}

/** Where an item sits on the grid (ignored by the list layout below 600 px). */
function rows(day: LedgerDay, span: { startMinutes: number; endMinutes: number }): CSSProperties {
  const step = day.axis.stepMinutes;
  const first = Math.floor((span.startMinutes - day.axis.startMinutes) / step) + 1;
  const last = Math.ceil((span.endMinutes - day.axis.startMinutes) / step) + 1;
  return { gridRow: `${Math.max(first, 1)} / ${Math.max(last, first + 1)}` };
}

/** A line at each whole hour of a column: one background instead of an element per hour. */
const hourLines: CSSProperties = {
  backgroundImage: "linear-gradient(to bottom, var(--color-neutral-400) 1px, transparent 1px)",
  backgroundSize: `100% ${ROW_REM * 4}rem`,
};

/** The whole hours of the axis, as minutes after midnight. */
function hoursOf(day: LedgerDay): number[] {
  const hours: number[] = [];
  for (let m = day.axis.startMinutes; m < day.axis.endMinutes; m += 60) hours.push(m);
  return hours;
}

const entryStyle = (entry: LedgerEntry) =>
  entry.kind === "block"
    ? "border-neutral-500 bg-neutral-200 text-neutral-900"
    : entry.status === "held"
      ? "border-dashed border-brand-600 bg-white text-neutral-900"
      : entry.pending
        ? "border-dashed border-amber-700 bg-amber-50 text-neutral-900"
        : entry.status === "completed"
          ? "border-neutral-400 bg-neutral-100 text-neutral-900"
          : "border-brand-700 bg-brand-50 text-neutral-900";

function EntryLink({ salonId, entry }: { salonId: string; entry: LedgerEntry }) {
  const block = entry.kind === "block";
  // Most telling first, so a 30-minute block still shows time, status and
  // name and a 45-minute one the price too (issue 38, §1.10: the kana above it
  // pushed it out); what does not fit is clipped in the grid (the list shows it all).
  return (
    <Link
      to={bookingPath(salonId, entry.id)}
      className={`block h-full overflow-hidden rounded-md border-2 px-1.5 py-0.5 text-xs leading-snug hover:underline focus-visible:relative focus-visible:z-10 focus-visible:overflow-visible ${entryStyle(entry)}`}
    >
      <span className="font-bold">
        <time dateTime={entry.startsAt}>{entry.startTime}</time>〜
        <time dateTime={entry.endsAt}>{entry.endTime}</time>
      </span>{" "}
      {block ? (
        <span className="block text-sm font-bold">ブロック：{entry.label || "予定あり"}</span>
      ) : (
        <>
          <span className="inline-block rounded bg-white px-1 font-bold">{entry.statusLabel}</span>
          <span className="block">
            <span className="text-sm font-bold">{customerOf(entry)}</span>{" "}
            <StaffMark requested={entry.staffRequested} />
          </span>
          <span className="block" data-ledger-price="">
            {formatYen(entry.totalPrice)}・{sourceLabels[entry.source] ?? entry.source}
          </span>
          {entry.customerKana ? <span className="block">{entry.customerKana}</span> : null}
          {entry.menus.length > 0 ? <span className="block">{entry.menus.join("、")}</span> : null}
        </>
      )}
    </Link>
  );
}

/** A hold has no customer yet: a visitor is still in the booking form. */
function customerOf(entry: { status: string; customerName: string }) {
  if (entry.customerName) return `${entry.customerName}様`;
  return entry.status === "held" ? "ネット予約の手続き中" : "（お名前未入力）";
}

type Item =
  | { type: "entry"; at: number; entry: LedgerEntry }
  | { type: "free"; at: number; span: LedgerSpan }
  | { type: "break"; at: number; span: LedgerSpan };

function itemsOf(column: LedgerColumn): Item[] {
  const items: Item[] = [
    ...column.entries.map((entry) => ({ type: "entry" as const, at: entry.startMinutes, entry })),
    ...column.free.map((span) => ({ type: "free" as const, at: span.startMinutes, span })),
    ...column.breaks.map((span) => ({ type: "break" as const, at: span.startMinutes, span })),
  ];
  return items.sort((a, b) => a.at - b.at);
}

function StaffColumn({ day, column }: { day: LedgerDay; column: LedgerColumn }) {
  const canEnter = useContext(CanEnter);
  const headingId = `ledger-staff-${column.staff.id}`;
  const rowCount = (day.axis.endMinutes - day.axis.startMinutes) / day.axis.stepMinutes;
  const gridRows: CSSProperties = { gridTemplateRows: `repeat(${rowCount}, ${ROW_REM}rem)` };
  const items = itemsOf(column);
  const working =
    column.working.length > 0
      ? `勤務 ${column.working.map((s) => `${s.startTime}〜${s.endTime}`).join("、")}`
      : day.scheduleKnown
        ? "休み（勤務予定なし）"
        : "勤務時間は表示できません";
  return (
    <section aria-labelledby={headingId} className="min-w-0">
      <div className="mb-2 sm:h-24 sm:overflow-hidden sm:border-b sm:border-neutral-400">
        <h3 id={headingId} className="text-base font-bold">
          {column.staff.name}
        </h3>
        <p className="text-sm text-neutral-700">{working}</p>
        {canEnter ? (
          <p className="text-sm">
            <Link to={newBookingPath(day.salonId, column.staff.id, day.date)} className={linkClass}>
              予約を入力<span className="sr-only">（{column.staff.name}）</span>
            </Link>
          </p>
        ) : null}
      </div>
      <div className="relative">
        {/* The shading: working time white on grey; hour lines. Decoration only. */}
        <div
          aria-hidden="true"
          className="absolute inset-0 hidden bg-neutral-200 sm:grid"
          style={gridRows}
        >
          {column.working.map((span) => (
            <div
              key={`w${span.startMinutes}`}
              className="col-start-1 bg-white"
              style={rows(day, span)}
            />
          ))}
        </div>
        <div aria-hidden="true" className="absolute inset-0 hidden sm:block" style={hourLines} />
        {items.length === 0 ? (
          <>
            <p className="text-sm text-neutral-700 sm:sr-only">予約はありません</p>
            {/* Keeps an empty column as tall as the others in the grid. */}
            <div aria-hidden="true" className="hidden sm:grid" style={gridRows} />
          </>
        ) : (
          <ol className="relative flex flex-col gap-2 sm:grid sm:gap-0 sm:px-1" style={gridRows}>
            {items.map((item) => {
              if (item.type === "entry") {
                return (
                  <li
                    key={item.entry.id}
                    className="col-start-1 min-h-0 sm:py-px"
                    style={rows(day, item.entry)}
                  >
                    <EntryLink salonId={day.salonId} entry={item.entry} />
                  </li>
                );
              }
              if (item.type === "free" && !canEnter) {
                return (
                  <li
                    key={`f${item.span.startMinutes}`}
                    className="col-start-1 min-h-0 overflow-hidden px-1.5 py-0.5 text-xs text-neutral-700 sm:py-px"
                    style={rows(day, item.span)}
                  >
                    空き <Times span={item.span} />
                  </li>
                );
              }
              if (item.type === "free") {
                return (
                  <li
                    key={`f${item.span.startMinutes}`}
                    className="col-start-1 min-h-0 sm:py-px"
                    style={rows(day, item.span)}
                  >
                    <Link
                      to={newBookingPath(
                        day.salonId,
                        column.staff.id,
                        day.date,
                        item.span.startTime,
                      )}
                      className="block h-full overflow-hidden rounded-md border border-dashed border-neutral-400 px-1.5 py-0.5 text-xs text-neutral-700 hover:bg-brand-50 hover:text-neutral-900"
                    >
                      空き <Times span={item.span} />
                      <span className="sr-only">（{column.staff.name}に予約を入力）</span>
                    </Link>
                  </li>
                );
              }
              return (
                <li
                  key={`b${item.span.startMinutes}`}
                  className="col-start-1 min-h-0 overflow-hidden px-1.5 py-0.5 text-xs text-neutral-700"
                  style={rows(day, item.span)}
                >
                  休憩 <Times span={item.span} />
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </section>
  );
}

function DayView({ day, salonName }: { day: LedgerDay; salonName: string }) {
  const rowCount = (day.axis.endMinutes - day.axis.startMinutes) / day.axis.stepMinutes;
  const title = `${formatDate(day.date)}${day.date === day.today ? "（今日）" : ""}`;
  return (
    <>
      <div>
        <h2 className="text-xl font-bold">
          {title}
          {day.holiday ? (
            <span className="ml-2 rounded bg-red-50 px-2 text-base text-red-700">
              祝日：{day.holiday}
            </span>
          ) : null}
        </h2>
        {day.closed ? (
          <p className="mt-2 rounded-lg border-2 border-neutral-700 bg-neutral-100 p-3 font-bold">
            {day.closed.label}です（{salonName}はこの日、営業時間がありません）。
          </p>
        ) : day.opening.length > 0 ? (
          <p className="mt-1 text-neutral-700">
            営業時間 {day.opening.map((s) => `${s.startTime}〜${s.endTime}`).join("、")}
          </p>
        ) : null}
      </div>
      <section aria-labelledby="ledger-staff-heading" className="flex flex-col gap-3">
        <h2 id="ledger-staff-heading" className="sr-only">
          スタイリスト別の予約
        </h2>
        <StaffJumps day={day} />
        {day.columns.length === 0 ? (
          <p className="rounded-lg bg-neutral-100 p-4">スタイリストが登録されていません。</p>
        ) : (
          <ScrollRegion aria-label={`${formatDate(day.date)}の予約台帳`}>
            <div
              className="flex flex-col gap-6 sm:grid sm:gap-x-1 sm:gap-y-0"
              style={{
                gridTemplateColumns: `3.5rem repeat(${day.columns.length}, minmax(12rem, 1fr))`,
              }}
            >
              {/* The time axis: the list states every time itself, so this is decoration. */}
              <div aria-hidden="true" className="hidden sm:block">
                <div className="h-24 border-b border-neutral-400" />
                <div
                  className="mt-2 grid"
                  style={{ gridTemplateRows: `repeat(${rowCount}, ${ROW_REM}rem)` }}
                >
                  {hoursOf(day).map((minutes) => (
                    <div
                      key={minutes}
                      className="-mt-2 text-right text-xs text-neutral-700"
                      style={rows(day, { startMinutes: minutes, endMinutes: minutes + 60 })}
                    >
                      {String(minutes / 60).padStart(2, "0")}:00
                    </div>
                  ))}
                </div>
              </div>
              {day.columns.map((column) => (
                <StaffColumn key={column.staff.id} day={day} column={column} />
              ))}
            </div>
          </ScrollRegion>
        )}
      </section>
      <section aria-labelledby="ledger-cancelled-heading">
        <h2 id="ledger-cancelled-heading" className="text-lg font-bold">
          {day.cancelledTitle}
        </h2>
        {day.cancelled.length === 0 ? (
          <p className="mt-2 text-neutral-700">キャンセルはありません。</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2">
            {day.cancelled.map((entry) => (
              <li key={entry.id}>
                <Link to={bookingPath(day.salonId, entry.id)} className={linkClass}>
                  <Times span={entry} /> {customerOf(entry)}
                </Link>{" "}
                <span className="text-sm text-neutral-700">
                  {entry.customerKana ? `（${entry.customerKana}）` : ""}
                  {[entry.statusLabel, entry.menus.join("、"), formatYen(entry.totalPrice)]
                    .filter(Boolean)
                    .join("・")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function WeekView({ week }: { week: LedgerWeek }) {
  const headCell = "border-b-2 border-neutral-400 px-2 py-2 text-left align-bottom font-bold";
  const cell = "border-b border-neutral-300 px-2 py-2 align-top";
  return (
    <section aria-labelledby="ledger-week-heading">
      <h2 id="ledger-week-heading" className="text-xl font-bold">
        {formatMonthDayWeekday(week.from)}〜{formatMonthDayWeekday(week.to)}の週
      </h2>
      <ScrollRegion aria-label="週の予約台帳" className="mt-3">
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <caption className="sr-only">スタイリスト別・日別の予約</caption>
          <thead>
            <tr>
              <th scope="col" className={headCell}>
                スタイリスト
              </th>
              {week.days.map((day) => (
                <th key={day.date} scope="col" className={headCell}>
                  <Link to={ledgerPath(week.salonId, day.date)} className={linkClass}>
                    {formatMonthDayWeekday(day.date)}
                  </Link>
                  {day.date === week.today ? <span className="block text-xs">今日</span> : null}
                  {day.holiday ? (
                    <span className="block text-xs text-red-700">祝日：{day.holiday}</span>
                  ) : null}
                  {day.closed ? <span className="block text-xs">{day.closed.label}</span> : null}
                  {day.cancelledCount > 0 ? (
                    <span className="block text-xs font-normal">
                      キャンセル {day.cancelledCount}件
                    </span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {week.staff.map((member, index) => (
              <tr key={member.id}>
                <th scope="row" className={`${cell} text-left font-bold`}>
                  {member.name}
                </th>
                {week.days.map((day) => {
                  const slot = day.perStaff[index];
                  return (
                    <td key={day.date} className={cell}>
                      {slot && slot.entries.length > 0 ? (
                        <>
                          <Link to={ledgerPath(week.salonId, day.date)} className={linkClass}>
                            {slot.count}件
                            <span className="sr-only">
                              （{formatMonthDayWeekday(day.date)}・{member.name}）
                            </span>
                          </Link>
                          <ul className="mt-1">
                            {slot.entries.map((entry) => (
                              <li key={entry.id}>
                                {entry.startTime}{" "}
                                {entry.kind === "block"
                                  ? entry.label || "ブロック"
                                  : entry.status === "held"
                                    ? entry.statusLabel
                                    : customerOf(entry)}
                              </li>
                            ))}
                          </ul>
                        </>
                      ) : (
                        <span className="text-neutral-700">—</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

function Live({
  salonId,
  from,
  to,
  nextExpiry,
}: {
  salonId: string;
  from: string;
  to: string;
  nextExpiry: string | null;
}) {
  const message = useLedgerLive(salonId, from, to, nextExpiry);
  return (
    <p aria-live="polite" className="sr-only">
      {message}
    </p>
  );
}

/** When the first hold shown lapses (ISO 8601), or null. */
function firstHoldExpiry(day: LedgerDay): string | null {
  let first: string | null = null;
  for (const column of day.columns) {
    for (const entry of column.entries) {
      if (entry.holdExpiresAt && (first === null || entry.holdExpiresAt < first)) {
        first = entry.holdExpiresAt;
      }
    }
  }
  return first;
}

/** In-page links to each stylist's list: a keyboard need not tab through every column before. */
function StaffJumps({ day }: { day: LedgerDay }) {
  if (day.columns.length < 2) return null;
  return (
    <nav aria-label="スタイリストへ移動">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {day.columns.map((column) => (
          <li key={column.staff.id}>
            <a href={`#ledger-staff-${column.staff.id}`} className={linkClass}>
              {column.staff.name}
              <span className="sr-only">
                （{column.entries.length}件{column.working.length === 0 ? "、休み" : ""}）
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function LedgerPage({ data }: { data: LedgerPageData }) {
  let body: ReactNode;
  if (data.kind === "invalid") {
    body = (
      <>
        <div
          role="alert"
          id="ledger-date-error"
          className="rounded-lg border-2 border-red-700 bg-red-50 p-3 font-bold text-red-700"
        >
          {data.message}
        </div>
        <Nav
          salonId={data.salon.id}
          view={data.view}
          date={data.today}
          previous={data.today}
          next={data.today}
          today={data.today}
          typed={data.typed}
        />
      </>
    );
  } else {
    const { ledger } = data;
    const day = ledger.view === "day";
    body = (
      <>
        <Live
          salonId={data.salon.id}
          from={day ? ledger.date : ledger.from}
          to={day ? ledger.date : ledger.to}
          nextExpiry={day ? firstHoldExpiry(ledger) : null}
        />
        <Nav
          salonId={data.salon.id}
          view={ledger.view}
          date={ledger.date}
          previous={ledger.previous}
          next={ledger.next}
          today={ledger.today}
        />
        {ledger.view === "day" ? (
          <>
            <DayView day={ledger} salonName={data.salon.name} />
            {data.waitlist ? <LedgerWaitlist entries={data.waitlist} /> : null}
          </>
        ) : (
          <WeekView week={ledger} />
        )}
      </>
    );
  }
  return (
    <OwnerPage title="予約台帳">
      <CanEnter.Provider value={data.canEnter}>{body}</CanEnter.Provider>
    </OwnerPage>
  );
}
