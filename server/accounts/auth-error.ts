import { APIError } from "better-auth/api";
import type { AuthErrorCode } from "../../common/auth-errors";

/** A failed identity operation, carrying one code of SPEC.md §8 (messages: app/lib/auth-errors.ts). */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    readonly status = 400,
  ) {
    super(code);
    this.name = "AuthError";
  }
}

/** Better Auth's error codes (API errors and redirect `?error=` values) to ours. */
const fromBetterAuth: Record<string, AuthErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: "invalid-credential",
  USER_NOT_FOUND: "invalid-credential",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "invalid-credential",
  INVALID_PASSWORD: "wrong-password",
  USER_ALREADY_EXISTS: "email-already-in-use",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email-already-in-use",
  PASSWORD_TOO_SHORT: "password-does-not-meet-requirements",
  PASSWORD_TOO_LONG: "password-does-not-meet-requirements",
  PASSWORD_DOES_NOT_MEET_REQUIREMENTS: "password-does-not-meet-requirements",
  INVALID_TOKEN: "invalid-action-code",
  TOKEN_EXPIRED: "expired-action-code",
  EXPIRED_TOKEN: "expired-action-code",
  ATTEMPTS_EXCEEDED: "invalid-action-code",
  BANNED_USER: "user-disabled",
  banned: "user-disabled",
  SESSION_EXPIRED: "user-token-expired",
  SESSION_NOT_FRESH: "requires-recent-login",
  INVALID_USER: "user-mismatch",
  INVALID_ORIGIN: "unauthorized-domain",
  INVALID_CALLBACK_URL: "unauthorized-domain",
  MISSING_OR_NULL_ORIGIN: "unauthorized-domain",
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: "login-blocked",
  PROVIDER_NOT_FOUND: "login-blocked",
  signup_disabled: "login-blocked",
  access_denied: "popup-closed-by-user",
  state_mismatch: "cancelled-popup-request",
  please_restart_the_process: "cancelled-popup-request",
  invalid_code: "network-request-failed",
  unable_to_get_user_info: "network-request-failed",
  unable_to_create_user: "network-request-failed",
  account_not_linked: "email-already-in-use",
  email_not_found: "invalid-api-key",
  "email_doesn't_match": "user-mismatch",
};

export function authErrorCodeOf(code: string | null | undefined): AuthErrorCode {
  return knownAuthErrorCode(code) ?? "invalid-action-code";
}

/** Our code for one of Better Auth's, or undefined when it has none. */
export function knownAuthErrorCode(code: string | null | undefined): AuthErrorCode | undefined {
  return code ? fromBetterAuth[code] : undefined;
}

/** Turns a thrown Better Auth error into an AuthError; anything else is re-thrown as is. */
export function translateAuthError(error: unknown): never {
  if (error instanceof AuthError) throw error;
  if (error instanceof APIError) {
    if (error.statusCode === 429) throw new AuthError("too-many-requests", 429);
    const code = String((error.body as { code?: string } | undefined)?.code ?? "");
    const mapped = fromBetterAuth[code];
    if (mapped) throw new AuthError(mapped, error.statusCode === 403 ? 403 : 400);
    if (error.statusCode === 401) throw new AuthError("user-token-expired", 401);
  }
  throw error;
}
