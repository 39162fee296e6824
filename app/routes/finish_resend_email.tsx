import { Link } from "react-router";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/finish_resend_email";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "確認メールを再送しました",
    description: "確認メールの再送について",
    path: "/finish_resend_email",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function FinishResendEmail() {
  return (
    <AccountFrame title="確認メールを再送しました">
      <Notice>
        確認メールをもう一度お送りしました。メールに記載のリンクを1時間以内に開いて、メールアドレスの確認を完了してください。
      </Notice>
      <p>
        <Link to="/" className={linkClass}>
          トップページへ
        </Link>
      </p>
    </AccountFrame>
  );
}
