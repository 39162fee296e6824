import { escapeHtml, formatBookingTime } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * The payment link for a cancellation fee whose off-session charge the
 * card's bank wanted the cardholder for (issue 40 §3; decision 0080).
 */
export type FeeLinkDetails = {
  to: string;
  customerName: string;
  salonName: string;
  bookingNumber: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  /** 「キャンセル料（無断キャンセル）」 */
  what: string;
  /** Yen. */
  amount: number;
  url: string;
  /** 2026年12月4日(金) 11:00 */
  until: string;
};

export function renderFeeLinkMail(d: FeeLinkDetails): Mail {
  const name = d.customerName ? `${d.customerName} 様` : "お客様";
  const yen = `${d.amount.toLocaleString("ja-JP")}円`;
  const lead = `${name}\n\n${d.salonName} のご予約について、ご予約時に同意いただいたキャンセルポリシーに基づく${d.what}（${yen}）を、ご登録のカードでお支払いいただけませんでした。カード会社が本人認証（3Dセキュア）を求めているためです。お手数ですが、下のリンクからお支払いください。`;
  const lines = [
    `予約番号：${d.bookingNumber}`,
    `サロン：${d.salonName}`,
    `ご予約日時：${formatBookingTime(d.startsAt, d.endsAt, d.timeZone)}`,
    `ご請求：${d.what} ${yen}`,
  ];
  const note = `お支払いページは${d.until}まで有効です。ご不明な点はサロンへ直接お問い合わせください。`;
  const text = [
    lead,
    "",
    "■ ご請求の内容",
    ...lines,
    "",
    note,
    "",
    "お支払いページ：",
    d.url,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(lead).replaceAll("\n", "<br>")}</p>
<h2 style="font-size:1em">ご請求の内容</h2>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p>${escapeHtml(note)}</p>
<p><a href="${escapeHtml(d.url)}">お支払いページを開く</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return {
    to: d.to,
    subject: `【Salon Navi】${d.what}のお支払いのお願い（${d.salonName}）`,
    text,
    html,
  };
}
