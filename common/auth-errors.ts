/**
 * Every identity error code of SPEC.md §8 with its one Japanese message.
 * Messages say what to do next. Sign-in and reset never tell whether an
 * address is registered, so the credential codes share one wording.
 */
export const authErrorMessages = {
  "invalid-credential":
    "メールアドレスまたはパスワードが正しくありません。入力内容を確かめて、もう一度お試しください。",
  "wrong-password":
    "メールアドレスまたはパスワードが正しくありません。入力内容を確かめて、もう一度お試しください。",
  "user-not-found":
    "メールアドレスまたはパスワードが正しくありません。入力内容を確かめて、もう一度お試しください。",
  "email-already-in-use":
    "このメールアドレスは登録できません。ログインするか、別のメールアドレスをお使いください。",
  "too-many-requests":
    "短時間に操作が集中したため、一時的に受け付けを停止しています。しばらく待ってから、もう一度お試しください。",
  "expired-action-code":
    "リンクの有効期限が切れています。お手数ですが、もう一度メールの送信からやり直してください。",
  "invalid-action-code":
    "リンクが無効です。使用済みか、URLが途中で切れている可能性があります。もう一度メールの送信からやり直してください。",
  "requires-recent-login": "安全のため、もう一度ログインしてから操作してください。",
  "user-token-expired": "ログインの有効期限が切れました。もう一度ログインしてください。",
  "user-disabled":
    "このアカウントは利用を停止されています。お心当たりがない場合はお問い合わせください。",
  "network-request-failed":
    "通信に失敗しました。インターネット接続を確かめて、もう一度お試しください。",
  "password-does-not-meet-requirements":
    "パスワードが条件を満たしていません。表示されている条件に合わせて入力し直してください。",
  "popup-blocked":
    "ログイン画面を開けませんでした。ポップアップのブロックを解除して、もう一度お試しください。",
  "popup-closed-by-user": "ログインが完了する前に画面が閉じられました。もう一度お試しください。",
  "cancelled-popup-request": "ログインを中断しました。もう一度お試しください。",
  "unauthorized-domain":
    "このサイトからはこのログイン方法を使えません。別のログイン方法をお試しください。",
  "user-mismatch":
    "ログイン中のアカウントと異なるアカウントで認証されました。同じアカウントでもう一度お試しください。",
  "invalid-api-key":
    "ログインサービスの設定に問題があります。時間をおいてお試しいただくか、お問い合わせください。",
  "login-blocked": "このログイン方法は現在ご利用いただけません。別のログイン方法をお試しください。",
  "multi-factor-auth-required": "追加の本人確認が必要です。画面の案内に従って認証してください。",
} as const;

export type AuthErrorCode = keyof typeof authErrorMessages;

export const isAuthErrorCode = (code: unknown): code is AuthErrorCode =>
  typeof code === "string" && Object.hasOwn(authErrorMessages, code);

/** The message for a code from a query string or an action; a generic one for anything else. */
export function authErrorMessage(code: unknown): string {
  return isAuthErrorCode(code)
    ? authErrorMessages[code]
    : "処理を完了できませんでした。もう一度お試しください。";
}
