import { Link } from "react-router";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.change-password.thanks";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "パスワードを変更しました",
    description: "パスワードの変更が完了しました",
    path: "/account/edit/change-password/thanks",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function ChangePasswordThanks() {
  return (
    <AccountFrame title="パスワードを変更しました">
      <Notice>パスワードの変更が完了しました。ほかの端末からはログアウトしています。</Notice>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
