import { escapeHtml } from "./booking-templates";
import type { Mail } from "./mailer";

/**
 * The administrators' notice that the daily reconciliation of payments
 * recorded differences not seen before (decision 0084): one per run, with
 * the counts and the page that lists them, never the amounts or customers.
 */
export type ReconciliationMailDetails = {
  to: string;
  /** 2026年12月1日(火) */
  dayLabel: string;
  newFound: number;
  /** Of those, the ones left for an administrator. */
  newOpen: number;
  url: string;
};

export function renderReconciliationMail(d: ReconciliationMailDetails): Mail {
  const fixed = d.newFound - d.newOpen;
  const lead = `${d.dayLabel}分の決済の照合で、新しい差異が${d.newFound}件見つかりました。`;
  const lines = [
    `確認が必要なもの：${d.newOpen}件`,
    ...(fixed > 0 ? [`自動で記録を直したもの：${fixed}件（内容は一覧で確認できます）`] : []),
  ];
  const text = [
    lead,
    "",
    ...lines,
    "",
    "決済の照合（管理画面）：",
    d.url,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>${escapeHtml(lead)}</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p><a href="${escapeHtml(d.url)}">決済の照合を開く</a></p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return {
    to: d.to,
    subject: `【Salon Navi】決済の照合で差異が${d.newFound}件見つかりました（${d.dayLabel}分）`,
    text,
    html,
  };
}
