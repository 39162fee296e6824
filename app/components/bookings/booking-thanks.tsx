import { Link } from "react-router";
import type { BookingSummaryData } from "../../../common/booking-summary";
import { linkClass } from "../accounts/account-frame";
import { BookingSummary } from "./booking-summary";

type Props = {
  number: string;
  summary: BookingSummaryData;
  icsHref: string;
  email: string;
};

/** The end of the flow: the booking number large, what was booked, calendar file, history. */
export function BookingThanks({ number, summary, icsHref, email }: Props) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 id="thanks-heading" tabIndex={-1} className="text-2xl font-bold">
        ご予約が確定しました
      </h1>
      <p className="mt-4">予約番号</p>
      <p className="text-4xl font-bold tracking-widest" data-testid="booking-number">
        {number}
      </p>
      <p className="mt-2 text-sm text-neutral-700">
        確認メールを {email} にお送りしました。来店時に予約番号をお伝えいただくとスムーズです。
      </p>
      <div className="mt-6">
        <BookingSummary summary={summary} />
      </div>
      <ul className="mt-6 flex flex-col gap-3">
        <li>
          <a href={icsHref} download className={linkClass}>
            カレンダーに追加する（.ics ファイル）
          </a>
        </li>
        <li>
          <Link to="/account/history" className={linkClass}>
            予約履歴を見る
          </Link>
        </li>
      </ul>
    </div>
  );
}
