import { data, redirect } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { fieldErrors } from "../../common/field-rules";
import { emailOnlySchema, signInSchema } from "../../server/accounts/account.schema";
import { authErrorCodeOf } from "../../server/accounts/auth-error";
import type { ExternalProviderId } from "../../server/accounts/external-providers";
import { authFailure, formValues } from "../../server/accounts/form-result";
import {
  sendSignInLink,
  signInWithPassword,
  startExternalSignIn,
} from "../../server/accounts/identity";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import { signInLanding } from "../../server/salon-access/salon-access.server";
import { SignInForms } from "../components/accounts/sign-in-forms";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/signin";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "ログイン",
    description: "Salon Naviにログインして、サロンの予約やお気に入りをご利用ください。",
    path: "/signin",
    origin: originFromMatches(matches),
  });

export function loader({ request, context }: Route.LoaderArgs) {
  const { accounts } = context.get(appContext);
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  return {
    providers: accounts.providers,
    redirectTo: safeRedirectPath(params.get("redirect"), ""),
    linkSent: params.get("sent") === "link",
    // Magic-link and external sign-in failures come back as ?error=<Better Auth code>.
    error: error ? authErrorMessage(authErrorCodeOf(error)) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { accounts, db } = context.get(appContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "password");
  const values = { ...formValues(form, ["email", "redirect"]), intent };
  const redirectTo = safeRedirectPath(values.redirect);
  // Without a destination, a salon's staff go to work (the back office); anyone else home.
  const landing = async (email: string) =>
    values.redirect ? redirectTo : ((await signInLanding(db, email)) ?? redirectTo);
  try {
    if (intent === "external") {
      const provider = String(form.get("provider") ?? "") as ExternalProviderId;
      const { url, headers } = await startExternalSignIn(accounts, provider, request, redirectTo);
      return redirect(url, { headers });
    }
    if (intent === "link") {
      const parsed = emailOnlySchema.safeParse(values);
      if (!parsed.success) {
        return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
      }
      await sendSignInLink(
        accounts,
        { email: parsed.data.email, redirectTo: await landing(parsed.data.email) },
        request,
      );
      const back = values.redirect ? `&redirect=${encodeURIComponent(redirectTo)}` : "";
      return redirect(`/signin?sent=link${back}`);
    }
    const parsed = signInSchema.safeParse({ ...values, password: form.get("password") ?? "" });
    if (!parsed.success) {
      return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
    }
    const headers = await signInWithPassword(accounts, parsed.data, request);
    return redirect(await landing(parsed.data.email), { headers });
  } catch (error) {
    return authFailure(error, values);
  }
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  return <SignInForms {...loaderData} actionData={actionData} />;
}
