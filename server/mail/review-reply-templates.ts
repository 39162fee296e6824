import { escapeHtml } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * 「サロンから返信がありました」 (issue 30, point 2; decision 0056): sent
 * once, when the salon first answers a review; later edits of the reply
 * send nothing. The reply is quoted as text (escaped in the HTML part, and
 * its URLs are not made links).
 */
export type ReviewReplyDetails = {
  to: string;
  salonName: string;
  reviewTitle: string;
  replyBody: string;
  /** The salon's review list on the site. */
  reviewUrl: string;
};

export function renderReviewReplyMail(r: ReviewReplyDetails): Mail {
  const lead = `${r.salonName} から、あなたの口コミに返信がありました。`;
  const about = r.reviewTitle ? `口コミ：「${r.reviewTitle}」` : "";
  const text = [
    "お客様",
    "",
    lead,
    ...(about ? [about] : []),
    "",
    "■ サロンからの返信",
    r.replyBody,
    "",
    "口コミと返信を見る：",
    r.reviewUrl,
    "",
    "――",
    "Salon Navi（このメールは送信専用です。返信の通知は口コミ1件につき1回だけお送りしています）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>お客様</p>
<p>${escapeHtml(lead)}${about ? `<br>${escapeHtml(about)}` : ""}</p>
<h2 style="font-size:1em">サロンからの返信</h2>
<p style="white-space:pre-line">${escapeHtml(r.replyBody)}</p>
<p><a href="${escapeHtml(r.reviewUrl)}">口コミと返信を見る</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です。返信の通知は口コミ1件につき1回だけお送りしています）</p>
</body></html>`;
  return {
    to: r.to,
    subject: `【Salon Navi】サロンから返信がありました（${r.salonName}）`,
    text,
    html,
  };
}
