import type { AccountServices } from "./account-services";
import { authCallbacks } from "./auth-callbacks";
import { AuthError, translateAuthError } from "./auth-error";
import { trustedDevice } from "./device-cookie";
import type { ExternalProviderId } from "./external-providers";
import { lineLinkCallbacks } from "./line-link.server";
import { consumeAttempt, type LimitedAction } from "./rate-limit";
import { clientIp } from "./request-info";

/**
 * The identity operations behind the account screens. Each calls Better
 * Auth on the server (so the forms work without JavaScript), counts the
 * attempt against the rate limits first, and answers the Set-Cookie headers
 * to pass on, or throws an AuthError with a SPEC.md §8 code.
 */

async function limit(
  services: AccountServices,
  action: LimitedAction,
  request: Request,
  email?: string,
) {
  const device = email ? trustedDevice(request.headers, services.deviceSecret, email) : null;
  const result = await consumeAttempt(services.limits, action, {
    ip: clientIp(request),
    email,
    device,
  });
  if (!result.allowed) throw new AuthError("too-many-requests", 429);
}

/** Only the cookies of Better Auth's answer go on to the browser's redirect. */
function cookiesOf(headers: Headers) {
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("set-cookie", cookie);
  return out;
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return translateAuthError(error);
  }
}

export async function signUpWithPassword(
  services: AccountServices,
  input: { email: string; password: string; redirectTo?: string },
  request: Request,
) {
  await limit(services, "sign-up", request, input.email);
  const { redirectTo, ...credentials } = input;
  // The verification link lands on /finish_sign_up, which leads on to redirectTo (e.g. a held time).
  const callbackURL = redirectTo
    ? `${authCallbacks.verified}&redirect=${encodeURIComponent(redirectTo)}`
    : authCallbacks.verified;
  const { headers } = await call(() =>
    services.auth.api.signUpEmail({
      body: { ...credentials, name: "", callbackURL },
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  return cookiesOf(headers);
}

export async function signInWithPassword(
  services: AccountServices,
  input: { email: string; password: string },
  request: Request,
) {
  await limit(services, "sign-in", request, input.email);
  const { headers } = await call(() =>
    services.auth.api.signInEmail({ body: input, headers: request.headers, returnHeaders: true }),
  );
  return cookiesOf(headers);
}

/** Sends a sign-in link; says nothing about whether the address is registered. */
export async function sendSignInLink(
  services: AccountServices,
  input: { email: string; redirectTo?: string },
  request: Request,
) {
  await limit(services, "send-mail", request, input.email);
  await call(() =>
    services.auth.api.signInMagicLink({
      body: {
        email: input.email,
        callbackURL: input.redirectTo ?? authCallbacks.signedIn,
        newUserCallbackURL: authCallbacks.newUser,
        errorCallbackURL: authCallbacks.signInError,
      },
      headers: request.headers,
    }),
  );
}

/** The provider's authorization URL and the state cookie to set before going there. */
export async function startExternalSignIn(
  services: AccountServices,
  provider: ExternalProviderId,
  request: Request,
  redirectTo: string = authCallbacks.signedIn,
) {
  if (!services.providers.includes(provider)) throw new AuthError("login-blocked");
  await limit(services, "sign-in", request);
  const { headers, response } = await call(() =>
    services.auth.api.signInSocial({
      body: {
        provider,
        callbackURL: redirectTo,
        newUserCallbackURL: authCallbacks.newUser,
        errorCallbackURL: authCallbacks.signInError,
        disableRedirect: true,
      },
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!response.url) throw new AuthError("network-request-failed");
  return { url: response.url, headers: cookiesOf(headers) };
}

/**
 * Starts linking LINE to the signed-in account (マイページ): LINE's
 * authorization URL and the state cookie, as for a sign-in. The callback
 * adds the LINE sign-in method to this account and comes back to
 * /account/edit, or there with `?line=failed&error=…` (line-link.server.ts).
 */
export async function startLineLink(services: AccountServices, request: Request) {
  if (!services.providers.includes("line")) throw new AuthError("login-blocked", 404);
  await limit(services, "sign-in", request);
  const { headers, response } = await call(() =>
    services.auth.api.linkSocialAccount({
      body: {
        provider: "line",
        callbackURL: lineLinkCallbacks.linked,
        errorCallbackURL: lineLinkCallbacks.failed,
        disableRedirect: true,
      },
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  if (!response.url) throw new AuthError("network-request-failed");
  return { url: response.url, headers: cookiesOf(headers) };
}

/**
 * Signs in a new owner with the password they have just set from their
 * invitation. No attempt is counted: the spent invitation token is the
 * proof, and a stranger's guesses on the address must not keep them out.
 */
export async function signInWithNewPassword(
  services: AccountServices,
  input: { email: string; password: string },
  request: Request,
) {
  const { headers } = await call(() =>
    services.auth.api.signInEmail({ body: input, headers: request.headers, returnHeaders: true }),
  );
  return cookiesOf(headers);
}

export async function signOut(services: AccountServices, request: Request, everywhere = false) {
  if (everywhere) {
    await call(() => services.auth.api.revokeSessions({ headers: request.headers })).catch(
      () => undefined,
    );
  }
  const { headers } = await call(() =>
    services.auth.api.signOut({ headers: request.headers, returnHeaders: true }),
  );
  return cookiesOf(headers);
}

/** Always looks successful, so the form never reveals whether an address is registered. */
export async function requestPasswordReset(
  services: AccountServices,
  input: { email: string },
  request: Request,
) {
  await limit(services, "password-reset", request, input.email);
  await call(() =>
    services.auth.api.requestPasswordReset({
      body: { email: input.email, redirectTo: authCallbacks.resetPassword },
      headers: request.headers,
    }),
  );
}

export async function resetPassword(
  services: AccountServices,
  input: { token: string; password: string },
  request: Request,
) {
  await limit(services, "password-reset", request);
  await call(() =>
    services.auth.api.resetPassword({
      body: { token: input.token, newPassword: input.password },
      headers: request.headers,
    }),
  );
}

export async function changePassword(
  services: AccountServices,
  input: { currentPassword: string; newPassword: string },
  request: Request,
) {
  // Counted on the account too, like /api/auth/change-password (server/http/auth-limits.ts).
  const session = await services.auth.api
    .getSession({ headers: request.headers })
    .catch(() => null);
  await limit(services, "sign-in", request, session?.user.email);
  const { headers } = await call(() =>
    services.auth.api.changePassword({
      // Other devices are signed out: whoever knew the old password loses access.
      body: { ...input, revokeOtherSessions: true },
      headers: request.headers,
      returnHeaders: true,
    }),
  );
  return cookiesOf(headers);
}

/**
 * Sends a confirmation link to the new address; the email changes when it is
 * opened. The current password is checked (a guess, counted like a sign-in)
 * and the old address is told (server/accounts/email-change.ts, auth.ts hooks).
 */
export async function requestEmailChange(
  services: AccountServices,
  input: { email: string; currentPassword: string },
  request: Request,
) {
  const session = await services.auth.api
    .getSession({ headers: request.headers })
    .catch(() => null);
  await limit(services, "sign-in", request, session?.user.email);
  await limit(services, "send-mail", request, input.email);
  await call(() =>
    services.auth.api.changeEmail({
      // `password` is read by our before hook; Better Auth's own schema ignores it.
      body: {
        newEmail: input.email,
        callbackURL: authCallbacks.emailChanged,
        password: input.currentPassword,
      } as { newEmail: string; callbackURL: string },
      headers: request.headers,
    }),
  );
}

export async function resendVerificationMail(
  services: AccountServices,
  input: { email: string; redirectTo?: string },
  request: Request,
) {
  await limit(services, "send-mail", request, input.email);
  // As at sign-up: the link leads on to redirectTo (e.g. a held time waiting to be booked).
  const callbackURL = input.redirectTo
    ? `${authCallbacks.verified}&redirect=${encodeURIComponent(input.redirectTo)}`
    : authCallbacks.verified;
  await call(() =>
    services.auth.api.sendVerificationEmail({
      body: { email: input.email, callbackURL },
      headers: request.headers,
    }),
  );
}

/**
 * Resends the verification link to an address typed by a visitor who may be
 * signed out (/finish_sign_up). Asked without the session, Better Auth mails
 * only an unverified registered address and answers the same, in at least
 * 500 ms, for any other, so the form tells nothing about the address.
 */
export async function resendVerificationMailTo(
  services: AccountServices,
  input: { email: string },
  request: Request,
) {
  await limit(services, "send-mail", request, input.email);
  const headers = new Headers(request.headers);
  headers.delete("cookie");
  headers.delete("authorization");
  await call(() =>
    services.auth.api.sendVerificationEmail({
      body: { email: input.email, callbackURL: authCallbacks.verified },
      headers,
    }),
  );
}
