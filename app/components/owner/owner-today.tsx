import type { ReactNode } from "react";
import { Link } from "react-router";
import type {
  BookingNotice,
  PendingApproval,
  StylistCapacity,
  TodayBooking,
  TodayView,
} from "../../../server/owner/today.server";
import { ScrollRegion } from "../scroll-region";
import { OwnerPage } from "./owner-frame";

const sourceLabels: Record<string, string> = {
  web: "ネット予約",
  phone: "電話予約",
  walk_in: "当日来店",
};

const noticeLabels: Record<BookingNotice["kind"], string> = {
  created: "新規予約",
  cancelled: "キャンセル",
  moved: "予約変更",
};

const linkClass = "font-bold text-brand-700 underline underline-offset-4";
const tableClass = "w-full border-collapse text-left text-sm";
const headCellClass = "border-b-2 border-neutral-400 px-2 py-2 font-bold";
const cellClass = "border-b border-neutral-300 px-2 py-2 align-top";

/** 150 → 2時間30分; 45 → 45分; 0 → 0分. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}分`;
  return rest === 0 ? `${hours}時間` : `${hours}時間${rest}分`;
}

const bookingHref = (salonId: string, bookingId: string) =>
  `/owner/salons/${salonId}/bookings/${bookingId}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg bg-neutral-100 p-4 text-neutral-800">{children}</p>;
}

function StaffMark({ requested }: { requested: boolean }) {
  return (
    <span
      className={`inline-block rounded border px-1.5 text-xs font-bold ${
        requested ? "border-brand-700 text-brand-700" : "border-neutral-500 text-neutral-700"
      }`}
    >
      {requested ? "指名" : "指名なし"}
    </span>
  );
}

function BookingCard({
  salonId,
  booking,
  next = false,
}: {
  salonId: string;
  booking: TodayBooking;
  next?: boolean;
}) {
  return (
    <article
      className={`rounded-lg border p-3 ${next ? "border-2 border-brand-700" : "border-neutral-300"}`}
      aria-label={`${booking.startTime} ${booking.customerName}様`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        {next ? (
          <span className="rounded bg-brand-700 px-2 text-xs font-bold text-white">次の予約</span>
        ) : null}
        <p className="text-lg font-bold">
          <time dateTime={booking.startsAt}>{booking.startTime}</time>〜
          <time dateTime={booking.endsAt}>{booking.endTime}</time>
        </p>
        <p>
          <Link to={bookingHref(salonId, booking.id)} className={linkClass}>
            {booking.customerName || "（お名前なし）"}様
          </Link>
          {booking.customerKana ? (
            <span className="ml-2 text-sm text-neutral-700">{booking.customerKana}</span>
          ) : null}
        </p>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-neutral-700">メニュー</dt>
        <dd>{booking.menus.length > 0 ? booking.menus.join("、") : "—"}</dd>
        <dt className="text-neutral-700">担当</dt>
        <dd>
          {booking.staffName} <StaffMark requested={booking.staffRequested} />
        </dd>
        <dt className="text-neutral-700">状態</dt>
        <dd>
          {booking.statusLabel}・{sourceLabels[booking.source] ?? booking.source}
        </dd>
      </dl>
    </article>
  );
}

function NoticeList({ salonId, notices }: { salonId: string; notices: readonly BookingNotice[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {notices.map((notice) => (
        <li key={notice.id} className="rounded-lg border border-neutral-300 p-3 text-sm">
          <span
            className={`mr-2 inline-block rounded px-1.5 text-xs font-bold ${
              notice.kind === "cancelled" ? "bg-red-700 text-white" : "bg-brand-700 text-white"
            }`}
          >
            {noticeLabels[notice.kind]}
          </span>
          <time dateTime={notice.at}>{notice.atLabel}</time>{" "}
          <Link to={bookingHref(salonId, notice.bookingId)} className={linkClass}>
            {notice.customerName || "（お名前なし）"}様
          </Link>
          {notice.customerKana ? (
            <span className="ml-1 text-neutral-700">（{notice.customerKana}）</span>
          ) : null}
          <span className="block text-neutral-700">
            来店予定 {notice.bookingStartLabel}・{notice.statusLabel}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** 仮予約 waiting for the salon's answer (decision 0051), each linking to its 承認する / 承認しない. */
