import { data, redirect } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { profileSchema } from "../../common/profile.schema";
import { AuthError } from "../../server/accounts/auth-error";
import { formValues } from "../../server/accounts/form-result";
import { requireAuthFull, requireLogin } from "../../server/accounts/guards";
import { startLineLink } from "../../server/accounts/identity";
import { lineLinkNotice, lineLinkStatus, unlinkLine } from "../../server/accounts/line-link.server";
import { saveProfile } from "../../server/accounts/profile";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import { ProfileForm } from "../components/accounts/profile-form";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "アカウント編集",
    description: "お客様情報の登録・変更",
    path: "/account/edit",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

const fields = ["name", "nameKana", "phone", "gender", "birthDate"] as const;

// Guards (SPEC.md §2): auth-full, is-login.
async function guard(request: Request, ctx: Parameters<typeof requireLogin>[1]) {
  await requireAuthFull(request, ctx);
  return requireLogin(request, ctx);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  // LINE's section only where LINE sign-in is configured.
  const line = ctx.accounts.providers.includes("line")
    ? {
        ...(await lineLinkStatus(ctx.db, user.id)),
        notice: lineLinkNotice(new URL(request.url).searchParams),
      }
    : null;
  return { email: user.email, profile: user.profile, line };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await guard(request, ctx);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "link-line") {
    try {
      const { url, headers } = await startLineLink(ctx.accounts, request);
      return redirect(url, { headers });
    } catch (error) {
      // Refused before leaving for LINE (too many attempts, LINE unreachable): said in LINE's section.
      if (!(error instanceof AuthError)) throw error;
      return redirect(`/account/edit?line=failed&error=${error.code}#line-settings`);
    }
  }
  if (intent === "unlink-line") {
    return redirect(`/account/edit?line=${await unlinkLine(ctx.db, user.id)}#line-settings`);
  }
  const values = formValues(form, fields);
  const parsed = profileSchema().safeParse(values);
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
  }
  const first = !user.profile?.completed;
  await saveProfile(ctx.db, user.id, parsed.data);
  // Sent here to complete the profile on the way somewhere (a held time): go on there.
  const back = safeRedirectPath(new URL(request.url).searchParams.get("redirect"), "");
  if (back) return redirect(back);
  return redirect(first ? "/account/thanks" : "/account/edit?saved=1");
}

export default function AccountEdit({ loaderData, actionData }: Route.ComponentProps) {
  return <ProfileForm {...loaderData} actionData={actionData} />;
}
