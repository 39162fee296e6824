import { formatDate } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { formatBookingTime } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * The waiting list's mail (decision 0055): a freed time is held for the
 * visitor until a deadline; the link opens the offer to book or decline it.
 */

export type WaitlistOfferMailDetails = {
  to: string;
  customerName: string;
  salonName: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  /** The stylist of the held time. */
  staffName: string;
  /** False for 指名なし (the salon picked the stylist). */
  staffRequested: boolean;
  menus: { name: string; price: number }[];
  totalPrice: number;
  expiresAt: Date;
  offerUrl: string;
};

const yen = (amount: number) => `${amount.toLocaleString("ja-JP")}円`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The deadline in the salon's zone: 2026年11月23日(月) 10:30. */
function deadline(expiresAt: Date, timeZone: string) {
  const local = toLocal(expiresAt, timeZone);
  return `${formatDate(local.date)} ${local.time}`;
}

export function renderWaitlistOfferMail(d: WaitlistOfferMailDetails): Mail {
  const name = d.customerName ? `${d.customerName} 様` : "お客様";
  const until = deadline(d.expiresAt, d.timeZone);
  const lead = `${name}\n\nキャンセル待ちをされていた ${d.salonName} に空きが出ました。以下のお時間を ${until} まで、お客様のために確保しています。期限までにリンクからご予約を確定してください。期限を過ぎると、次にお待ちの方へご案内します。`;
  const lines = [
    `サロン：${d.salonName}`,
    `日時：${formatBookingTime(d.startsAt, d.endsAt, d.timeZone)}`,
    `スタッフ：${d.staffRequested ? d.staffName : `指名なし（担当：${d.staffName}）`}`,
    `メニュー：${d.menus.map((menu) => `${menu.name}（${yen(menu.price)}）`).join("、")}`,
    `合計金額：${yen(d.totalPrice)}（税込）`,
    `確保の期限：${until}`,
  ];
  const note = "ご都合が合わない場合は、リンク先の「辞退する」から次の方へお譲りください。";
  const label = "ご予約を確定する";
  const text = [
    lead,
    "",
    "■ ご案内するお時間",
    ...lines,
    "",
    note,
    "",
    `${label}：`,
    d.offerUrl,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(lead).replaceAll("\n", "<br>")}</p>
<h2 style="font-size:1em">ご案内するお時間</h2>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p>${escapeHtml(note)}</p>
<p><a href="${escapeHtml(d.offerUrl)}">${escapeHtml(label)}</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return {
    to: d.to,
    subject: `【Salon Navi】キャンセル待ちのお時間に空きが出ました（${d.salonName}）`,
    text,
    html,
  };
}
