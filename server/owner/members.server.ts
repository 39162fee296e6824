import { and, asc, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { fieldErrors } from "../../common/field-rules";
import { formatDate } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { memberRoleLabels } from "../../common/member-roles";
import type { AccountServices } from "../accounts/account-services";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import {
  ownerInvitations,
  type SalonMemberRole,
  salonMembers,
  salonOwners,
  staff,
  users,
} from "../db/schema";
import { sqlState, UNIQUE_VIOLATION } from "../db/sql-state";
import { DomainError, NotFoundError } from "../errors/domain-error";
import {
  emailTakenMeanwhile,
  type InvitationGrant,
  issueInvitation,
  sendInvitationMail,
  withinAddressLimit,
  withinSenderLimit,
} from "../invitations/invitations.server";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import {
  type InvitationCancel,
  isMemberIntent,
  type MemberInvite,
  type MemberRemove,
  type MemberRoleChange,
  memberFormSchemas,
} from "./members.schema";

/**
 * The salon's people (issue 29, point 1; decision 0045): its owners, its
 * staff with their roles, and the invitations not yet accepted; inviting
 * someone with a role (the admin's invitation mechanism, server/admin/
 * owners.ts), changing a role (version-checked), removing a person and
 * cancelling an invitation. Every change is audited with who made it.
 * Access is read on every request (salon-access.server.ts), so a removal or
 * a role change applies to that person's very next request.
 */

const TZ_FALLBACK = "Asia/Tokyo";

export type SalonPerson = {
  userId: string;
  name: string;
  email: string;
};

export type SalonMember = SalonPerson & {
  role: SalonMemberRole;
  roleLabel: string;
  staffId: string | null;
  /** The linked stylist's name (role stylist). */
  staffName: string | null;
  version: number;
};

export type PendingInvitation = {
  id: string;
  name: string;
  email: string;
  role: SalonMemberRole;
  roleLabel: string;
  staffName: string | null;
  /** ISO instant, and 2026年11月29日(日) 14:00 in the salon's zone. */
  expiresAt: string;
  expiresLabel: string;
};

export type StylistChoice = { id: string; name: string };

export type SalonPeople = {
  owners: SalonPerson[];
  members: SalonMember[];
  invitations: PendingInvitation[];
  /** Active stylists without an account (nor a pending invitation): who a stylist invitation may be. */
  stylistsWithoutAccount: StylistChoice[];
};

/** Everything the members page and GET /api/owner/salons/{id}/members show. */
export async function salonPeople(
  db: Database,
  salon: { id: string; timeZone?: string },
  now: Date,
): Promise<SalonPeople> {
  const zone = salon.timeZone ?? TZ_FALLBACK;
  const [owners, members, invitations, stylists] = await Promise.all([
    db
      .select({ userId: users.id, name: users.name, email: users.email })
      .from(salonOwners)
      .innerJoin(users, eq(users.id, salonOwners.userId))
      .where(and(eq(salonOwners.salonId, salon.id), eq(users.role, "owner")))
      .orderBy(asc(users.email)),
    db
      .select({
        userId: users.id,
        name: users.name,
        email: users.email,
        role: salonMembers.role,
        staffId: salonMembers.staffId,
        staffName: staff.name,
        version: salonMembers.version,
      })
      .from(salonMembers)
      .innerJoin(users, eq(users.id, salonMembers.userId))
      .leftJoin(staff, eq(staff.id, salonMembers.staffId))
      .where(eq(salonMembers.salonId, salon.id))
      .orderBy(asc(salonMembers.createdAt), asc(users.email)),
    pendingInvitations(db, salon.id, now),
    db
      .select({ id: staff.id, name: staff.name })
      .from(staff)
      .where(and(eq(staff.salonId, salon.id), eq(staff.active, true)))
      .orderBy(asc(staff.sortOrder), asc(staff.id)),
  ]);
  const taken = new Set([
    ...members.map((m) => m.staffId).filter((id): id is string => id !== null),
    ...invitations.map((i) => i.staffId).filter((id): id is string => id !== null),
  ]);
  return {
    owners,
    members: members.map((m) => ({ ...m, roleLabel: memberRoleLabels[m.role] })),
    invitations: invitations.map(({ staffId: _staffId, ...i }) => {
      const local = toLocal(i.expiresAt, zone);
      return {
        ...i,
        role: i.role,
        roleLabel: memberRoleLabels[i.role],
        expiresAt: i.expiresAt.toISOString(),
        expiresLabel: `${formatDate(local.date)} ${local.time}`,
      };
    }),
    stylistsWithoutAccount: stylists.filter((s) => !taken.has(s.id)),
  };
}

const forSalon = (salonId: string) => sql`${ownerInvitations.salonIds}[1] = ${salonId}::uuid`;

async function pendingInvitations(db: Database, salonId: string, now: Date) {
  const rows = await db
    .select({
      id: ownerInvitations.id,
      name: users.name,
      email: users.email,
      role: ownerInvitations.memberRole,
      staffId: ownerInvitations.memberStaffId,
      staffName: staff.name,
      expiresAt: ownerInvitations.expiresAt,
    })
    .from(ownerInvitations)
    .innerJoin(users, eq(users.id, ownerInvitations.userId))
    .leftJoin(staff, eq(staff.id, ownerInvitations.memberStaffId))
    .where(
      and(
        forSalon(salonId),
        isNotNull(ownerInvitations.memberRole),
        isNull(ownerInvitations.usedAt),
        gt(ownerInvitations.expiresAt, now),
      ),
    )
    .orderBy(asc(ownerInvitations.createdAt), asc(ownerInvitations.id));
  return rows.flatMap((row) => (row.role ? [{ ...row, role: row.role }] : []));
}

/** The members page: the salon, the people, and the person whose removal is being confirmed. */
export async function membersPage(db: Database, access: SalonAccess, url: URL, now: Date) {
  const people = await salonPeople(db, access.salon, now);
  const removeId = url.searchParams.get("remove");
  const done = url.searchParams.get("done");
  return {
    salon: ownerPageSalon(access),
    people,
    removing: people.members.find((m) => m.userId === removeId) ?? null,
    done: done && done in doneMessages ? doneMessages[done as keyof typeof doneMessages] : null,
  };
}

export type MembersPageData = Awaited<ReturnType<typeof membersPage>>;

export const doneMessages = {
  invited: "招待メールを送信しました。相手がリンクを開いて承認すると、メンバーに加わります。",
  role: "役割を変更しました。その人の次の操作から反映されます。",
  removed: "メンバーから外しました。その人はこのサロンの管理画面を開けなくなりました。",
  cancelled: "招待を取り消しました。送ったリンクは使えなくなりました。",
} as const;

type Ctx = {
  db: Database;
  accounts: Pick<AccountServices, "mailer" | "limits">;
  publicUrl: string;
};

const staleVersion = () =>
  new DomainError(
    "version_conflict",
    "ほかの人がこのメンバーを変更しました。画面を読み込み直して、最新の内容を確認してください。",
    409,
  );

const memberMissing = () =>
  new NotFoundError("このメンバーは見つかりません（すでに外れています）。");

/** The stylist must be this salon's, active, and not anyone else's account or pending invitation. */
async function assertStylistFree(
  tx: Database,
  salonId: string,
  staffId: string,
  now: Date,
  exceptUserId: string | null,
) {
  const [stylist] = await tx
    .select({ active: staff.active })
    .from(staff)
    .where(and(eq(staff.id, staffId), eq(staff.salonId, salonId)));
  if (!stylist?.active) {
    throw new DomainError(
      "stylist_unknown",
      "選択したスタイリストが見つかりません（掲載を終えたか、別のサロンのスタイリストです）。",
      400,
    );
  }
  const [member] = await tx
    .select({ userId: salonMembers.userId })
    .from(salonMembers)
    .where(
      and(
        eq(salonMembers.salonId, salonId),
        eq(salonMembers.staffId, staffId),
        exceptUserId ? ne(salonMembers.userId, exceptUserId) : undefined,
      ),
    );
  const [invited] = await tx
    .select({ id: ownerInvitations.id })
    .from(ownerInvitations)
    .where(
      and(
        forSalon(salonId),
        eq(ownerInvitations.memberStaffId, staffId),
        isNull(ownerInvitations.usedAt),
        gt(ownerInvitations.expiresAt, now),
      ),
    );
  if (member || invited) {
    throw new DomainError(
      "stylist_taken",
      "このスタイリストには、すでにアカウントか送信済みの招待があります。",
      409,
    );
  }
}

const tooManyInvitations = () =>
  new DomainError(
    "too_many_invitations",
    "招待の送信が続いたため、しばらく送信できません。時間をおいてからもう一度お試しください。",
    429,
  );

const adminAddress = () =>
  new DomainError(
    "admin_address",
    "このメールアドレスは管理者のものです。管理者はすべてのサロンを開けるため、招待は不要です。",
    409,
  );

const alreadyMember = () =>
  new DomainError(
    "already_member",
    "この方は、すでにこのサロンのオーナーかメンバーです。役割を変えるときは、下の一覧から変更してください。",
    409,
  );

const alreadyInvited = () =>
  new DomainError(
    "already_invited",
    "この方には招待を送信済みです。送り直すときは、招待中の一覧から取り消してから送ってください。",
    409,
  );

/** The salon's staff invitation to the account still open, other than `exceptId`. */
async function pendingInvitation(
  db: Database,
  salonId: string,
  userId: string,
  now: Date,
  exceptId?: string,
) {
  const [earlier] = await db
    .select({ id: ownerInvitations.id })
    .from(ownerInvitations)
    .where(
      and(
        forSalon(salonId),
        eq(ownerInvitations.userId, userId),
        exceptId ? ne(ownerInvitations.id, exceptId) : undefined,
        isNotNull(ownerInvitations.memberRole),
        isNull(ownerInvitations.usedAt),
        gt(ownerInvitations.expiresAt, now),
      ),
    );
  return earlier !== undefined;
}

/**
 * The refusals of an invitation, read before anything is counted or
 * written: the stylist taken, an administrator's address, someone already
 * the salon's owner or member, or already invited by it.
 */
async function assertInvitable(db: Database, salonId: string, input: MemberInvite, now: Date) {
  if (input.staffId) await assertStylistFree(db, salonId, input.staffId, now, null);
  const [existing] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.email, input.email));
  if (!existing) return;
  if (existing.role === "admin") throw adminAddress();
  const [owner] = await db
    .select({ userId: salonOwners.userId })
    .from(salonOwners)
    .where(and(eq(salonOwners.salonId, salonId), eq(salonOwners.userId, existing.id)));
  const [member] = await db
    .select({ userId: salonMembers.userId })
    .from(salonMembers)
    .where(and(eq(salonMembers.salonId, salonId), eq(salonMembers.userId, existing.id)));
  if ((owner && existing.role === "owner") || member) throw alreadyMember();
  if (await pendingInvitation(db, salonId, existing.id, now)) throw alreadyInvited();
}

