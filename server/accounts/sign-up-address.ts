/**
 * The address typed on the sign-up form, kept for an hour in a cookie that
 * only /finish_sign_up receives, so its "resend" form is one click. It is
 * set for a new and a registered address alike (decision 0026) and holds
 * only what this browser typed, so it tells nobody anything new.
 */
const NAME = "signup_email";

export function rememberSignUpAddress(email: string, secure: boolean) {
  return [
    `${NAME}=${encodeURIComponent(email)}`,
    "Path=/finish_sign_up",
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
