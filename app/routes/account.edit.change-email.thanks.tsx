import { Link } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { authErrorCodeOf } from "../../server/accounts/auth-error";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.change-email.thanks";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "メールアドレスの変更",
    description: "メールアドレスの変更結果",
    path: "/account/edit/change-email/thanks",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

/** Target of the link in the confirmation mail; ?error= when the link was not valid. */
export function loader({ request }: Route.LoaderArgs) {
  const error = new URL(request.url).searchParams.get("error");
  return { error: error ? authErrorMessage(authErrorCodeOf(error)) : null };
}

export default function ChangeEmailThanks({ loaderData }: Route.ComponentProps) {
  if (loaderData.error) {
    return (
      <AccountFrame title="メールアドレスを変更できませんでした">
        <Notice tone="error">{loaderData.error}</Notice>
        <p>
          <Link to="/account/edit/change-email" className={linkClass}>
            もう一度変更する
          </Link>
        </p>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title="メールアドレスを変更しました">
      <Notice>
        メールアドレスの変更が完了しました。次回から新しいメールアドレスでログインしてください。
      </Notice>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
