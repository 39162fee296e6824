import type { Mail } from "./mailer";

/**
 * Japanese mails, each with a plain-text and an HTML part. Links are the
 * only thing the reader must act on, so each is on its own line.
 */
type Template = { subject: string; lead: string; action: string; note: string };

const templates = {
  verifySignUp: {
    subject: "【Salon Navi】メールアドレスの確認をお願いします",
    lead: "Salon Naviにご登録いただきありがとうございます。下のリンクを開いて、メールアドレスの確認を完了してください。",
    action: "メールアドレスを確認する",
    note: "リンクの有効期限は1時間です。期限が切れた場合は、ログイン後の画面から確認メールを再送してください。",
  },
  changeEmail: {
    subject: "【Salon Navi】新しいメールアドレスの確認をお願いします",
    lead: "メールアドレスの変更を受け付けました。下のリンクを開くと、このアドレスへの変更が完了します。",
    action: "メールアドレスの変更を完了する",
    note: "リンクの有効期限は1時間です。お心当たりがない場合は、このメールを破棄してください。",
  },
  emailChanged: {
    subject: "【Salon Navi】メールアドレス変更のお知らせ",
    lead: "ご登録のメールアドレスが変更されました。今後のお知らせは新しいメールアドレスにお送りします。このアドレスへのご連絡は、これが最後になります。",
    action: "お心当たりがない場合のお問い合わせ",
    note: "ご自身で変更された場合は、このメールへの対応は不要です。お心当たりがない場合は、お問い合わせフォームから至急ご連絡ください。",
  },
  resetPassword: {
    subject: "【Salon Navi】パスワード再設定のご案内",
    lead: "パスワード再設定のお申し込みを受け付けました。下のリンクを開いて、新しいパスワードを設定してください。",
    action: "パスワードを再設定する",
    note: "リンクの有効期限は1時間です。お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。",
  },
  magicLink: {
    subject: "【Salon Navi】ログイン用リンクのお知らせ",
    lead: "ログイン用のリンクをお送りします。下のリンクを開くと、パスワードなしでログインできます。",
    action: "Salon Naviにログインする",
    note: "リンクの有効期限は5分で、1回だけ使えます。お心当たりがない場合は、このメールを破棄してください。",
  },
} satisfies Record<string, Template>;

export type MailKind = keyof typeof templates;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMail(kind: MailKind, to: string, url: string): Mail {
  const t = templates[kind];
  const text = [
    "Salon Naviをご利用いただきありがとうございます。",
    "",
    t.lead,
    "",
    `${t.action}：`,
    url,
    "",
    t.note,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>Salon Naviをご利用いただきありがとうございます。</p>
<p>${escapeHtml(t.lead)}</p>
<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>
<p style="font-size:0.9em;color:#555">${escapeHtml(t.note)}</p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return { to, subject: t.subject, text, html };
}
