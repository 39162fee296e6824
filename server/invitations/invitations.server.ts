import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import { memberRoleLabels } from "../../common/member-roles";
import type { RateLimits } from "../accounts/rate-limit";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import {
  accountProfiles,
  authAccounts,
  type InvitationKind,
  ownerInvitations,
  type SalonMemberRole,
  salonMembers,
  salonOwners,
  salons,
  staff,
  users,
} from "../db/schema";
import { sqlState } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import type { Mailer } from "../mail/mailer";
import { renderMail } from "../mail/templates";

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 72 * 3_600_000;

/** The named salons (for showing what a form already chose); unknown ids are left out. */
export async function salonsByIds(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: salons.id, name: salons.name, slug: salons.slug, status: salons.status })
    .from(salons)
    .where(inArray(salons.id, ids))
    .orderBy(salons.name);
}

/** The administrator acting (an owner's invitation, suspension). */
export type AdminActor = { id: string };

/** An administrator's invitation of an owner: who, and which salons they will run. */
export type OwnerInvite = {
  email: string;
  name: string;
  nameKana: string;
  phone: string;
  salonIds: string[];
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const salonsMissing = () =>
  new DomainError(
    "salon_not_found",
    "選択されたサロンが見つかりません。サロンを選び直してください。",
    400,
  );

/** Who is invited: their address and name (a new account is made with these). */
export type Invitee = {
  email: string;
  name: string;
  /** The account record of a new account (an owner's form asks for it; a staff invitation does not). */
  profile?: { nameKana: string; phone: string };
};

/**
 * What an invitation grants once accepted: ownership of salons (an
 * administrator's invitation), or a role at one salon (the salon's owner's
 * invitation of staff, decision 0045: a salon_members row, never an owner).
 */
export type InvitationGrant =
  | { type: "owner"; salonIds: string[] }
  | { type: "member"; salonId: string; role: SalonMemberRole; staffId: string | null };

export type IssuedInvitation = {
  kind: InvitationKind;
  userId: string;
  invitationId: string;
  /** The account as it was (null: made by this invitation). */
  existing: { id: string; role: string } | null;
  token: string;
};

/**
 * The one way to invite someone (an owner by an administrator, staff by a
 * salon's owner), inside the caller's transaction. A new address gets an
 * account (no password yet) and a "new_owner" token whose link sets the
 * password; so does an account that was only ever invited (never verified,
 * no password: an earlier invitation expired or was cancelled). Any other
 * account gets an "upgrade" token: nothing changes for them before they
 * confirm. The token is returned once; only its hash is stored.
 */
export async function issueInvitation(
  tx: Database,
  input: {
    invitee: Invitee;
    grant: InvitationGrant;
    /** The role a new account gets: owner for an owner's invitation, user for staff. */
    newAccountRole: "owner" | "user";
    refuse: (existing: { id: string; role: string }) => DomainError | null;
    actorId: string;
    now: Date;
  },
): Promise<IssuedInvitation> {
  const { invitee, grant, now } = input;
  const token = randomBytes(32).toString("base64url");
  const [existing] = await tx
    .select({ id: users.id, role: users.role, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.email, invitee.email));
  if (existing) {
    const refusal = input.refuse(existing);
    if (refusal) throw refusal;
  }
  const userId = existing?.id ?? randomUUID().replaceAll("-", "");
  let kind: InvitationKind = "new_owner";
  if (existing) {
    const [credential] = existing.emailVerified
      ? [{ id: "verified" }]
      : await tx
          .select({ id: authAccounts.id })
          .from(authAccounts)
          .where(eq(authAccounts.userId, existing.id))
          .limit(1);
    kind = credential ? "upgrade" : "new_owner";
  } else {
    await tx.insert(users).values({
      id: userId,
      name: invitee.name,
      email: invitee.email,
      emailVerified: false,
      role: input.newAccountRole,
      createdAt: now,
      updatedAt: now,
    });
    if (invitee.profile) {
      await tx.insert(accountProfiles).values({ userId, name: invitee.name, ...invitee.profile });
    }
  }
  const [invitation] = await tx
    .insert(ownerInvitations)
    .values({
      tokenHash: hashToken(token),
      userId,
      kind,
      salonIds: grant.type === "owner" ? grant.salonIds : [grant.salonId],
      memberRole: grant.type === "member" ? grant.role : null,
      memberStaffId: grant.type === "member" ? grant.staffId : null,
      invitedBy: input.actorId,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
    })
    .returning({ id: ownerInvitations.id });
  if (!invitation) throw new Error("invitation not inserted");
  return {
    kind,
    userId,
    invitationId: invitation.id,
    existing: existing ? { id: existing.id, role: existing.role } : null,
    token,
  };
}

/**
 * Counts one invitation against its sender (RATE_LIMIT_PER_ACCOUNT per
 * window); false when over. Counted first, so that a sender probing
 * addresses (an administrator's, a member's) is slowed like one flooding
 * them; only the sender's own budget is spent.
 */
export async function withinSenderLimit(limits: RateLimits, senderId: string): Promise<boolean> {
  const rule = { window: limits.window, max: limits.perAccount };
  return (await limits.store.consume(`invite:sender:${senderId}`, rule)).allowed;
}

/**
 * Counts one invitation of `salonId` to the address (RATE_LIMIT_PER_ACCOUNT
 * per window); false when over. Per inviting salon, and only once the
 * invitation passed the duplicate checks: a counter shared by all salons,
 * or counting refused repeats, let another salon's owner make this salon's
 * invitation fail (issue 38, §4.3). The salon's staff invitations use it
 * (decision 0045).
 */
export async function withinAddressLimit(
  limits: RateLimits,
  salonId: string,
  email: string,
): Promise<boolean> {
  const rule = { window: limits.window, max: limits.perAccount };
  const key = `invite:salon:${salonId}:address:${email.trim().toLowerCase()}`;
  return (await limits.store.consume(key, rule)).allowed;
}

/** The invitation's mail: set a password (a new account) or confirm (an existing one). */
export async function sendInvitationMail(
  mailer: Mailer,
  invitation: Pick<IssuedInvitation, "kind" | "token">,
  grant: InvitationGrant,
  email: string,
  publicUrl: string,
  /** A staff invitation's salon, named in the mail with the role (issue 38, point 8). */
  salonName?: string,
) {
  const url = `${publicUrl}/account/invitation?token=${invitation.token}`;
  const template =
    grant.type === "member"
      ? invitation.kind === "new_owner"
        ? "memberInvitation"
        : "memberUpgrade"
      : invitation.kind === "new_owner"
        ? "ownerInvitation"
        : "ownerUpgrade";
  const facts =
    grant.type === "member"
      ? [
          ...(salonName ? [{ label: "サロン", value: salonName }] : []),
          { label: "役割", value: memberRoleLabels[grant.role] },
        ]
      : [];
  // Sent by a named, rate-limited sender: outside the per-recipient allowance
  // that anonymous requests (sign-in links, resets) can spend (mailer.ts).
  await mailer.send(renderMail(template, email, url, [], facts), { limited: false });
}

/** The same address taken by a concurrent registration: the unique key answered it. */
export const emailTakenMeanwhile = () =>
  new DomainError(
    "email_taken",
    "このメールアドレスは別の操作で登録されたところです。一覧を確認してください。",
    409,
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
  input: OwnerInvite,
  actor: AdminActor,
  now: Date,
  publicUrl: string,
) {
  const grant: InvitationGrant = { type: "owner", salonIds: input.salonIds };
  let issued: IssuedInvitation;
  try {
    issued = await db.transaction(async (tx) => {
      const invitation = await issueInvitation(tx as unknown as Database, {
        invitee: {
          email: input.email,
          name: input.name,
          profile: { nameKana: input.nameKana, phone: input.phone },
        },
        grant,
        newAccountRole: "owner",
        refuse: (existing) =>
          existing.role === "admin"
            ? new DomainError(
                "admin_address",
                "このメールアドレスは管理者のものです。オーナーには別のアドレスを使ってください。",
                409,
              )
            : null,
        actorId: actor.id,
        now,
      });
      const { existing, userId, kind } = invitation;
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
            kind,
            invitationId: invitation.invitationId,
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
      return invitation;
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const state = sqlState(error);
    if (state === "23503") throw salonsMissing();
    if (state === "23505") throw emailTakenMeanwhile();
    throw error;
  }
  await sendInvitationMail(mailer, issued, grant, input.email, publicUrl);
  return { kind: issued.kind };
}

const invalidInvitation = () =>
  new DomainError(
    "invitation_invalid",
    "この招待リンクは使えません（使用済みか、有効期限の72時間を過ぎています）。管理者に再送を依頼してください。",
    410,
  );

/**
 * What the invitation page shows for a token, or null when it is unknown,
 * used or expired: whose it is, and what it grants (the salons, and for
 * staff the role and the stylist).
 */
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
      memberRole: ownerInvitations.memberRole,
      staffName: staff.name,
    })
    .from(ownerInvitations)
    .innerJoin(users, eq(users.id, ownerInvitations.userId))
    .leftJoin(staff, eq(staff.id, ownerInvitations.memberStaffId))
    .where(eq(ownerInvitations.tokenHash, hashToken(token)));
  if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return {
    kind: row.kind,
    email: row.email,
    name: row.name,
    salons: await salonsByIds(db, row.salonIds),
    /** A staff invitation's role at its salon (null: an owner's invitation). */
    memberRole: row.memberRole,
    staffName: row.staffName,
  };
}

