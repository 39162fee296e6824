import type { AuthContext } from "better-auth";
import { APIError } from "better-auth/api";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { authAccounts } from "../db/schema";

/**
 * The rules around changing the sign-in address (issue 27): only the
 * account's owner may ask, the old address is told at once, and a password
 * changed afterwards (the old address's "it was not me") voids the link.
 */

/** An account without a password proves its owner by a sign-in this recent. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

type SignedIn = { session: { createdAt: Date }; user: { id: string } };

/**
 * Throws unless the request proves the owner is there: the current password,
 * or, for an account that has none (mail link, external provider), a sign-in
 * in the last ten minutes. A stolen session alone cannot move the account.
 */
export async function assertOwnerPresent(
  context: AuthContext,
  signedIn: SignedIn,
  password: unknown,
  now = Date.now(),
) {
  const credential = await credentialOf(context, signedIn.user.id);
  if (credential?.password) {
    const ok =
      typeof password === "string" &&
      password !== "" &&
      (await context.password.verify({ hash: credential.password, password }));
    if (!ok) {
      throw new APIError("BAD_REQUEST", {
        code: "INVALID_PASSWORD",
        message: "現在のパスワードが正しくありません。",
      });
    }
    return;
  }
  if (now - new Date(signedIn.session.createdAt).getTime() > RECENT_SIGN_IN_MS) {
    throw new APIError("FORBIDDEN", {
      code: "SESSION_NOT_FRESH",
      message: "安全のため、もう一度ログインしてから操作してください。",
    });
  }
}

/**
 * Whether an email-change link issued at `issuedAt` (the token's iat, in
 * seconds) was voided by a password change after it. A change within the
 * same second as the link does not count, so creating an account and asking
 * for a change at once never voids the link.
 */
export async function changeLinkVoided(context: AuthContext, oldEmail: string, issuedAt: number) {
  const found = await context.internalAdapter.findUserByEmail(oldEmail);
  if (!found) return false;
  const credential = await credentialOf(context, found.user.id);
  if (!credential?.password) return false;
  return new Date(credential.updatedAt).getTime() >= (issuedAt + 1) * 1000;
}

async function credentialOf(context: AuthContext, userId: string) {
  const accounts = await context.internalAdapter.findAccounts(userId);
  return accounts.find((account) => account.providerId === "credential");
}

/** Whether the user signs in with a password (else by mail link or a provider only). */
export async function hasPassword(db: Database, userId: string) {
  const [row] = await db
    .select({ id: authAccounts.id })
    .from(authAccounts)
    .where(
      and(
        eq(authAccounts.userId, userId),
        eq(authAccounts.providerId, "credential"),
        isNotNull(authAccounts.password),
      ),
    )
    .limit(1);
  return row !== undefined;
}
