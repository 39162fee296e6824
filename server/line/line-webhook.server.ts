import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client";
import { lineFollows } from "../db/schema";

/**
 * What the inbound LINE webhook records (decision 0089): who follows the
 * official account. Only follow and unfollow events are read; others (a
 * message to the account, a postback) are accepted and ignored.
 */

const eventSchema = z.looseObject({
  type: z.string(),
  timestamp: z.number().int().nonnegative(),
  source: z.looseObject({ type: z.string(), userId: z.string().max(64).optional() }).optional(),
});

export const lineCallbackSchema = z.looseObject({
  destination: z.string().max(64),
  events: z.array(eventSchema).max(500),
});

export type LineCallback = z.infer<typeof lineCallbackSchema>;

/**
 * Each follow or unfollow sets the user's line_follows row, unless the row
 * already holds a newer event: LINE does not promise the order of its
 * deliveries (a redelivered older event must not undo a newer one).
 */
export async function recordLineEvents(db: Database, callback: LineCallback): Promise<number> {
  let recorded = 0;
  for (const event of callback.events) {
    if (event.type !== "follow" && event.type !== "unfollow") continue;
    const lineUserId = event.source?.type === "user" ? event.source.userId : undefined;
    if (!lineUserId) continue;
    const changedAt = new Date(event.timestamp);
    const following = event.type === "follow";
    await db
      .insert(lineFollows)
      .values({ lineUserId, following, changedAt })
      .onConflictDoUpdate({
        target: lineFollows.lineUserId,
        set: { following, changedAt },
        setWhere: sql`${lineFollows.changedAt} < ${changedAt.toISOString()}::timestamptz`,
      });
    recorded++;
  }
  return recorded;
}