/**
 * The invitation link, confirmed. The token is spent by one conditional
 * update (unused and unexpired), so two submits cannot both succeed. A new
 * account's password is set (their address is verified by the link). Then
 * what it grants: ownership of the invited salons (an owner's invitation),
 * or the role at the salon (a staff invitation: a salon_members row; the
 * account stays what it was). Audited with the change.
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
    const result = { kind: invitation.kind, email: user.email, memberRole: invitation.memberRole };
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
    }
    if (user.role === "admin") throw invalidInvitation();
    if (invitation.memberRole) {
      await joinSalon(tx as unknown as Database, invitation, user.id, now);
      return result;
    }
    if (invitation.kind === "new_owner") {
      await tx
        .update(users)
        .set({ role: "owner" })
        .where(and(eq(users.id, user.id), eq(users.role, "user")));
      await linkSalons(tx as unknown as Database, invitation.salonIds, user.id, now);
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
      return result;
    }
    if (user.role !== "owner") {
      await tx.update(users).set({ role: "owner" }).where(eq(users.id, user.id));
    }
    await linkSalons(tx as unknown as Database, invitation.salonIds, user.id, now);
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
    return result;
  });
}

async function linkSalons(tx: Database, salonIds: string[], userId: string, now: Date) {
  if (salonIds.length === 0) return;
  await tx
    .insert(salonOwners)
    .values(salonIds.map((salonId) => ({ salonId, userId, createdAt: now })))
    .onConflictDoNothing();
}

/**
 * A staff invitation accepted: the person joins the salon with the role
 * (decision 0045). Refused when they meanwhile became its owner or a
 * member, or when the stylist got another account or was retired.
 */
