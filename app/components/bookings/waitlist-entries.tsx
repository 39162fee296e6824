import { Form, Link, useNavigation } from "react-router";
import { toLocal } from "../../../common/local-time";
import type { HistoryWaitlist } from "../../../server/waitlist/history-waitlist.server";
import { formatLocalDate } from "../../lib/booking-format";
import { linkClass, Notice } from "../accounts/account-frame";
import { WaitlistLiveNotice } from "./waitlist-live-notice";

const noticeText = {
  left: "キャンセル待ちをやめました。",
  declined: "ご案内を辞退しました。このお時間は次にお待ちの方へご案内します。",
} as const;

/**
 * The キャンセル待ち section of /account/history (id="waitlist"): each
 * entry's salon, day, window, menus, stylist and status; an open offer with
 * its deadline and link; 「キャンセル待ちをやめる」 behind a confirm step
 * (<details>, so it needs no JavaScript) for a live entry.
 */
export function WaitlistEntries({ waitlist }: { waitlist: HistoryWaitlist }) {
  const busy = useNavigation().state === "submitting";
  return (
    <section id="waitlist" aria-labelledby="waitlist-heading" className="scroll-mt-4">
      <h2 id="waitlist-heading" className="text-xl font-bold">
        キャンセル待ち
      </h2>
      <WaitlistLiveNotice
        known={waitlist.entries.flatMap((entry) => (entry.offer ? [entry.offer.id] : []))}
      />
      {waitlist.notice ? (
        <div className="mt-3">
          <Notice>{noticeText[waitlist.notice]}</Notice>
        </div>
      ) : null}
      {waitlist.entries.length === 0 ? (
        <p className="mt-3">
          キャンセル待ちはありません。満席の日は、ご予約の画面からキャンセル待ちに登録できます。
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {waitlist.entries.map((entry) => {
            const label = `${entry.salon.name} ${formatLocalDate(entry.date)}のキャンセル待ち`;
            const deadline = entry.offer
              ? toLocal(new Date(entry.offer.expiresAt), entry.salon.timeZone)
              : null;
            return (
              <li key={entry.id}>
                <article
                  aria-label={label}
                  className="flex flex-col gap-1 rounded-lg border border-neutral-300 p-4"
                >
                  <p className="text-sm">
                    <span
                      className={`inline-block rounded px-2 py-0.5 text-xs font-bold ${entry.offer ? "bg-brand-700 text-white" : entry.live ? "border border-brand-700 text-brand-700" : "bg-neutral-200 text-neutral-900"}`}
                    >
                      {entry.statusLabel}
                    </span>
                  </p>
                  <h3 className="text-lg font-bold">
                    <Link to={`/salons/${entry.salon.slug}`} className={linkClass}>
                      {entry.salon.name}
                    </Link>
                  </h3>
                  <p>
                    {formatLocalDate(entry.date)} 開始 {entry.windowText}
                  </p>
                  <p className="text-sm text-neutral-700">
                    {entry.menuNames.join("、")}・{entry.staffLabel}
                  </p>
                  {entry.offer && deadline ? (
                    <p className="mt-2 rounded-lg border-2 border-brand-700 bg-brand-50 p-3">
                      空きが出ました：
                      {toLocal(new Date(entry.offer.startsAt), entry.salon.timeZone).time}
                      から。
                      <strong>
                        {formatLocalDate(deadline.date)} {deadline.time}まで
                      </strong>
                      お取り置きしています。
                      <Link to={entry.offer.href} className={`${linkClass} ml-1`}>
                        ご案内を見て予約する
                      </Link>
                    </p>
                  ) : null}
                  {entry.bookingHref ? (
                    <p>
                      <Link to={entry.bookingHref} className={linkClass}>
                        ご予約の詳細を見る
                      </Link>
                    </p>
                  ) : null}
                  {entry.live ? (
                    <details className="mt-2">
                      <summary className="cursor-pointer font-bold text-red-700">
                        キャンセル待ちをやめる
                      </summary>
                      <Form
                        method="post"
                        action="/account/waitlist"
                        className="mt-2 flex flex-col gap-2 rounded-lg border-2 border-red-700 p-3"
                      >
                        <p>
                          {label}をやめますか？
                          {entry.offer ? "ご案内中のお時間は次の方へご案内します。" : null}
                        </p>
                        <input type="hidden" name="intent" value="leave" />
                        <input type="hidden" name="entry" value={entry.id} />
                        <p>
                          <button
                            type="submit"
                            disabled={busy}
                            aria-label={`${label}をやめる`}
                            className="rounded-lg bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:opacity-60"
                          >
                            やめる
                          </button>
                        </p>
                      </Form>
                    </details>
                  ) : null}
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
