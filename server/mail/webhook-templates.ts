import { escapeHtml } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * 「Webhookの送信を停止しました」 (decision 0086): to the salon's owners when an
 * endpoint is disabled by the receiver (410 Gone) or after 3 days of failures.
 */
export type WebhookDisabledDetails = {
  to: string;
  salonName: string;
  url: string;
  reason: "gone" | "failing";
  /** The salon's 設定 → Webhook page. */
  pageUrl: string;
};

export function renderWebhookDisabledMail(d: WebhookDisabledDetails): Mail {
  const why =
    d.reason === "gone"
      ? "送信先が「410 Gone」（このURLはもう使われていません）と応答したため、"
      : "3日間続けて送信に失敗したため、";
  const lead = `${d.salonName} のWebhookの送信先について、${why}送信を停止しました。`;
  const text = [
    `${d.salonName} ご担当者様`,
    "",
    lead,
    `送信先：${d.url}`,
    "",
    "送信先を確認のうえ、設定画面から登録し直してください。停止中のイベントは送信されません。",
    d.pageUrl,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(d.salonName)} ご担当者様</p>
<p>${escapeHtml(lead)}<br>送信先：${escapeHtml(d.url)}</p>
<p>送信先を確認のうえ、設定画面から登録し直してください。停止中のイベントは送信されません。</p>
<p><a href="${escapeHtml(d.pageUrl)}">設定 → Webhook を開く</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return {
    to: d.to,
    subject: `【Salon Navi】Webhookの送信を停止しました（${d.salonName}）`,
    text,
    html,
  };
}
