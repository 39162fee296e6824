import { Form, Link, useNavigation } from "react-router";
import { formatYen } from "../../../common/format";
import type {
  ChangeConfirmView,
  ChangeInfo,
  ChangeRefusedView,
  ChangeSideView,
} from "../../../server/bookings/pages/change-page.server";
import { formatBookingRange, formatDuration } from "../../lib/booking-format";
import { linkClass } from "../accounts/account-frame";
import { stepIds, useStepFocus } from "./step-focus";

function stylistText(side: ChangeSideView) {
  return side.staffRequested ? `${side.stylistName}（指名）` : "指名なし";
}

function menusText(side: ChangeSideView) {
  const minutes = side.menus.reduce((sum, menu) => sum + menu.durationMinutes, 0);
  return `${side.menus.map((menu) => menu.name).join("、")}（約${formatDuration(minutes)}）`;
}

/** Above the pickers in 予約変更 mode: which booking is being changed, and the way back. */
export function ChangeBanner({ change }: { change: ChangeInfo }) {
  const { current } = change;
  return (
    <section
      aria-labelledby="change-current"
      className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4"
    >
      <h2 id="change-current" className="font-bold">
        予約番号 {change.bookingNumber} の日時・スタッフ・メニューを変更します
      </h2>
      <p className="mt-1 text-sm">
        現在のご予約：
        {formatBookingRange(new Date(current.start), new Date(current.end), change.timeZone)}・
        {stylistText(current)}・{menusText(current)}
      </p>
      <p className="mt-1 text-sm text-neutral-700">
        変更を確定するまで、今のご予約はそのまま残ります。
      </p>
      <p className="mt-2 text-sm">
        <Link to={change.cancelHref} className={linkClass}>
          変更をやめて予約の詳細へ戻る
        </Link>
      </p>
    </section>
  );
}

/** One row of the old → new table; a changed value is marked in words, not only by colour. */
function Row({ label, before, after }: { label: string; before: string; after: string }) {
  const changed = before !== after;
  return (
    <tr className="border-t border-neutral-300 align-top">
      <th scope="row" className="py-2 pr-3 text-left font-bold whitespace-nowrap">
        {label}
      </th>
      <td className="py-2 pr-3">{before}</td>
      <td className={`py-2 ${changed ? "font-bold text-brand-700" : ""}`}>
        {after}
        {changed ? <span className="ml-1 text-xs">（変更）</span> : null}
      </td>
    </tr>
  );
}

/** 予約変更's confirmation: old → new, the price, the coupon, and the button that swaps. */
export function ChangeConfirmStep({
  view,
  actionError,
}: {
  view: ChangeConfirmView;
  actionError: string | null;
}) {
  useStepFocus(actionError ? stepIds.errors : stepIds.confirm);
  const busy = useNavigation().state === "submitting";
  const { change, after } = view;
  const before = change.current;
  const range = (side: ChangeSideView) =>
    formatBookingRange(new Date(side.start), new Date(side.end), change.timeZone);
  const price = (side: ChangeSideView) =>
    `${formatYen(side.total)}${side.couponTitle ? `（クーポン「${side.couponTitle}」適用）` : ""}`;
  return (
    <section aria-labelledby={stepIds.confirm} className="mt-6 flex flex-col gap-4">
      {actionError ? (
        <div
          id={stepIds.errors}
          tabIndex={-1}
          role="alert"
          className="rounded-lg border-2 border-red-700 bg-red-50 p-4 font-bold text-red-700"
        >
          {actionError}
        </div>
      ) : null}
      <h2 id={stepIds.confirm} tabIndex={-1} className="text-xl font-bold">
        予約変更の内容を確認する
      </h2>
      <p>予約番号 {change.bookingNumber}</p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-sm sm:text-base">
          <caption className="sr-only">変更前と変更後</caption>
          <thead>
            <tr>
              <td />
              <th scope="col" className="py-2 pr-3 text-left">
                変更前
              </th>
              <th scope="col" className="py-2 text-left">
                変更後
              </th>
            </tr>
          </thead>
          <tbody>
            <Row label="日時" before={range(before)} after={range(after)} />
            <Row label="スタッフ" before={stylistText(before)} after={stylistText(after)} />
            <Row label="メニュー" before={menusText(before)} after={menusText(after)} />
            <Row label="お支払い予定額" before={price(before)} after={price(after)} />
          </tbody>
        </table>
      </div>
      {view.couponDropped ? (
        <p role="note" className="rounded-lg border-2 border-red-700 p-3 font-bold">
          ご予約のクーポン「{before.couponTitle}
          」は変更後の内容ではご利用いただけないため、通常料金になります。
        </p>
      ) : null}
      {view.unchanged ? (
        <p className="font-bold">
          今のご予約と同じ内容です。別の日時・スタッフ・メニューをお選びください。
        </p>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="reschedule" />
          <input type="hidden" name="change" value={change.bookingId} />
          <input type="hidden" name="start" value={view.form.start} />
          <input type="hidden" name="staff" value={view.form.staff} />
          <input type="hidden" name="version" value={view.form.version} />
          {view.form.menuIds.map((id) => (
            <input key={id} type="hidden" name="menu" value={id} />
          ))}
          <p className="text-sm text-neutral-700">
            変更すると、前の日時は解放され、新しい日時でご予約が確定します（予約番号は変わりません）。
          </p>
          <button
            type="submit"
            disabled={busy}
            className="self-start rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            この内容に変更する
          </button>
        </Form>
      )}
      <ul className="flex flex-col gap-2 text-sm">
        <li>
          <Link to={view.repickHref} className={linkClass}>
            別の日時・スタッフ・メニューを選び直す
          </Link>
        </li>
        <li>
          <Link to={change.cancelHref} className={linkClass}>
            変更をやめて予約の詳細へ戻る
          </Link>
        </li>
      </ul>
    </section>
  );
}

/** The booking can no longer be changed on the web: why, and back to it. */
export function ChangeRefused({ view }: { view: ChangeRefusedView }) {
  useStepFocus(stepIds.errors);
  return (
    <div className="mt-6 flex flex-col gap-4">
      <p
        id={stepIds.errors}
        tabIndex={-1}
        role="alert"
        className="rounded-lg border-2 border-red-700 bg-red-50 p-4 font-bold text-red-700"
      >
        {view.message}
      </p>
      <p>
        <Link to={view.historyHref} className={linkClass}>
          予約の詳細へ戻る
        </Link>
      </p>
    </div>
  );
}