function PendingList({
  salonId,
  pending,
}: {
  salonId: string;
  pending: readonly PendingApproval[];
}) {
  return (
    <ul className="flex flex-col gap-2">
      {pending.map((booking) => (
        <li
          key={booking.id}
          className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-sm"
        >
          <span className="mr-2 inline-block rounded bg-amber-800 px-1.5 text-xs font-bold text-white">
            仮予約
          </span>
          <Link to={bookingHref(salonId, booking.id)} className={linkClass}>
            {booking.customerName || "（お名前なし）"}様の仮予約を確認する
          </Link>
          {booking.customerKana ? (
            <span className="ml-1 text-neutral-700">（{booking.customerKana}）</span>
          ) : null}
          <span className="block text-neutral-800">
            来店予定 {booking.startLabel}・{booking.staffName}・予約 {booking.madeAtLabel}
          </span>
        </li>
      ))}
    </ul>
  );
}

function CapacityTable({ capacity }: { capacity: readonly StylistCapacity[] }) {
  return (
    <ScrollRegion aria-label="スタッフ別の今日の残り時間" className="relative">
      <table className={tableClass}>
        <caption className="sr-only">スタッフ別の今日の残り時間</caption>
        <thead>
          <tr>
            <th scope="col" className={headCellClass}>
              スタッフ
            </th>
            <th scope="col" className={headCellClass}>
              残りの勤務
            </th>
            <th scope="col" className={headCellClass}>
              予約・ブロック
            </th>
            <th scope="col" className={headCellClass}>
              空き
            </th>
          </tr>
        </thead>
        <tbody>
          {capacity.map((row) => (
            <tr key={row.staffId}>
              <th scope="row" className={`${cellClass} font-bold`}>
                {row.staffName}
              </th>
              <td className={cellClass}>
                {row.workingMinutesLeft === 0 ? "勤務なし" : formatDuration(row.workingMinutesLeft)}
              </td>
              <td className={cellClass}>{formatDuration(row.bookedMinutesLeft)}</td>
              <td className={`${cellClass} font-bold`}>{formatDuration(row.freeMinutesLeft)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/**
 * 要確認 in one line above the day's bookings, linking to the list (which
 * comes after them on a phone, beside them on a desktop); nothing when all is seen.
 */
function AttentionSummary({
  pending,
  notices,
  scheduleRequests,
}: {
  pending: number;
  notices: number;
  scheduleRequests: number;
}) {
  const parts = [
    pending > 0 ? `承認待ちの仮予約 ${pending}件` : null,
    notices > 0 ? `お知らせ ${notices}件` : null,
    scheduleRequests > 0 ? `勤務変更の申請 ${scheduleRequests}件` : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) return null;
  return (
    <p className="-mt-2 rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-sm lg:hidden">
      <a href="#attention-heading" className={linkClass}>
        要確認：{parts.join("・")}
      </a>
    </p>
  );
}

/**
 * /owner/salons/{id}: the salon's day at a glance (decision 0043). The day's
 * bookings come first (who arrives soon, then the bookings still to come);
 * 要確認, the day's numbers, each stylist's free time and the week's notices
 * beside them on a desktop, after them on a phone, where a line above the
 * bookings sums 要確認 up (issue 38, point 7).
 */
export function OwnerToday({
  data,
}: {
  data: {
    view: TodayView;
    /** The stylists' schedule requests waiting for a manager (decision 0052). */
    scheduleRequests?: number;
  };
}) {
  const { view } = data;
  const scheduleRequests = data.scheduleRequests ?? 0;
  const salonId = view.salon.id;
  const [next, ...later] = view.upcoming;
  const tiles = [
    { label: "予約確定", value: view.counts.booked },
    { label: "施術完了", value: view.counts.completed },
    { label: "キャンセル", value: view.counts.cancelled },
    { label: "無断キャンセル", value: view.counts.noShow },
  ];
  return (
    <OwnerPage title="今日の予約">
      <p className="-mt-4 text-neutral-800">
        {view.dateLabel}（{view.nowTime} 現在）
      </p>

      <AttentionSummary
        pending={view.pendingApprovals.length}
        notices={view.attention.length}
        scheduleRequests={scheduleRequests}
      />

      {/* The day's bookings first, on a phone and a desktop (issue 38, point 7); what
          needs a look beside them from lg up, after them on a phone. */}
      <div className="flex flex-col gap-8 lg:grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <div className="flex min-w-0 flex-col gap-8">
          <Section id="arrivals-heading" title="まもなく来店（30分以内）">
            {view.arrivalsDue.length === 0 ? (
              <Empty>30分以内に来店予定のお客様はいません。</Empty>
            ) : (
              <ul className="flex flex-col gap-3">
                {view.arrivalsDue.map((booking) => (
                  <li key={booking.id}>
                    <BookingCard salonId={salonId} booking={booking} />
                  </li>
                ))}
              </ul>
            )}
          </Section>

          <Section id="upcoming-heading" title="これからの予約">
            {next ? (
              <ol className="flex flex-col gap-3">
                <li>
                  <BookingCard salonId={salonId} booking={next} next />
                </li>
                {later.map((booking) => (
                  <li key={booking.id}>
                    <BookingCard salonId={salonId} booking={booking} />
                  </li>
                ))}
              </ol>
            ) : (
              <Empty>今日これからの予約はありません。</Empty>
            )}
          </Section>
        </div>
        <div className="flex min-w-0 flex-col gap-8">
          <Section id="attention-heading" title="要確認">
            {view.pendingApprovals.length > 0 ? (
              <div className="mb-4">
                <p className="mb-2 text-sm font-bold text-neutral-800">
                  承認待ちの仮予約が{view.pendingApprovals.length}
                  件あります。承認するか、承認しないかを選んでください。
                </p>
                <PendingList salonId={salonId} pending={view.pendingApprovals} />
              </div>
            ) : null}
            {scheduleRequests > 0 ? (
              <p className="mb-4 text-sm font-bold text-neutral-800">
                スタッフからの勤務変更の申請が{scheduleRequests}件あります。
                <a
                  href={`/owner/salons/${salonId}/schedules#staff-requests-heading`}
                  className={`ml-1 ${linkClass}`}
                >
                  勤務表で確認する
                </a>
              </p>
            ) : null}
            {view.attention.length === 0 ? (
              view.pendingApprovals.length > 0 || scheduleRequests > 0 ? null : (
                <Empty>確認が必要なお知らせはありません。</Empty>
              )
            ) : (
              <>
                <p className="mb-2 text-sm text-neutral-700">
                  1時間以内の新規予約と、24時間以内のお客様によるキャンセル・予約変更です。
                </p>
                <NoticeList salonId={salonId} notices={view.attention} />
              </>
            )}
          </Section>

          <Section id="counts-heading" title="今日の件数">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {tiles.map((tile) => (
                <div key={tile.label} className="rounded-lg border border-neutral-300 p-3">
                  <dt className="text-sm text-neutral-700">{tile.label}</dt>
                  <dd className="text-2xl font-bold">{tile.value}件</dd>
                </div>
              ))}
            </dl>
          </Section>

          <Section id="capacity-heading" title="スタッフ別の空き（今日の残り）">
            {view.capacity === null ? (
              <Empty>サロンが公開されていないため、空き状況は表示されません。</Empty>
            ) : view.capacity.length === 0 ? (
              <Empty>在籍中のスタッフがいません。</Empty>
            ) : (
              <CapacityTable capacity={view.capacity} />
            )}
          </Section>

          <Section id="notices-heading" title="お知らせ（過去7日間）">
            {view.notices.length === 0 ? (
              <Empty>過去7日間、お客様からの予約・キャンセル・変更はありません。</Empty>
            ) : (
              <NoticeList salonId={salonId} notices={view.notices} />
            )}
          </Section>
        </div>
      </div>
    </OwnerPage>
  );
}
