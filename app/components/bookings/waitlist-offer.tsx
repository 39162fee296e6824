import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatYen } from "../../../common/format";
import { toLocal } from "../../../common/local-time";
import type { OfferPage } from "../../../server/waitlist/offer-page.server";
import {
  formatBookingRange,
  formatDuration,
  formatLocalDate,
  formatRemaining,
} from "../../lib/booking-format";
import { linkClass } from "../accounts/account-frame";
import { useStepFocus } from "./step-focus";

/** The time left, from the server's clock first, then the browser's once it runs (every 15 s). */
function useRemaining(expiresAt: string, serverNow: string) {
  const [now, setNow] = useState(() => new Date(serverNow));
  useEffect(() => {
    // The browser's clock may be off; only the difference since the page came counts.
    const skew = Date.now() - new Date(serverNow).getTime();
    const tick = () => setNow(new Date(Date.now() - skew));
    const timer = setInterval(tick, 15_000);
    return () => clearInterval(timer);
  }, [serverNow]);
  return formatRemaining(new Date(expiresAt), now);
}

/**
 * The offer page: the held time (date, time, stylist, menus, price), the
 * deadline and the time left, 「この日時で予約する」 into the booking flow's
 * confirm step, and 辞退する (a confirm step in a <details>, no JavaScript
 * needed). A closed offer says why, with the way back.
 */
export function WaitlistOffer({ offer, error }: { offer: OfferPage; error: string | null }) {
  const busy = useNavigation().state === "submitting";
  const remaining = useRemaining(offer.expiresAt, offer.now);
  const open = offer.state === "open" && remaining !== "";
  const deadline = toLocal(new Date(offer.expiresAt), offer.salon.timeZone);
  useStepFocus(error ? "offer-error" : "offer-heading");
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <h1 id="offer-heading" tabIndex={-1} className="text-2xl font-bold">
        キャンセル待ちの空きのご案内
        <span className="block text-base font-normal text-neutral-700">{offer.salon.name}</span>
      </h1>
      {error ? (
        <p
          id="offer-error"
          tabIndex={-1}
          role="alert"
          className="mt-4 rounded-lg border-2 border-red-700 bg-red-50 p-4 font-bold text-red-700"
        >
          {error}
        </p>
      ) : null}
      {open ? (
        <p className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4">
          <strong>
            {formatLocalDate(deadline.date)} {deadline.time}までにご予約ください
          </strong>
          （{remaining}）。期限を過ぎると、次にお待ちの方へご案内します。
        </p>
      ) : (
        <div
          role="status"
          className="mt-4 rounded-lg border-2 border-neutral-500 bg-neutral-50 p-4"
        >
          <p className="font-bold">
            {offer.message ?? "このご案内は有効期限が過ぎたため、終了しました。"}
          </p>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
            {offer.bookingHref ? (
              <Link to={offer.bookingHref} className={linkClass}>
                ご予約の詳細を見る
              </Link>
            ) : null}
            <Link to="/account/history#waitlist" className={linkClass}>
              予約履歴のキャンセル待ちへ
            </Link>
            <Link to={`/salons/${offer.salon.slug}`} className={linkClass}>
              {offer.salon.name}のページへ
            </Link>
          </p>
        </div>
      )}
      <dl className="mt-6 grid grid-cols-1 gap-x-4 gap-y-2 rounded-lg border border-neutral-300 p-4 sm:grid-cols-[8rem_1fr]">
        <dt className="font-bold">サロン</dt>
        <dd>
          <Link to={`/salons/${offer.salon.slug}`} className={linkClass}>
            {offer.salon.name}
          </Link>
        </dd>
        <dt className="font-bold">日時</dt>
        <dd>
          {formatBookingRange(
            new Date(offer.startsAt),
            new Date(offer.endsAt),
            offer.salon.timeZone,
          )}
        </dd>
        <dt className="font-bold">スタッフ</dt>
        <dd>
          {offer.staffName}
          {offer.staffRequested ? "（指名）" : "（指名なし）"}
        </dd>
        <dt className="font-bold">メニュー</dt>
        <dd>
          <ul>
            {offer.menus.map((menu) => (
              <li key={menu.name}>
                {menu.name}（{formatYen(menu.price)}・{formatDuration(menu.durationMinutes)}）
              </li>
            ))}
          </ul>
        </dd>
        {offer.totalPrice !== null ? (
          <>
            <dt className="font-bold">お支払い予定額</dt>
            <dd>{formatYen(offer.totalPrice)}</dd>
          </>
        ) : null}
      </dl>
      {open && offer.bookHref ? (
        <div className="mt-6 flex flex-col gap-4">
          <p>
            <Link
              to={offer.bookHref}
              className="inline-block rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
            >
              この日時で予約する
            </Link>
          </p>
          <details className="rounded-lg border border-neutral-300 p-4">
            <summary className="cursor-pointer font-bold">このご案内を辞退する</summary>
            <Form method="post" className="mt-3 flex flex-col gap-3">
              <p>
                辞退すると、このお時間は次にお待ちの方へご案内し、この日のキャンセル待ちも終了します。
              </p>
              <input type="hidden" name="intent" value="decline" />
              <p>
                <button
                  type="submit"
                  disabled={busy}
                  className="rounded-lg border-2 border-red-700 px-6 py-3 font-bold text-red-700 hover:bg-red-50 disabled:opacity-60"
                >
                  辞退する
                </button>
              </p>
            </Form>
          </details>
        </div>
      ) : null}
    </div>
  );
}
