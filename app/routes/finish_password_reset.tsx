import { Link } from "react-router";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/finish_password_reset";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "パスワード再設定",
    description: "パスワード再設定の手続きについて",
    path: "/finish_password_reset",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export function loader({ request }: Route.LoaderArgs) {
  return { done: new URL(request.url).searchParams.get("done") === "1" };
}

export default function FinishPasswordReset({ loaderData }: Route.ComponentProps) {
  if (loaderData.done) {
    return (
      <AccountFrame title="パスワードを変更しました">
        <Notice>新しいパスワードを設定しました。ほかの端末からはログアウトしています。</Notice>
        <p>
          <Link to="/signin" className={linkClass}>
            新しいパスワードでログインする
          </Link>
        </p>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title="再設定メールを送信しました">
      <Notice>
        ご登録のメールアドレスであれば、パスワード再設定用のリンクをお送りしました。1時間以内にリンクを開いて、新しいパスワードを設定してください。
      </Notice>
      <p className="text-sm text-neutral-700">
        メールが届かない場合は、迷惑メールフォルダと、この1時間に届いた再設定メールをご確認ください（同じアドレスへの再設定メールは、以前にログインした端末からのご依頼を除き、1時間に1通までお送りします）。入力したアドレスに誤りがあれば、もう一度お試しください。
      </p>
      <p>
        <Link to="/password-reset" className={linkClass}>
          もう一度送る
        </Link>
      </p>
    </AccountFrame>
  );
}
