import { formatDate } from "../../common/format";
import { escapeHtml, formatBookingTime } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * The review request (issue 30, point 1; decision 0054): sent once, the day
 * after the salon marked the visit completed, with the link to the form.
 * Plain text and HTML carry the same lines.
 */
export type ReviewRequestDetails = {
  to: string;
  customerName: string;
  salonName: string;
  timeZone: string;
  startsAt: Date;
  endsAt: Date;
  menus: string[];
  staffName: string;
  /** /account/reviews/<bookingId> on the site. */
  reviewUrl: string;
  /** The last day a review can be written (YYYY-MM-DD in the salon's zone). */
  lastDay: string;
};

export function renderReviewRequestMail(r: ReviewRequestDetails): Mail {
  const name = r.customerName ? `${r.customerName} 様` : "お客様";
  const lead = `${name}\n\n先日は ${r.salonName} をご利用いただきありがとうございました。よろしければ、ご来店の感想を口コミでお聞かせください。いただいた口コミは「来店済み」の口コミとしてサロンのページに掲載され、これからサロンを選ぶ方の参考になります。`;
  const lines = [
    `サロン：${r.salonName}`,
    `ご来店日時：${formatBookingTime(r.startsAt, r.endsAt, r.timeZone)}`,
    `メニュー：${r.menus.join("、")}`,
    `スタッフ：${r.staffName}`,
  ];
  const note = `口コミは${formatDate(r.lastDay)}まで投稿でき、投稿から30日間は編集できます。`;
  const text = [
    lead,
    "",
    "■ ご来店内容",
    ...lines,
    "",
    note,
    "",
    "口コミを書く：",
    r.reviewUrl,
    "",
    "――",
    "Salon Navi（このメールは送信専用です。口コミのお願いは1回だけお送りしています）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(lead).replaceAll("\n", "<br>")}</p>
<h2 style="font-size:1em">ご来店内容</h2>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p>${escapeHtml(note)}</p>
<p><a href="${escapeHtml(r.reviewUrl)}">口コミを書く</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です。口コミのお願いは1回だけお送りしています）</p>
</body></html>`;
  return {
    to: r.to,
    subject: `【Salon Navi】ご来店ありがとうございました・口コミのお願い（${r.salonName}）`,
    text,
    html,
  };
}
