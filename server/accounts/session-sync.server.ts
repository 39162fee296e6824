import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import type { Logger } from "../logger";

/**
 * The session sync of SPEC §7 (issue 41 §3, decision 0088): when
 * SESSION_SYNC_URL is set, a sign-in POSTs an ID token for the user to it
 * with a bearer header, and the session's end (sign-out, revoked, banned)
 * sends DELETE. Each change is one job on the queue (its dedupe key the
 * session and the change), so it is told once, retried with the queue's
 * backoff, and never holds up the sign-in itself.
 */
export const sessionSyncJobKind = "session_sync";

/** SPEC §9: a token for the sync lives at most 300 s. */
export const SYNC_TOKEN_SECONDS = 300;
const TIMEOUT_MS = 5_000;

export type SessionSyncConfig = Pick<
  Config,
  "SESSION_SYNC_URL" | "SESSION_SYNC_SECRET" | "PUBLIC_URL"
>;
type Change = "signed_in" | "signed_out";

/** Queues the change of one session; does nothing when no sync is configured. */
export async function queueSessionSync(
  db: Pick<Database, "insert">,
  config: Pick<Config, "SESSION_SYNC_URL">,
  change: Change,
  session: { id: string; userId: string },
  now = new Date(),
) {
  if (!config.SESSION_SYNC_URL) return;
  await enqueue(db, {
    kind: sessionSyncJobKind,
    payload: { change, sessionId: session.id, userId: session.userId },
    runAt: now,
    dedupeKey: `${sessionSyncJobKind}:${change}:${session.id}`,
  });
}

/**
 * Ends every session of a user outside Better Auth (an administrator's
 * suspension, a ban found at a request): deletes them and tells the sync of
 * each, as a sign-out through Better Auth's hooks would.
 */
export async function endSessionsOf(
  db: Pick<Database, "delete" | "insert">,
  config: Pick<Config, "SESSION_SYNC_URL">,
  userId: string,
  now = new Date(),
) {
  const ended = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ id: sessions.id, userId: sessions.userId });
  for (const session of ended) await queueSessionSync(db, config, "signed_out", session, now);
  return ended.length;
}

/** An ID token (HS256 with SESSION_SYNC_SECRET) the receiver verifies; never the session's own token. */
export async function signSyncToken(
  config: SessionSyncConfig,
  claims: {
    userId: string;
    email: string;
    emailVerified: boolean;
    name: string;
    sessionId: string;
  },
  now: Date,
  tokenId: string,
) {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    email: claims.email,
    email_verified: claims.emailVerified,
    name: claims.name,
    sid: claims.sessionId,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(config.PUBLIC_URL)
    .setAudience(new URL(config.SESSION_SYNC_URL ?? "").origin)
    .setSubject(claims.userId)
    .setJti(tokenId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + SYNC_TOKEN_SECONDS)
    .sign(new TextEncoder().encode(config.SESSION_SYNC_SECRET ?? ""));
}

class SyncRefused extends Error {}

/** Statuses worth another try: the receiver was busy or down, not saying no. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export function sessionSyncJobHandlers(
  config: SessionSyncConfig,
  log: Logger,
  timeoutMs = TIMEOUT_MS,
): Record<string, JobHandler> {
  const url = config.SESSION_SYNC_URL;
  if (!url || !config.SESSION_SYNC_SECRET) return {};
  return {
    async [sessionSyncJobKind]({ tx, job, now }) {
      const change = job.payload.change === "signed_out" ? "signed_out" : "signed_in";
      const sessionId = String(job.payload.sessionId ?? "");
      const [user] = await tx
        .select({
          id: users.id,
          email: users.email,
          emailVerified: users.emailVerified,
          name: users.name,
        })
        .from(users)
        .where(eq(users.id, String(job.payload.userId ?? "")));
      // The account is gone: there is no one to tell about.
      if (!user) return;
      if (change === "signed_in") {
        const [session] = await tx
          .select({ expiresAt: sessions.expiresAt })
          .from(sessions)
          .where(eq(sessions.id, sessionId));
        // Ended before it could be told (its sign-out's DELETE follows): nothing to post.
        if (!session || session.expiresAt <= now) return;
      }
      const token = await signSyncToken(
        config,
        { ...user, userId: user.id, sessionId },
        now,
        `${job.id}:${job.attempts}`,
      );
      const response = await fetch(url, {
        method: change === "signed_in" ? "POST" : "DELETE",
        headers: {
          authorization: `Bearer ${token}`,
          ...(change === "signed_in" ? { "content-type": "application/json" } : {}),
        },
        body: change === "signed_in" ? JSON.stringify({ idToken: token }) : undefined,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (response.ok) return;
      if (retryable(response.status)) {
        throw new SyncRefused(`session sync answered ${response.status}`);
      }
      // A 4xx is the receiver's answer, not an outage: trying again would say the same.
      log.warn("session sync refused; not retried", { status: response.status, change });
    },
  };
}
