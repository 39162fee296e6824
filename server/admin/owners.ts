import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { OWNERS_PER_PAGE } from "../../common/admin";
import { endSessionsOf } from "../accounts/session-sync.server";
import { recordAudit } from "../audit/audit";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { accountProfiles, ownerInvitations, salonOwners, salons, users } from "../db/schema";
import { NotFoundError } from "../errors/domain-error";
import type { AdminActor } from "../invitations/invitations.server";

// The administrator's owner list and its actions; inviting an owner is the
// invitations module's (one way to invite, shared with the salon's staff invitations).

/** Escapes LIKE wildcards so a search word is matched as typed. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Kana are stored as katakana (common/field-rules.ts kanaName); a hiragana search meets them. */
const toKatakana = (text: string) =>
  text
    .normalize("NFKC")
    .replace(/[\u3041-\u3096]/gu, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60));

/**
 * One page of owners, newest first, searched by name, kana or email, each
 * with the salons they manage and their last sign-in.
 */
export async function listOwners(db: Database, query: { q: string; page: number }) {
  const conditions: SQL[] = [eq(users.role, "owner")];
  const q = query.q.trim();
  if (q) {
    const search = or(
      ilike(users.name, likePattern(q)),
      ilike(users.email, likePattern(q)),
      ilike(accountProfiles.nameKana, likePattern(toKatakana(q))),
      ilike(accountProfiles.name, likePattern(q)),
    );
    if (search) conditions.push(search);
  }
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(users)
    .leftJoin(accountProfiles, eq(accountProfiles.userId, users.id))
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / OWNERS_PER_PAGE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      nameKana: accountProfiles.nameKana,
      phone: accountProfiles.phone,
      banned: users.banned,
      lastSignInAt: users.lastSignInAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(accountProfiles, eq(accountProfiles.userId, users.id))
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(OWNERS_PER_PAGE)
    .offset((page - 1) * OWNERS_PER_PAGE);
  const ids = rows.map((row) => row.id);
  const links =
    ids.length === 0
      ? []
      : await db
          .select({
            userId: salonOwners.userId,
            id: salons.id,
            name: salons.name,
            slug: salons.slug,
          })
          .from(salonOwners)
          .innerJoin(salons, eq(salons.id, salonOwners.salonId))
          .where(inArray(salonOwners.userId, ids))
          .orderBy(salons.name);
  const pending =
    ids.length === 0
      ? []
      : await db
          .select({ userId: ownerInvitations.userId })
          .from(ownerInvitations)
          .where(
            and(
              inArray(ownerInvitations.userId, ids),
              eq(ownerInvitations.kind, "new_owner"),
              isNull(ownerInvitations.usedAt),
            ),
          );
  const invited = new Set(pending.map((row) => row.userId));
  return {
    owners: rows.map((row) => ({
      ...row,
      salons: links.filter((link) => link.userId === row.id),
      /** Invited, and the password not set yet. */
      awaitingPassword: invited.has(row.id),
    })),
    total,
    page,
    pageCount,
  };
}

/** Salons for the owner form's picker: by name, kana or slug, at most `limit`. */
export async function searchSalonsForPicker(db: Database, q: string, limit = 30) {
  const word = q.trim();
  return db
    .select({ id: salons.id, name: salons.name, slug: salons.slug, status: salons.status })
    .from(salons)
    .where(
      word
        ? or(
            ilike(salons.name, likePattern(word)),
            ilike(salons.nameKana, likePattern(toKatakana(word))),
            ilike(salons.slug, likePattern(word)),
          )
        : undefined,
    )
    .orderBy(salons.name, salons.id)
    .limit(limit);
}

async function ownerOrNotFound(tx: Database, userId: string) {
  const [owner] = await tx
    .select({ id: users.id, email: users.email, banned: users.banned })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, "owner")));
  if (!owner) throw new NotFoundError("オーナーが見つかりません。");
  return owner;
}

/** Removes one salon from an owner's salons. */
export async function unlinkSalon(
  db: Database,
  input: { userId: string; salonId: string },
  actor: AdminActor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    const owner = await ownerOrNotFound(tx as unknown as Database, input.userId);
    const removed = await tx
      .delete(salonOwners)
      .where(and(eq(salonOwners.userId, owner.id), eq(salonOwners.salonId, input.salonId)))
      .returning({ salonId: salonOwners.salonId });
    if (removed.length === 0) {
      throw new NotFoundError("このサロンはすでに担当から外れています。");
    }
    await recordAudit(
      tx as unknown as Database,
      {
        actorUserId: actor.id,
        action: "owner.salon_unlink",
        targetType: "user",
        targetId: owner.id,
        salonId: input.salonId,
        before: { salonId: input.salonId, linked: true },
        after: { salonId: input.salonId, linked: false },
      },
      now,
    );
  });
}

/**
 * Suspends an owner (Better Auth's ban flag, which refuses sign-in) and
 * deletes their sessions in the same transaction, so they are signed out on
 * their very next request (the session sync, when set, is told of each, as of
 * a sign-out: decision 0088); or lifts the suspension.
 */
export async function setOwnerSuspended(
  db: Database,
  input: { userId: string; suspended: boolean },
  actor: AdminActor,
  now: Date,
  sync: Pick<Config, "SESSION_SYNC_URL"> = {},
) {
  await db.transaction(async (tx) => {
    const owner = await ownerOrNotFound(tx as unknown as Database, input.userId);
    if (owner.banned === input.suspended) return;
    await tx
      .update(users)
      .set({
        banned: input.suspended,
        banReason: input.suspended ? "管理者による利用停止" : null,
        banExpires: null,
      })
      .where(eq(users.id, owner.id));
    if (input.suspended) await endSessionsOf(tx, sync, owner.id, now);
    await recordAudit(
      tx as unknown as Database,
      {
        actorUserId: actor.id,
        action: input.suspended ? "owner.suspend" : "owner.reinstate",
        targetType: "user",
        targetId: owner.id,
        before: { banned: owner.banned },
        after: { banned: input.suspended },
      },
      now,
    );
  });
}