/**
 * Invites someone to the salon with a role: a new address gets an account
 * (role user) and a link that sets the password; an existing account a link
 * that adds the membership once confirmed. Nothing is granted before that.
 */
export async function inviteMember(ctx: Ctx, access: SalonAccess, input: MemberInvite, now: Date) {
  const salonId = access.salon.id;
  const { limits } = ctx.accounts;
  if (!(await withinSenderLimit(limits, access.user.id))) throw tooManyInvitations();
  // The refusals first, read outside the transaction (the counters are
  // written outside it too: PGlite's one session would wait on itself);
  // the transaction checks them again for a concurrent change.
  await assertInvitable(ctx.db, salonId, input, now);
  if (!(await withinAddressLimit(limits, salonId, input.email))) throw tooManyInvitations();
  const grant: InvitationGrant = {
    type: "member",
    salonId,
    role: input.role,
    staffId: input.staffId,
  };
  const { db } = ctx;
  let issued: Awaited<ReturnType<typeof issueInvitation>>;
  try {
    issued = await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      if (input.staffId) await assertStylistFree(tx, salonId, input.staffId, now, null);
      const invitation = await issueInvitation(tx, {
        invitee: { email: input.email, name: input.name },
        grant,
        newAccountRole: "user",
        refuse: (existing) => (existing.role === "admin" ? adminAddress() : null),
        actorId: access.user.id,
        now,
      });
      const [owner] = await tx
        .select({ userId: salonOwners.userId })
        .from(salonOwners)
        .innerJoin(users, eq(users.id, salonOwners.userId))
        .where(
          and(
            eq(salonOwners.salonId, salonId),
            eq(salonOwners.userId, invitation.userId),
            eq(users.role, "owner"),
          ),
        );
      const [member] = await tx
        .select({ userId: salonMembers.userId })
        .from(salonMembers)
        .where(and(eq(salonMembers.salonId, salonId), eq(salonMembers.userId, invitation.userId)));
      if (owner || member) throw alreadyMember();
      if (await pendingInvitation(tx, salonId, invitation.userId, now, invitation.invitationId)) {
        throw alreadyInvited();
      }
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "member.invite",
          targetType: "user",
          targetId: invitation.userId,
          salonId,
          before: invitation.existing ? { role: invitation.existing.role } : null,
          after: {
            email: input.email,
            name: input.name,
            role: input.role,
            staffId: input.staffId,
            kind: invitation.kind,
            invitationId: invitation.invitationId,
          },
        },
        now,
      );
      return invitation;
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (sqlState(error) === "23505") throw emailTakenMeanwhile();
    throw error;
  }
  await sendInvitationMail(
    ctx.accounts.mailer,
    issued,
    grant,
    input.email,
    ctx.publicUrl,
    access.salon.name,
  );
  return { kind: issued.kind };
}

