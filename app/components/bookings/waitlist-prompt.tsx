import { Form, Link } from "react-router";
import { type FlowLink, waitlistJoinHref } from "../../../common/booking-flow-href";
import { formatLocalDate } from "../../lib/booking-format";
import { linkClass } from "../accounts/account-frame";
import type { DayOption } from "./day-picker";

/**
 * The way from the booking flow to キャンセル待ちに登録 (issue 30, point 4),
 * under the time step: for the chosen day when it has no free time, else
 * for any full day of the window (a GET form of the full days: the day
 * picker leaves them unchoosable), and, on a day with times, for a wished
 * time that is not among them. Links and GET forms: no JavaScript needed.
 */
export function WaitlistPrompt({
  slug,
  link,
  days,
  date,
  dayHasTimes,
}: {
  slug: string;
  link: Omit<FlowLink, "date" | "holdId">;
  days: (DayOption & { full?: boolean })[];
  /** The chosen day, if any. */
  date: string | null;
  dayHasTimes: boolean;
}) {
  const fullDays = days.filter((day) => day.full && !day.available);
  const chosenFull = date !== null && !dayHasTimes && fullDays.some((day) => day.date === date);
  if (chosenFull && date) {
    return (
      <div className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4">
        <p className="font-bold">{formatLocalDate(date)}は満席です。</p>
        <p className="mt-1">
          キャンセル待ちに登録すると、ご希望の時間に空きが出たときにお時間を仮押さえしてメールでご案内します。
        </p>
        <p className="mt-3">
          <Link
            to={waitlistJoinHref(slug, { ...link, date })}
            className="inline-block rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
          >
            キャンセル待ちに登録する
          </Link>
        </p>
      </div>
    );
  }
  return (
    <>
      {date && dayHasTimes ? (
        <p className="mt-4 text-sm">
          ご希望の時間が空いていないときは、
          <Link to={waitlistJoinHref(slug, { ...link, date })} className={linkClass}>
            {formatLocalDate(date, false)}のキャンセル待ちに登録
          </Link>
          できます。
        </p>
      ) : null}
      {fullDays.length > 0 ? (
        <Form
          method="get"
          action={`/salons/${slug}/waitlist`}
          className="mt-4 flex flex-col gap-2 rounded-lg border border-neutral-300 p-4"
        >
          <label htmlFor="waitlist-full-day" className="font-bold">
            満席の日のキャンセル待ち
          </label>
          <p id="waitlist-full-day-hint" className="text-sm text-neutral-700">
            満席の日（カレンダーで選べない日）も、キャンセル待ちに登録できます。
          </p>
          {link.menuIds.map((id) => (
            <input key={id} type="hidden" name="menu" value={id} />
          ))}
          {link.staffSlug ? <input type="hidden" name="staff" value={link.staffSlug} /> : null}
          {link.couponId ? <input type="hidden" name="coupon" value={link.couponId} /> : null}
          <div className="flex flex-wrap items-center gap-3">
            <select
              id="waitlist-full-day"
              name="date"
              aria-describedby="waitlist-full-day-hint"
              className="rounded-lg border border-neutral-400 px-3 py-2"
            >
              {fullDays.map((day) => (
                <option key={day.date} value={day.date}>
                  {formatLocalDate(day.date, false)}
                </option>
              ))}
            </select>
            <button
              type="submit"
              className="rounded-lg border-2 border-brand-700 px-4 py-2 font-bold text-brand-700 hover:bg-brand-50"
            >
              キャンセル待ちに登録する
            </button>
          </div>
        </Form>
      ) : null}
    </>
  );
}
