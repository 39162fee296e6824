import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { bookingFlowHref, sameMenus } from "../../../common/booking-flow-href";
import { couponTargetLabels } from "../../../common/coupon-eligibility";
import { formatYen } from "../../../common/format";
import type { PickView } from "../../../server/bookings/pages/confirm-page.server";
import { formatLocalDate } from "../../lib/booking-format";
import { DayPicker } from "./day-picker";
import { MenuPicker } from "./menu-picker";
import { stepIds, useStepFocus } from "./step-focus";
import { StylistPicker } from "./stylist-picker";
import { TimeGrid } from "./time-grid";
import {
  liveRangeOf,
  useLiveAvailability,
  useSlotChangeMessage,
  withLiveDays,
  withLiveTimes,
} from "./use-live-availability";
import { WaitlistPrompt } from "./waitlist-prompt";

/** The URL of the flow with this selection (the flow is driven by the URL). */
function flowHref(
  slug: string,
  selection: { menuIds: string[]; staffSlug: string | null; couponId: string | null },
  date?: string | null,
  extra: [string, string][] = [],
) {
  return bookingFlowHref(slug, { ...selection, date }, extra);
}

function Problems({ problems: all }: { problems: string[] }) {
  // A refused post and the page it reloads may say the same thing.
  const problems = [...new Set(all)];
  if (problems.length === 0) return null;
  return (
    <div
      id={stepIds.errors}
      tabIndex={-1}
      role="alert"
      className="mt-4 rounded-lg border-2 border-red-700 bg-red-50 p-4"
    >
      <ul className="list-disc pl-5 font-bold text-red-700">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Steps 1 to 4 of /salons/:id/confirm: menus, stylist, day, time, with the
 * refusals above them. The menu form carries the time buttons (decision 0036).
 */
export function PickSteps({
  slug,
  view,
  actionError,
  draft,
  repicking,
  changeId = null,
}: {
  slug: string;
  view: PickView;
  actionError: string | null;
  draft: Record<string, string> | null;
  /** Back from an expired hold: focus starts at the time step. */
  repicking: boolean;
  /**
   * 予約変更: the booking being changed. Every link and form carries it,
   * and the times are the server's (they leave that booking out, the live
   * stream does not).
   */
  changeId?: string | null;
}) {
  const { selection } = view;
  // 指名料 of the chosen stylist: in the total, never discounted (decision 0047).
  const fee = selection.stylist?.nominationFee ?? 0;
  const current = {
    menuIds: selection.menus.map((menu) => menu.id),
    staffSlug: selection.stylist?.slug ?? null,
    couponId: selection.coupon?.id ?? null,
  };
  const problems = actionError ? [actionError, ...view.problems] : view.problems;
  const location = useLocation();
  const previous = useRef(location.search);
  // The step just completed decides where focus goes next.
  const before = new URLSearchParams(previous.current);
  const now = new URLSearchParams(location.search);
  let target: string | null = null;
  if (problems.length > 0) target = stepIds.errors;
  else if (view.notice) target = stepIds.notice;
  else if (before.getAll("menu").join() !== now.getAll("menu").join()) target = stepIds.staff;
  else if ((before.get("staff") ?? "") !== (now.get("staff") ?? "")) target = stepIds.day;
  else if (view.date) target = stepIds.time;
  useEffect(() => {
    previous.current = location.search;
  }, [location.search]);
  useStepFocus(
    target ?? stepIds.page,
    problems.length > 0
      ? stepIds.errors
      : view.notice
        ? stepIds.notice
        : repicking && view.date
          ? stepIds.time
          : stepIds.page,
  );
  // What is ticked now (before it is sent): the day links follow it, and the
  // times, computed for the URL's menus, are not offered for other menus.
  const urlMenus = current.menuIds.join();
  const [ticked, setTicked] = useState({ for: urlMenus, ids: current.menuIds });
  const tickedIds = ticked.for === urlMenus ? ticked.ids : current.menuIds;
  const stale = !sameMenus(tickedIds, current.menuIds);
  // Live slots (issue 15, point 8): after hydration the days and times follow the stream.
  const changing: [string, string][] = changeId ? [["change", changeId]] : [];
  const range = current.menuIds.length > 0 && !changeId ? liveRangeOf(view.days, view.date) : null;
  const live = useLiveAvailability(
    range ? { salon: slug, menuIds: current.menuIds, staff: current.staffSlug, ...range } : null,
  );
  const days = withLiveDays(view.days, live);
  const times = withLiveTimes(view.date, view.times, live);
  const slotMessage = useSlotChangeMessage(view.date, times);
  const keep = (fields: ("menu" | "staff" | "coupon" | "date")[]): [string, string][] => [
    ...(fields.includes("menu") ? current.menuIds.map((id): [string, string] => ["menu", id]) : []),
    ...(fields.includes("staff") && current.staffSlug
      ? [["staff", current.staffSlug] as [string, string]]
      : []),
    ...(fields.includes("coupon") && current.couponId
      ? [["coupon", current.couponId] as [string, string]]
      : []),
    ...(fields.includes("date") && view.date ? [["date", view.date] as [string, string]] : []),
    ...changing,
  ];
  return (
    <>
      <Problems problems={problems} />
      {view.notice ? (
        <p
          id={stepIds.notice}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4 font-bold"
        >
          {view.notice}
        </p>
      ) : null}
      {selection.coupon ? (
        <p className="mt-4 rounded-lg border border-dashed border-brand-700 p-3 text-sm">
          【{couponTargetLabels[selection.coupon.target]}】クーポン「{selection.coupon.title}
          」を使って予約します。
          {selection.coupon.notes.length > 0 ? `（${selection.coupon.notes.join("・")}）` : null}
          {selection.menus.length > 0 && selection.discount > 0 ? (
            <>
              合計 <s>{formatYen(selection.subtotal + fee)}</s> →{" "}
              <strong>{formatYen(selection.subtotal - selection.discount + fee)}</strong>
              {fee > 0 ? "（指名料を含む。指名料は割引の対象外です）" : null}
            </>
          ) : null}
          <Link
            to={flowHref(slug, { ...current, couponId: null }, view.date)}
            className="ml-2 underline"
          >
            クーポンを使わない
          </Link>
        </p>
      ) : null}
      <MenuPicker
        key={urlMenus}
        groups={selection.menuGroups}
        selected={current.menuIds}
        hidden={[
          ...keep(["staff", "coupon", "date"]),
          // The menus the times below were computed for: a time picked with
          // other menus ticked is not held (the server shows their times).
          ...current.menuIds.map((id): [string, string] => ["shown", id]),
          // What was typed before the hold was lost comes along to the next hold.
          ...Object.entries(draft ?? {}).map(([key, value]): [string, string] => [
            `draft.${key}`,
            value,
          ]),
        ]}
        headingId={stepIds.menus}
        formId={stepIds.pickForm}
        onTickedChange={(ids) => setTicked({ for: urlMenus, ids })}
        coupon={selection.coupon}
      />
      {selection.menus.length > 0 ? (
        <>
          <StylistPicker
            stylists={selection.stylists}
            selected={current.staffSlug}
            hidden={keep(["menu", "coupon", "date"])}
            headingId={stepIds.staff}
          />
          <section aria-labelledby={stepIds.day} className="mt-8">
            <h2 id={stepIds.day} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
              3. 日にちを選ぶ
            </h2>
            {days.some((day) => day.available) ? (
              <DayPicker
                days={days}
                selected={view.date}
                hrefFor={(date) =>
                  flowHref(slug, { ...current, menuIds: tickedIds }, date, changing)
                }
                headingId={stepIds.day}
              />
            ) : (
              <p className="mt-3">
                予約を受け付けている空き枠がありません。メニューやスタッフを変えてお試しください。
              </p>
            )}
          </section>
          {view.date && stale ? (
            <section aria-labelledby={stepIds.time} className="mt-8">
              <h2 id={stepIds.time} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
                4. 時間を選ぶ（{formatLocalDate(view.date, false)}）
              </h2>
              <p className="mt-3">
                メニューが変わりました。選択中のメニューで空いている時間を見るには、ボタンを押すか日にちを選んでください。
              </p>
              <button
                type="submit"
                form={stepIds.pickForm}
                name="intent"
                value="menus"
                className="mt-3 rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
              >
                選択中のメニューで時間を見る
              </button>
            </section>
          ) : view.date ? (
            <TimeGrid
              dateLabel={formatLocalDate(view.date, false)}
              times={times}
              formId={stepIds.pickForm}
              headingId={stepIds.time}
              changing={changeId !== null}
            />
          ) : null}
          {/* Always present, so that screen readers notice when a time is taken or freed. */}
          <p role="status" className="mt-2 text-sm font-bold text-brand-700">
            {slotMessage}
          </p>
          {changeId === null && !stale ? (
            <WaitlistPrompt
              slug={slug}
              link={current}
              days={days}
              date={view.date}
              dayHasTimes={times.length > 0}
            />
          ) : null}
        </>
      ) : null}
    </>
  );
}
