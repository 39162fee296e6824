import { getAuthStateVerificationIdentifier } from "@better-auth/core/utils/state";
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { authAccounts, verifications } from "../db/schema";
import { linkedLineUser } from "../line/message-channels.server";

/** Where Better Auth sends the browser back after LINE's consent screen (identity.ts). */
export const lineLinkCallbacks = {
  linked: "/account/edit?line=linked",
  failed: "/account/edit?line=failed",
} as const;

/** LINE on マイページ: shown only when LINE sign-in is configured. */
export type LineLinkStatus = {
  linked: boolean;
  /** The linked LINE user follows the official account (the inbound webhook's record). */
  following: boolean;
  /** LINE is the account's only sign-in method: unlinking it is refused. */
  onlyMethod: boolean;
};

export async function lineLinkStatus(db: Database, userId: string): Promise<LineLinkStatus> {
  const line = await linkedLineUser(db, userId);
  if (!line) return { linked: false, following: false, onlyMethod: false };
  const methods = await db
    .select({ providerId: authAccounts.providerId })
    .from(authAccounts)
    .where(eq(authAccounts.userId, userId));
  return { linked: true, following: line.following, onlyMethod: methods.length === 1 };
}

export type UnlinkResult = "unlinked" | "not-linked" | "last-method";

/**
 * Removes the account's LINE sign-in method, unless it is the only one left
 * (the visitor could no longer sign in). Ours rather than Better Auth's
 * /unlink-account, which asks for a sign-in within the last day: a visitor
 * who links LINE and changes their mind a week later should not have to sign
 * in again for it. Their channel choices are kept (with no LINE, every
 * message goes by mail: messageRoute), so they come back if LINE is linked again.
 */
export async function unlinkLine(db: Database, userId: string): Promise<UnlinkResult> {
  return db.transaction(async (tx) => {
    const methods = await tx
      .select({ id: authAccounts.id, providerId: authAccounts.providerId })
      .from(authAccounts)
      .where(eq(authAccounts.userId, userId))
      .for("update");
    if (!methods.some((m) => m.providerId === "line")) return "not-linked";
    if (methods.length === 1) return "last-method";
    await tx
      .delete(authAccounts)
      .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "line")));
    return "unlinked";
  });
}

export type LineLinkNotice = { tone: "info" | "error"; text: string };

/** Better Auth's `?error=` codes on the way back from a failed link, in Japanese. */
const linkFailures: Record<string, string> = {
  account_already_linked_to_different_user:
    "このLINEアカウントは、すでに別のアカウントと連携しています。そのアカウントでログインするか、別のLINEアカウントで連携してください。",
  access_denied: "LINEでの連携が許可されなかったため、連携していません。",
  "too-many-requests": "操作が続いたため、しばらく時間をおいてからもう一度お試しください。",
};

/** The message of /account/edit after linking or unlinking LINE (its `?line=` and `?error=`). */
export function lineLinkNotice(params: URLSearchParams): LineLinkNotice | null {
  switch (params.get("line")) {
    case "linked":
      return { tone: "info", text: "LINEと連携しました。" };
    case "unlinked":
      return { tone: "info", text: "LINEとの連携を解除しました。お知らせはメールでお送りします。" };
    case "not-linked":
      return { tone: "info", text: "LINEとは連携していません。" };
    case "last-method":
      return {
        tone: "error",
        text: "LINEはこのアカウントの唯一のログイン方法のため、連携を解除できません。",
      };
    case "failed":
      return {
        tone: "error",
        text:
          linkFailures[params.get("error") ?? ""] ??
          "LINEと連携できませんでした。時間をおいてもう一度お試しください。",
      };
    default:
      return null;
  }
}

/**
 * Better Auth's trusted providers for one request: LINE, on the callback of
 * a link started from マイページ only. A link needs the provider's address to
 * be verified unless the provider is trusted, and LINE's ID token carries no
 * `email_verified`; but a link is proven by the visitor's own session (and
 * LINE's consent), not by the address. Trusting LINE everywhere would also
 * let a LINE sign-in join an existing account by a matching address alone, so
 * the trust is given only when the callback's state (Better Auth's
 * verification row for it) was made by a link.
 */
export async function trustedProvidersFor(
  db: Database,
  request: Request | undefined,
): Promise<string[]> {
  if (request?.method !== "GET") return [];
  const url = new URL(request.url);
  const state = url.searchParams.get("state");
  if (!url.pathname.endsWith("/callback/line") || !state) return [];
  const [row] = await db
    .select({ value: verifications.value })
    .from(verifications)
    .where(eq(verifications.identifier, getAuthStateVerificationIdentifier(state)))
    .limit(1);
  try {
    return row && JSON.parse(row.value)?.link ? ["line"] : [];
  } catch {
    return [];
  }
}
