import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { OWNERS_PER_PAGE } from "../../common/admin";
import type { Database } from "../db/client";
import {
  accountProfiles,
  authAccounts,
  ownerInvitations,
  salonOwners,
  salons,
  sessions,
  users,
} from "../db/schema";
import { sqlState } from "../db/sql-state";
import { DomainError, NotFoundError } from "../errors/domain-error";
import type { Mailer } from "../mail/mailer";
import { renderMail } from "../mail/templates";
import type { OwnerInviteInput } from "./admin.schema";
import { recordAudit } from "./audit";

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 72 * 3_600_000;

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

/** The named salons (for showing what a form already chose); unknown ids are left out. */
export async function salonsByIds(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: salons.id, name: salons.name, slug: salons.slug, status: salons.status })
    .from(salons)
    .where(inArray(salons.id, ids))
    .orderBy(salons.name);
}

export type AdminActor = { id: string };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const salonsMissing = () =>
  new DomainError(
    "salon_not_found",
    "選択されたサロンが見つかりません。サロンを選び直してください。",
    400,
  );

/**
 * /admin/owners/add. A new address gets an owner account (no password yet)
 * linked to the salons, and a mail whose link sets the password. An address
 * that already belongs to a user gets a mail whose link, once confirmed,
 * makes that user an owner of the salons (an "upgrade"): nothing changes for
 * them before they confirm. Account, links, invitation and audit entry are
 * one transaction; the mail goes to the outbox after it committed.
 */
export async function inviteOwner(
  db: Database,
  mailer: Mailer,
  input: OwnerInviteInput,
  actor: AdminActor,
  now: Date,
  publicUrl: string,
) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  let kind: "new_owner" | "upgrade";
  try {
    kind = await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.email, input.email));
      if (existing?.role === "admin") {
        throw new DomainError(
          "admin_address",
          "このメールアドレスは管理者のものです。オーナーには別のアドレスを使ってください。",
          409,
        );
      }
      const userId = existing?.id ?? randomUUID().replaceAll("-", "");
      const inviteKind = existing ? "upgrade" : "new_owner";
      if (!existing) {
        await tx.insert(users).values({
          id: userId,
          name: input.name,
          email: input.email,
          emailVerified: false,
          role: "owner",
          createdAt: now,
          updatedAt: now,
        });
        await tx.insert(accountProfiles).values({
          userId,
          name: input.name,
          nameKana: input.nameKana,
          phone: input.phone,
        });
      }
      const [invitation] = await tx
        .insert(ownerInvitations)
        .values({
          tokenHash: hashToken(token),
          userId,
          kind: inviteKind,
          salonIds: input.salonIds,
          invitedBy: actor.id,
          expiresAt,
          createdAt: now,
        })
        .returning({ id: ownerInvitations.id });
      await recordAudit(
        tx as unknown as Database,
        {
          actorUserId: actor.id,
          action: "owner.invite",
          targetType: "user",
          targetId: userId,
          salonId: input.salonIds.length === 1 ? input.salonIds[0] : null,
          before: existing ? { role: existing.role } : null,
          after: {
            email: input.email,
            name: input.name,
            kind: inviteKind,
            invitationId: invitation?.id,
            salonIds: input.salonIds,
            ...(existing ? {} : { role: "owner" }),
          },
        },
        now,
      );
      if (input.salonIds.length > 0) {
        if (existing) {
          // Linked on confirmation; the salons must exist now all the same.
          const found = await tx
            .select({ id: salons.id })
            .from(salons)
            .where(inArray(salons.id, input.salonIds));
          if (found.length !== input.salonIds.length) throw salonsMissing();
        } else {
          // The foreign key is the check: a salon deleted meanwhile rolls everything back.
          await tx
            .insert(salonOwners)
            .values(input.salonIds.map((salonId) => ({ salonId, userId, createdAt: now })));
        }
      }
      return inviteKind;
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const state = sqlState(error);
    if (state === "23503") throw salonsMissing();
    if (state === "23505") {
      throw new DomainError(
        "email_taken",
        "このメールアドレスは別の操作で登録されたところです。一覧を確認してください。",
        409,
      );
    }
    throw error;
  }
  const url = `${publicUrl}/account/invitation?token=${token}`;
  await mailer.send(
    renderMail(kind === "new_owner" ? "ownerInvitation" : "ownerUpgrade", input.email, url),
  );
  return { kind };
}

