import { Link } from "react-router";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.thanks";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "登録ありがとうございます",
    description: "お客様情報の登録が完了しました",
    path: "/account/thanks",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function AccountThanks() {
  return (
    <AccountFrame title="登録ありがとうございます">
      <Notice>お客様情報の登録が完了しました。さっそくサロンを探して予約してみましょう。</Notice>
      <p>
        <Link to="/" className={linkClass}>
          サロンを探す
        </Link>
      </p>
    </AccountFrame>
  );
}