async function joinSalon(
  tx: Database,
  invitation: typeof ownerInvitations.$inferSelect,
  userId: string,
  now: Date,
) {
  const salonId = invitation.salonIds[0];
  const role = invitation.memberRole;
  if (!salonId || !role) throw invalidInvitation();
  const staffId = role === "stylist" ? invitation.memberStaffId : null;
  const [owner] = await tx
    .select({ userId: salonOwners.userId })
    .from(salonOwners)
    .where(and(eq(salonOwners.salonId, salonId), eq(salonOwners.userId, userId)));
  const [member] = await tx
    .select({ userId: salonMembers.userId })
    .from(salonMembers)
    .where(and(eq(salonMembers.salonId, salonId), eq(salonMembers.userId, userId)));
  if (owner || member) {
    throw new DomainError(
      "already_member",
      "このアカウントは、すでにこのサロンのオーナーかスタッフです。",
      409,
    );
  }
  if (staffId) {
    const [stylist] = await tx
      .select({ active: staff.active, taken: salonMembers.userId })
      .from(staff)
      .leftJoin(
        salonMembers,
        and(eq(salonMembers.staffId, staff.id), eq(salonMembers.salonId, staff.salonId)),
      )
      .where(and(eq(staff.id, staffId), eq(staff.salonId, salonId)));
    if (!stylist?.active || stylist.taken) {
      throw new DomainError(
        "stylist_taken",
        "招待されたスタイリストには、すでに別のアカウントがつながっているか、掲載を終えています。サロンに再送を依頼してください。",
        409,
      );
    }
  }
  // The checks above read before writing; a second acceptance for the same
  // stylist (or person) at the same moment meets the unique index instead.
  const [joined] = await tx
    .insert(salonMembers)
    .values({
      salonId,
      userId,
      role,
      staffId,
      invitedBy: invitation.invitedBy,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ userId: salonMembers.userId });
  if (!joined) {
    throw new DomainError(
      "stylist_taken",
      "招待されたスタイリストには、すでに別のアカウントがつながっています。サロンに再送を依頼してください。",
      409,
    );
  }
  await recordAudit(
    tx,
    {
      actorUserId: userId,
      action: "member.invitation_accept",
      targetType: "user",
      targetId: userId,
      salonId,
      before: null,
      after: { invitationId: invitation.id, role, staffId, invitedBy: invitation.invitedBy },
    },
    now,
  );
}
