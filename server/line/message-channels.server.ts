import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { authAccounts, lineFollows, type MessageKind, messageChannels } from "../db/schema";

/** Where one message to a visitor goes: by mail, to a LINE user, or both. */
export type MessageRoute = { mail: boolean; lineUserId: string | null };

/**
 * The LINE user of an account: the `line` sign-in method's account id (LINE's
 * own user id, the `sub` of its ID token), whether it signed up with LINE or
 * linked LINE from マイページ. Null when the account has no LINE.
 */
export async function linkedLineUser(
  db: Pick<Database, "select">,
  userId: string,
): Promise<{ lineUserId: string; following: boolean } | null> {
  const [row] = await db
    .select({ lineUserId: authAccounts.accountId, following: lineFollows.following })
    .from(authAccounts)
    .leftJoin(lineFollows, eq(lineFollows.lineUserId, authAccounts.accountId))
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "line")))
    .limit(1);
  return row ? { lineUserId: row.lineUserId, following: row.following ?? false } : null;
}

/**
 * The channel of one kind of message to one visitor (issue 41 §1): their own
 * choice, else LINE when their account is linked to LINE and follows the
 * official account, else mail. LINE is only ever used for a linked account
 * that follows (a blocked or unfollowed account gets the mail instead); a
 * guest's booking (no account) goes by mail.
 */
export async function messageRoute(
  db: Pick<Database, "select">,
  userId: string | null,
  kind: MessageKind,
): Promise<MessageRoute> {
  if (!userId) return { mail: true, lineUserId: null };
  const line = await linkedLineUser(db, userId);
  const reachable = line?.following ? line.lineUserId : null;
  const [chosen] = await db
    .select({ channel: messageChannels.channel })
    .from(messageChannels)
    .where(and(eq(messageChannels.userId, userId), eq(messageChannels.kind, kind)));
  const channel = chosen?.channel ?? (reachable ? "line" : "mail");
  if (!reachable) return { mail: true, lineUserId: null };
  return { mail: channel !== "line", lineUserId: channel === "mail" ? null : reachable };
}
