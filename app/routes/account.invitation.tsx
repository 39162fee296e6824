import { data, Form, Link, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { type MemberRoleName, memberRoleHints, memberRoleLabels } from "../../common/member-roles";
import { newPasswordSchema } from "../../server/accounts/account.schema";
import { backOfficeLink } from "../../server/accounts/back-office";
import { signInWithNewPassword } from "../../server/accounts/identity";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { acceptInvitation, findInvitation } from "../../server/invitations/invitations.server";
import {
  AccountFrame,
  linkClass,
  Notice,
  SubmitButton,
  useClearOnResult,
} from "../components/accounts/account-frame";
import { NewPasswordFields } from "../components/accounts/new-password-fields";
import { ErrorSummary } from "../components/form/field";
import type { Route } from "./+types/account.invitation";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData?.invitation?.memberRole || loaderData?.done === "member" ? "スタッフ招待" : "オーナー招待"} | Salon Navi`,
  },
  { name: "robots", content: "noindex" },
];

/**
 * The owner invitation link (?token=). Opening it changes nothing (mail
 * scanners open links); the form's submit spends the token: a new owner sets
 * the password, an existing user confirms becoming an owner. No guard: the
 * token is the proof.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const params = new URL(request.url).searchParams;
  const done = params.get("done");
  if (done === "new_owner" || done === "upgrade" || done === "member") {
    return { done, invitation: null, token: "", policy: ctx.accounts.policy };
  }
  const token = params.get("token") ?? "";
  const invitation = await findInvitation(ctx.db, token, new Date());
  if (!invitation) {
    return data(
      { done: null, invitation: null, token: "", policy: ctx.accounts.policy },
      { status: 410 },
    );
  }
  return { done: null, invitation, token, policy: ctx.accounts.policy };
}

/** Where a new owner lands once signed in: their back office, or their account until it exists. */
const ownerLandingPath = () => backOfficeLink("owner")?.href ?? "/account/edit";

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const now = new Date();
  const invitation = await findInvitation(ctx.db, token, now);
  const gone = (message: string) => data({ errors: { form: message } }, { status: 410 });
  if (!invitation) {
    return gone(
      "この招待リンクは使えません（使用済みか、有効期限の72時間を過ぎています）。管理者に再送を依頼してください。",
    );
  }
  let password: string | undefined;
  if (invitation.kind === "new_owner") {
    const parsed = newPasswordSchema(ctx.accounts.policy).safeParse({
      token,
      password: String(form.get("password") ?? ""),
      passwordConfirm: String(form.get("passwordConfirm") ?? ""),
    });
    if (!parsed.success) {
      return data({ errors: fieldErrors<string>(parsed.error) }, { status: 400 });
    }
    password = parsed.data.password;
  }
  try {
    const hash = async (plain: string) => (await ctx.accounts.auth.$context).password.hash(plain);
    const result = await acceptInvitation(ctx.db, hash, { token, password }, now);
    if (result.kind === "new_owner" && password) {
      const landing = result.memberRole ? "/owner" : ownerLandingPath();
      // Signed in at once, onto the owner's own page (issue 27); should that
      // fail, the done screen below still leads to the sign-in form.
      const headers = await signInWithNewPassword(
        ctx.accounts,
        { email: result.email, password },
        request,
      ).catch(() => null);
      if (headers) return redirect(landing, { headers });
    }
    // Redirected, so a reload does not post the spent token again.
    const done = result.memberRole && result.kind === "upgrade" ? "member" : result.kind;
    return redirect(`/account/invitation?done=${done}`);
  } catch (error) {
    if (error instanceof DomainError) return gone(error.message);
    throw error;
  }
}

export default function AccountInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const { done } = loaderData;
  if (done) {
    return (
      <AccountFrame
        title={
          done === "new_owner"
            ? "パスワードを設定しました"
            : done === "member"
              ? "スタッフ登録が完了しました"
              : "オーナー登録が完了しました"
        }
      >
        <Notice>
          {done === "new_owner"
            ? "設定したパスワードでログインできます。"
            : done === "member"
              ? "サロンのスタッフとして登録しました。ログインすると、サロン管理（/owner）から開けます。"
              : "アカウントがサロンオーナーになりました。次回のページ表示から反映されます。"}
        </Notice>
        <p>
          <Link to="/signin" className={linkClass}>
            ログイン画面へ
          </Link>
        </p>
      </AccountFrame>
    );
  }
  const { invitation, token, policy } = loaderData;
  if (!invitation) {
    return (
      <AccountFrame title="招待リンクが無効です">
        <Notice tone="error">
          この招待リンクは使えません（使用済みか、有効期限の72時間を過ぎています）。Salon
          Naviの担当者に再送を依頼してください。
        </Notice>
        <p>
          <Link to="/" className={linkClass}>
            トップページへ
          </Link>
        </p>
      </AccountFrame>
    );
  }
  const salonNames = invitation.salons.map((salon) => salon.name).join("、");
  if (invitation.memberRole) {
    return (
      <MemberInvitation
        invitation={{ ...invitation, memberRole: invitation.memberRole }}
        salonNames={salonNames}
        token={token}
        policy={policy}
        errors={errors}
        busy={busy}
        clearKey={clearKey}
      />
    );
  }
  if (invitation.kind === "upgrade") {
    return (
      <AccountFrame
        title="サロンオーナー登録の確認"
        lead={`${invitation.email} のアカウントをサロンオーナーにします。`}
      >
        {salonNames ? <p>担当サロン：{salonNames}</p> : null}
        <Form method="post" className="flex flex-col gap-5">
          <input type="hidden" name="token" value={token} />
          <ErrorSummary errors={errors} />
          <SubmitButton busy={busy}>オーナー登録を承認する</SubmitButton>
        </Form>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame
      title="パスワードの設定"
      lead={`${invitation.name} 様（${invitation.email}）のサロンオーナー用アカウントのパスワードを設定してください。`}
    >
      {salonNames ? <p>担当サロン：{salonNames}</p> : null}
      <Form method="post" noValidate className="flex flex-col gap-5">
        <input type="hidden" name="token" value={token} />
        <input
          type="email"
          name="email"
          value={invitation.email}
          autoComplete="username"
          readOnly
          hidden
        />
        <ErrorSummary errors={errors} />
        <NewPasswordFields
          idPrefix="invitation-password"
          name="password"
          label="パスワード"
          policy={policy}
          clearKey={clearKey}
          errors={errors}
        />
        <SubmitButton busy={busy}>パスワードを設定する</SubmitButton>
      </Form>
    </AccountFrame>
  );
}

/** A salon's staff invitation: which salon and role, then the password or the confirmation. */
function MemberInvitation({
  invitation,
  salonNames,
  token,
  policy,
  errors,
  busy,
  clearKey,
}: {
  invitation: {
    kind: string;
    email: string;
    name: string;
    memberRole: MemberRoleName;
    staffName: string | null;
  };
  salonNames: string;
  token: string;
  policy: Parameters<typeof NewPasswordFields>[0]["policy"];
  errors: Record<string, string | undefined>;
  busy: boolean;
  clearKey: Parameters<typeof NewPasswordFields>[0]["clearKey"];
}) {
  const role = memberRoleLabels[invitation.memberRole];
  const details = (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="font-bold">サロン</dt>
      <dd>{salonNames}</dd>
      <dt className="font-bold">役割</dt>
      <dd>
        {role}
        {invitation.staffName ? `（${invitation.staffName}）` : ""}
        <span className="block text-sm text-neutral-700">
          {memberRoleHints[invitation.memberRole]}
        </span>
      </dd>
    </dl>
  );
  if (invitation.kind === "upgrade") {
    return (
      <AccountFrame
        title="スタッフ招待の確認"
        lead={`${invitation.email} のアカウントで、サロンのスタッフになります。`}
      >
        {details}
        <Form method="post" className="flex flex-col gap-5">
          <input type="hidden" name="token" value={token} />
          <ErrorSummary errors={errors} />
          <SubmitButton busy={busy}>スタッフ招待を承認する</SubmitButton>
        </Form>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame
      title="パスワードの設定"
      lead={`${invitation.name} 様（${invitation.email}）のスタッフ用アカウントのパスワードを設定してください。`}
    >
      {details}
      <Form method="post" noValidate className="flex flex-col gap-5">
        <input type="hidden" name="token" value={token} />
        <input
          type="email"
          name="email"
          value={invitation.email}
          autoComplete="username"
          readOnly
          hidden
        />
        <ErrorSummary errors={errors} />
        <NewPasswordFields
          idPrefix="invitation-password"
          name="password"
          label="パスワード"
          policy={policy}
          clearKey={clearKey}
          errors={errors}
        />
        <SubmitButton busy={busy}>パスワードを設定する</SubmitButton>
      </Form>
    </AccountFrame>
  );
}
