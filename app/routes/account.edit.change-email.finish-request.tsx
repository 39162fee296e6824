import { Link } from "react-router";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.change-email.finish-request";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "確認メールを送信しました",
    description: "メールアドレス変更の確認メールについて",
    path: "/account/edit/change-email/finish-request",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function ChangeEmailFinishRequest() {
  return (
    <AccountFrame title="確認メールを送信しました">
      <Notice>
        新しいメールアドレスに確認メールをお送りしました。メールに記載のリンクを1時間以内に開くと、メールアドレスの変更が完了します。変更が完了するまでは、現在のメールアドレスでログインしてください。
      </Notice>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
