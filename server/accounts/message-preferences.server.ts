import { eq, sql } from "drizzle-orm";
import {
  lineUnavailableReason,
  type MessageChannelsInput,
  type MessageKindName,
} from "../../common/message-channels";
import type { Database } from "../db/client";
import { type MessageChannelChoice, messageChannels, messageKinds } from "../db/schema";
import { linkedLineUser } from "../line/message-channels.server";

/** One kind's row of 通知設定. */
export type MessageChannelRow = {
  kind: MessageKindName;
  /** The channel the form shows checked: the one messages of this kind go by now. */
  channel: MessageChannelChoice;
  /** The visitor's own choice, or null when none was saved (the default applies). */
  saved: MessageChannelChoice | null;
};

export type MessagePreferences = {
  line: { linked: boolean; following: boolean };
  /** Why LINE and 両方 cannot be chosen, or null when they can. */
  lineReason: string | null;
  rows: MessageChannelRow[];
};

/**
 * 通知設定 of one visitor (issue 41 §1, decision 0090): per kind, the
 * channel its messages go by now. That is messageRoute's answer: the saved
 * choice, else LINE when the account is linked and follows the official
 * account, else mail; and mail whatever was chosen while LINE cannot be reached.
 */
export async function messagePreferences(
  db: Database,
  userId: string,
): Promise<MessagePreferences> {
  const lineUser = await linkedLineUser(db, userId);
  const line = { linked: lineUser !== null, following: lineUser?.following ?? false };
  const reachable = line.linked && line.following;
  const saved = await db
    .select({ kind: messageChannels.kind, channel: messageChannels.channel })
    .from(messageChannels)
    .where(eq(messageChannels.userId, userId));
  const savedOf = new Map(saved.map((row) => [row.kind, row.channel]));
  return {
    line,
    lineReason: lineUnavailableReason(line),
    rows: messageKinds.map((kind) => {
      const choice = savedOf.get(kind) ?? null;
      const channel = reachable ? (choice ?? "line") : "mail";
      return { kind, channel, saved: choice };
    }),
  };
}

export type SaveMessageChannelsResult =
  | { ok: true }
  | { ok: false; errors: Partial<Record<MessageKindName, string>> };

/**
 * Saves every kind's channel. LINE or 両方 is refused (nothing saved) while
 * the account cannot be reached on LINE: not linked, or not following the
 * official account. The page disables those choices; this is the server's
 * own check.
 */
export async function saveMessageChannels(
  db: Database,
  userId: string,
  input: MessageChannelsInput,
): Promise<SaveMessageChannelsResult> {
  const lineUser = await linkedLineUser(db, userId);
  const reason = lineUnavailableReason({
    linked: lineUser !== null,
    following: lineUser?.following ?? false,
  });
  if (reason) {
    const errors = Object.fromEntries(
      messageKinds
        .filter((kind) => input[kind] !== "mail")
        .map((kind) => [kind, `LINEは選べません（${reason}）。`]),
    );
    if (Object.keys(errors).length > 0) return { ok: false, errors };
  }
  await db
    .insert(messageChannels)
    .values(messageKinds.map((kind) => ({ userId, kind, channel: input[kind] })))
    .onConflictDoUpdate({
      target: [messageChannels.userId, messageChannels.kind],
      set: { channel: sql`excluded.channel`, updatedAt: sql`now()` },
    });
  return { ok: true };
}