/** A member's new role (and stylist), if nobody changed them since the page was read. */
export async function changeMemberRole(
  db: Database,
  access: SalonAccess,
  input: Omit<MemberRoleChange, "intent">,
  now: Date,
) {
  try {
    await changeRoleOnce(db, access, input, now);
  } catch (error) {
    // Two owners giving the same stylist to two people at once: the unique index decides.
    if (sqlState(error) === UNIQUE_VIOLATION) {
      throw new DomainError(
        "stylist_taken",
        "このスタイリストには、すでに別のアカウントがつながっています。",
        409,
      );
    }
    throw error;
  }
}

async function changeRoleOnce(
  db: Database,
  access: SalonAccess,
  input: Omit<MemberRoleChange, "intent">,
  now: Date,
) {
  const salonId = access.salon.id;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [before] = await tx
      .select({
        role: salonMembers.role,
        staffId: salonMembers.staffId,
        version: salonMembers.version,
      })
      .from(salonMembers)
      .where(and(eq(salonMembers.salonId, salonId), eq(salonMembers.userId, input.userId)));
    if (!before) throw memberMissing();
    if (before.version !== input.version) throw staleVersion();
    if (input.staffId && input.staffId !== before.staffId) {
      await assertStylistFree(tx, salonId, input.staffId, now, input.userId);
    }
    const [updated] = await tx
      .update(salonMembers)
      .set({
        role: input.role,
        staffId: input.staffId,
        version: sql`${salonMembers.version} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(salonMembers.salonId, salonId),
          eq(salonMembers.userId, input.userId),
          eq(salonMembers.version, input.version),
        ),
      )
      .returning({ version: salonMembers.version });
    if (!updated) throw staleVersion();
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "member.role_change",
        targetType: "user",
        targetId: input.userId,
        salonId,
        before: { role: before.role, staffId: before.staffId },
        after: { role: input.role, staffId: input.staffId },
      },
      now,
    );
  });
}

/** Takes a person off the salon's staff: their next request to it is the 404. */
export async function removeMember(
  db: Database,
  access: SalonAccess,
  input: Pick<MemberRemove, "userId" | "version">,
  now: Date,
) {
  const salonId = access.salon.id;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [removed] = await tx
      .delete(salonMembers)
      .where(
        and(
          eq(salonMembers.salonId, salonId),
          eq(salonMembers.userId, input.userId),
          eq(salonMembers.version, input.version),
        ),
      )
      .returning({ role: salonMembers.role, staffId: salonMembers.staffId });
    if (!removed) {
      const [still] = await tx
        .select({ version: salonMembers.version })
        .from(salonMembers)
        .where(and(eq(salonMembers.salonId, salonId), eq(salonMembers.userId, input.userId)));
      throw still ? staleVersion() : memberMissing();
    }
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "member.remove",
        targetType: "user",
        targetId: input.userId,
        salonId,
        before: { role: removed.role, staffId: removed.staffId },
        after: null,
      },
      now,
    );
  });
}

/** Cancels an invitation not yet accepted: its link stops working. */
export async function cancelInvitation(
  db: Database,
  access: SalonAccess,
  input: Pick<InvitationCancel, "invitationId">,
  now: Date,
) {
  const salonId = access.salon.id;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [cancelled] = await tx
      .delete(ownerInvitations)
      .where(
        and(
          eq(ownerInvitations.id, input.invitationId),
          forSalon(salonId),
          isNotNull(ownerInvitations.memberRole),
          isNull(ownerInvitations.usedAt),
        ),
      )
      .returning({
        userId: ownerInvitations.userId,
        role: ownerInvitations.memberRole,
        staffId: ownerInvitations.memberStaffId,
      });
    if (!cancelled) {
      throw new NotFoundError("この招待は見つかりません（承認されたか、取り消し済みです）。");
    }
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "member.invitation_cancel",
        targetType: "user",
        targetId: cancelled.userId,
        salonId,
        before: {
          invitationId: input.invitationId,
          role: cancelled.role,
          staffId: cancelled.staffId,
        },
        after: null,
      },
      now,
    );
  });
}

const formFields = [
  "intent",
  "name",
  "email",
  "role",
  "staffId",
  "userId",
  "version",
  "confirm",
  "invitationId",
] as const;
export type MemberFormValues = Record<(typeof formFields)[number], string>;

export type MemberFormOutcome =
  | { kind: "done"; location: string }
  | {
      kind: "form";
      status: number;
      errors: Record<string, string | undefined>;
      values: MemberFormValues;
    };

/** One submit of the members page: parsed by its intent, applied, or refused with what was typed. */
export async function submitMembersForm(
  ctx: Ctx,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<MemberFormOutcome> {
  const values = Object.fromEntries(
    formFields.map((key) => [key, String(form.get(key) ?? "").slice(0, 300)]),
  ) as MemberFormValues;
  const refused = (status: number, errors: Record<string, string | undefined>) =>
    ({ kind: "form", status, errors, values }) as const;
  const base = `/owner/salons/${access.salon.id}/members`;
  if (!isMemberIntent(values.intent)) {
    return refused(400, { form: "操作の指定が正しくありません。画面を読み込み直してください。" });
  }
  try {
    switch (values.intent) {
      case "invite": {
        const parsed = memberFormSchemas.invite.safeParse(values);
        if (!parsed.success) return refused(400, fieldErrors<string>(parsed.error));
        await inviteMember(ctx, access, parsed.data, now);
        return { kind: "done", location: `${base}?done=invited` };
      }
      case "role": {
        const parsed = memberFormSchemas.role.safeParse(values);
        if (!parsed.success) return refused(400, fieldErrors<string>(parsed.error));
        await changeMemberRole(ctx.db, access, parsed.data, now);
        return { kind: "done", location: `${base}?done=role` };
      }
      case "remove": {
        const parsed = memberFormSchemas.remove.safeParse(values);
        if (!parsed.success) return refused(400, fieldErrors<string>(parsed.error));
        await removeMember(ctx.db, access, parsed.data, now);
        return { kind: "done", location: `${base}?done=removed` };
      }
      case "cancel": {
        const parsed = memberFormSchemas.cancel.safeParse(values);
        if (!parsed.success) return refused(400, fieldErrors<string>(parsed.error));
        await cancelInvitation(ctx.db, access, parsed.data, now);
        return { kind: "done", location: `${base}?done=cancelled` };
      }
    }
  } catch (error) {
    if (error instanceof DomainError) {
      const field =
        error.code === "stylist_unknown" || error.code === "stylist_taken"
          ? "staffId"
          : values.intent === "invite" && error.code !== "too_many_invitations"
            ? "email"
            : "form";
      // On the page, a person or invitation gone meanwhile is a conflict with what it showed.
      return refused(error.status === 404 ? 409 : error.status, { [field]: error.message });
    }
    throw error;
  }
}
