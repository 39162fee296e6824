import { data, redirect } from "react-router";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { preferenceCookie } from "../lib/cookies";
import { isTheme, THEME_COOKIE, THEME_COOKIE_MAX_AGE } from "../lib/theme";
import type { Route } from "./+types/preferences.theme";

/** Stores the chosen theme in a cookie and goes back to the page it came from. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isTheme(theme)) {
    return data({ error: "表示テーマを選択してください。" }, { status: 400 });
  }
  // Only same-site paths: never an open redirect.
  const target = safeRedirectPath(form.get("returnTo"));
  return redirect(target, {
    headers: { "Set-Cookie": preferenceCookie(THEME_COOKIE, theme, THEME_COOKIE_MAX_AGE) },
  });
}
