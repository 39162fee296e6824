import { useEffect, useRef, useState } from "react";
import type { BookingSummaryData } from "../../../common/booking-summary";
import { formatYen } from "../../../common/format";
import {
  cancellationPolicy,
  formatBookingRange,
  formatDuration,
  formatRemaining,
} from "../../lib/booking-format";

/** What is being booked: salon, menus, stylist, time, price with the coupon, the cancellation rule. */
export function BookingSummary({ summary }: { summary: BookingSummaryData }) {
  const minutes = summary.menus.reduce((sum, menu) => sum + menu.durationMinutes, 0);
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 rounded-lg border border-neutral-300 p-4 sm:grid-cols-[8rem_1fr]">
      <dt className="font-bold">サロン</dt>
      <dd>{summary.salonName}</dd>
      <dt className="font-bold">日時</dt>
      <dd>
        {formatBookingRange(new Date(summary.start), new Date(summary.end), summary.timeZone)}
      </dd>
      <dt className="font-bold">メニュー</dt>
      <dd>
        <ul>
          {summary.menus.map((menu) => (
            <li key={menu.name}>
              {menu.name}（{formatYen(menu.price)}・約{formatDuration(menu.durationMinutes)}）
            </li>
          ))}
        </ul>
        <p className="text-sm text-neutral-700">所要時間 約{formatDuration(minutes)}</p>
      </dd>
      <dt className="font-bold">スタッフ</dt>
      <dd>
        {summary.stylistName ?? "指名なし"}
        {summary.nominationFee > 0 ? `（指名料 ${formatYen(summary.nominationFee)}）` : null}
      </dd>
      {summary.coupon ? (
        <>
          <dt className="font-bold">クーポン</dt>
          <dd>
            {summary.coupon.title}（−{formatYen(summary.coupon.discount)}）
          </dd>
        </>
      ) : null}
      <dt className="font-bold">お支払い予定額</dt>
      <dd>
        <span className="text-lg font-bold">{formatYen(summary.total)}</span>
        {summary.coupon ? (
          <span className="ml-2 text-sm text-neutral-700 line-through">
            <span className="sr-only">割引前</span>
            {formatYen(summary.subtotal + summary.nominationFee)}
          </span>
        ) : null}
        <span className="block text-sm text-neutral-700">（税込・お支払いはサロンにて）</span>
      </dd>
      <dt className="font-bold">キャンセル</dt>
      <dd className="text-sm">{cancellationPolicy(summary.cancelCutoffHours)}</dd>
    </dl>
  );
}

/**
 * The hold's time left. The server renders it ("残り約10分"); with
 * JavaScript it counts down, correcting for a client clock that differs
 * from the server's by measuring against the server's `now`.
 */
export function HoldCountdown({
  expiresAt,
  now,
  onExpire,
  finish = "予約を確定",
}: {
  expiresAt: string;
  now: string;
  /** What the visitor finishes before the hold ends: 予約を確定, or リクエストを送信 for a 仮予約. */
  finish?: string;
  /** Called once when the count reaches zero (the page says so before anything is pressed). */
  onExpire?: () => void;
}) {
  const expiry = new Date(expiresAt).getTime();
  const [text, setText] = useState(() => formatRemaining(new Date(expiry), new Date(now)));
  const expire = useRef(onExpire);
  expire.current = onExpire;
  useEffect(() => {
    const skew = Date.now() - new Date(now).getTime();
    let told = false;
    const tick = () => {
      const left = formatRemaining(new Date(expiry), new Date(Date.now() - skew));
      setText(left);
      if (left === "" && !told) {
        told = true;
        expire.current?.();
      }
    };
    tick();
    // Every 15 s, and at the expiry itself, so the notice comes on time.
    const timer = window.setInterval(tick, 15_000);
    const end = window.setTimeout(tick, Math.max(0, expiry - (Date.now() - skew)) + 100);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(end);
    };
  }, [expiry, now]);
  return (
    <p role="timer" className="rounded-lg bg-brand-50 p-3 text-sm">
      {text ? (
        <>
          この枠をお取り置き中です（<strong>{text}</strong>
          ）。時間内に{finish}してください。
        </>
      ) : (
        <>お取り置きの時間が過ぎました。{finish}できない場合は時間を選び直してください。</>
      )}
    </p>
  );
}