const invalidInvitation = () =>
  new DomainError(
    "invitation_invalid",
    "この招待リンクは使えません（使用済みか、有効期限の72時間を過ぎています）。管理者に再送を依頼してください。",
    410,
  );

/** What the invitation page shows for a token, or null when it is unknown, used or expired. */
export async function findInvitation(db: Database, token: string, now: Date) {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({
      kind: ownerInvitations.kind,
      email: users.email,
      name: users.name,
      expiresAt: ownerInvitations.expiresAt,
      usedAt: ownerInvitations.usedAt,
      salonIds: ownerInvitations.salonIds,
    })
    .from(ownerInvitations)
    .innerJoin(users, eq(users.id, ownerInvitations.userId))
    .where(eq(ownerInvitations.tokenHash, hashToken(token)));
  if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return {
    kind: row.kind,
    email: row.email,
    name: row.name,
    salons: await salonsByIds(db, row.salonIds),
  };
}

/**
 * The invitation link, confirmed. The token is spent by one conditional
 * update (unused and unexpired), so two submits cannot both succeed. A new
 * owner's password is set (their address is verified by the link); an
 * upgrade makes the user an owner of the invited salons. Audited with the change.
 */
export async function acceptInvitation(
  db: Database,
  hashPassword: (password: string) => Promise<string>,
  input: { token: string; password?: string },
  now: Date,
) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(ownerInvitations)
      .set({ usedAt: now })
      .where(
        and(
          eq(ownerInvitations.tokenHash, hashToken(input.token)),
          isNull(ownerInvitations.usedAt),
          gt(ownerInvitations.expiresAt, now),
        ),
      )
      .returning();
    if (!invitation) throw invalidInvitation();
    const [user] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.id, invitation.userId));
    if (!user) throw invalidInvitation();
    if (invitation.kind === "new_owner") {
      if (!passwordHash) {
        throw new DomainError("password_required", "パスワードを入力してください。", 400);
      }
      await tx
        .delete(authAccounts)
        .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, "credential")));
      await tx.insert(authAccounts).values({
        id: randomUUID().replaceAll("-", ""),
        userId: user.id,
        accountId: user.id,
        providerId: "credential",
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
      await tx.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
      await recordAudit(
        tx as unknown as Database,
        {
          actorUserId: user.id,
          action: "owner.invitation_accept",
          targetType: "user",
          targetId: user.id,
          before: null,
          after: { invitationId: invitation.id, emailVerified: true, passwordSet: true },
        },
        now,
      );
      return { kind: invitation.kind, email: user.email };
    }
    if (user.role === "admin") throw invalidInvitation();
    if (user.role !== "owner") {
      await tx.update(users).set({ role: "owner" }).where(eq(users.id, user.id));
    }
    if (invitation.salonIds.length > 0) {
      await tx
        .insert(salonOwners)
        .values(
          invitation.salonIds.map((salonId) => ({ salonId, userId: user.id, createdAt: now })),
        )
        .onConflictDoNothing();
    }
    // The change the admin asked for, made now that the user agreed.
    await recordAudit(
      tx as unknown as Database,
      {
        actorUserId: invitation.invitedBy,
        action: "user.role_change",
        targetType: "user",
        targetId: user.id,
        salonId: invitation.salonIds.length === 1 ? invitation.salonIds[0] : null,
        before: { role: user.role },
        after: {
          role: "owner",
          salonIds: invitation.salonIds,
          invitationId: invitation.id,
          confirmedBy: user.id,
        },
      },
      now,
    );
    return { kind: invitation.kind, email: user.email };
  });
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
 * their very next request; or lifts the suspension.
 */
export async function setOwnerSuspended(
  db: Database,
  input: { userId: string; suspended: boolean },
  actor: AdminActor,
  now: Date,
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
    if (input.suspended) await tx.delete(sessions).where(eq(sessions.userId, owner.id));
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
