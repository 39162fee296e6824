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
  emailChangeRequested: {
    subject: "【Salon Navi】メールアドレス変更のお申し込みがありました",
    lead: "ご登録のメールアドレスを別のアドレスへ変更するお申し込みがありました。変更は、新しいアドレスに届いたリンクが開かれた時点で完了します。お心当たりがない場合は、下のリンクからすぐにパスワードを再設定してください。",
    action: "お心当たりがない場合：パスワードを再設定する",
    note: "パスワードを再設定すると、すべての端末からログアウトされ、このお申し込みのリンクは無効になります。ご自身でお申し込みの場合は、このメールへの対応は不要です。",
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
  signUpAttempt: {
    subject: "【Salon Navi】会員登録のお申し込みについて",
    lead: "このメールアドレスで会員登録のお申し込みがありましたが、このアドレスはすでにSalon Naviに登録されています。ご自身のお申し込みでしたら、下のリンクからログインしてください。パスワードをお忘れの場合は、再設定のリンクをお使いください。",
    action: "Salon Naviにログインする",
    note: "お心当たりがない場合は、このメールを破棄してください。アカウントには何の変更もありません。",
  },
  ownerInvitation: {
    subject: "【Salon Navi】サロンオーナーとしてのご招待",
    lead: "Salon Naviの管理者が、あなたをサロンオーナーとして登録しました。下のリンクを開いてパスワードを設定すると、ログインできるようになります。",
    action: "パスワードを設定する",
    note: "リンクの有効期限は72時間で、1回だけ使えます。期限が切れた場合は、Salon Naviの担当者に再送を依頼してください。お心当たりがない場合は、このメールを破棄してください。",
  },
  ownerUpgrade: {
    subject: "【Salon Navi】サロンオーナー登録の確認",
    lead: "Salon Naviの管理者が、ご登録のアカウントをサロンオーナーとして招待しました。下のリンクを開いて承認すると、オーナーとしてサロンを管理できるようになります。",
    action: "招待を確認する",
    note: "リンクの有効期限は72時間で、1回だけ使えます。承認するまでアカウントは変わりません。お心当たりがない場合は、このメールを破棄してください。",
  },
  // A salon's owner invites its staff (decision 0045): the mail names the salon
  // and the role (issue 38, point 8) as facts under the lead, and so does the link's page.
  memberInvitation: {
    subject: "【Salon Navi】サロンのスタッフとしてのご招待",
    lead: "Salon Naviに掲載中の下記のサロンが、あなたをスタッフとして招待しました。下のリンクを開いてパスワードを設定すると、サロンの管理画面にログインできるようになります。",
    action: "パスワードを設定する",
    note: "リンクの有効期限は72時間で、1回だけ使えます。期限が切れた場合は、サロンに再送を依頼してください。お心当たりがない場合は、このメールを破棄してください。",
  },
  memberUpgrade: {
    subject: "【Salon Navi】サロンのスタッフ登録の確認",
    lead: "Salon Naviに掲載中の下記のサロンが、ご登録のアカウントをスタッフとして招待しました。下のリンクを開いて承認すると、サロンの管理画面を開けるようになります。",
    action: "招待を確認する",
    note: "リンクの有効期限は72時間で、1回だけ使えます。承認するまでアカウントは変わりません。お心当たりがない場合は、このメールを破棄してください。",
  },
} satisfies Record<string, Template>;

export type MailKind = keyof typeof templates;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A further link after the main one (e.g. the password reset beside a sign-in link). */
export type MailLink = { label: string; url: string };

/** A line under the lead, 「サロン：…」 (what an invitation is for). */
export type MailFact = { label: string; value: string };

export function renderMail(
  kind: MailKind,
  to: string,
  url: string,
  more: MailLink[] = [],
  facts: MailFact[] = [],
): Mail {
  const t = templates[kind];
  const text = [
    "Salon Naviをご利用いただきありがとうございます。",
    "",
    t.lead,
    "",
    ...(facts.length > 0 ? [...facts.map((fact) => `${fact.label}：${fact.value}`), ""] : []),
    `${t.action}：`,
    url,
    ...more.flatMap((link) => ["", `${link.label}：`, link.url]),
    "",
    t.note,
    "",
    "――",
    "Salon Navi（このメールは送信専用です）",
  ].join("\n");
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7">
<p>Salon Naviをご利用いただきありがとうございます。</p>
<p>${escapeHtml(t.lead)}</p>
${facts.length > 0 ? `<p>${facts.map((fact) => `${escapeHtml(fact.label)}：${escapeHtml(fact.value)}`).join("<br>")}</p>\n` : ""}<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>
${more.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>\n`).join("")}<p style="font-size:0.9em;color:#555">${escapeHtml(t.note)}</p>
<p style="font-size:0.9em;color:#555">Salon Navi（このメールは送信専用です）</p>
</body></html>`;
  return { to, subject: t.subject, text, html };
}
