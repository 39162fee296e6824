/**
 * The address typed on the sign-up form, kept for an hour in a cookie that
 * /finish_sign_up reads, so its "resend" form is one click. (Path=/: a
 * client navigation loads that page's data from /finish_sign_up.data, which
 * a cookie for the path /finish_sign_up would not reach.) It is
 * set for a new and a registered address alike (decision 0026) and holds
 * only what this browser typed, so it tells nobody anything new.
 */
const NAME = "signup_email";

export function rememberSignUpAddress(email: string, secure: boolean) {
  return [
    `${NAME}=${encodeURIComponent(email)}`,
    "Path=/",
    "Max-Age=3600",
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function signUpAddressOf(request: Request): string {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== NAME) continue;
    try {
      return decodeURIComponent(value.join("=")).slice(0, 254);
    } catch {
      return "";
    }
  }
  return "";
}
