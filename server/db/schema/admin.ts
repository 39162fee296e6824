import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, id, sqlList } from "./common";
import { type SalonMemberRole, salonMemberRoles } from "./members";
import { salons } from "./salons";

/**
 * What administrators changed, one row per change, written in the same
 * transaction as the change itself (docs/decisions: invitations and audit),
 * so the log never lists a change that was rolled back nor misses one that
 * was kept. `before` and `after` hold only the fields that changed (null for
 * a creation or a removal). Rows are never updated or deleted by the app;
 * an actor or salon deleted later leaves the entry with a null reference.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    /** The administrator who made the change; null for the system. */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Dotted verb, e.g. "owner.invite", "owner.salon_unlink", "salon.update". */
    action: text("action").notNull(),
    /** "user", "salon", "invitation", "redirect_rule" … and the id as text (users have text ids). */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** The salon the change concerns, for the per-salon filter. */
    salonId: uuid("salon_id").references(() => salons.id, { onDelete: "set null" }),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt.desc()),
    index("audit_log_salon_idx").on(t.salonId, t.createdAt.desc()),
    index("audit_log_actor_idx").on(t.actorUserId, t.createdAt.desc()),
  ],
);

export const invitationKinds = ["new_owner", "upgrade"] as const;
export type InvitationKind = (typeof invitationKinds)[number];

/**
 * An invitation to become a salon owner. Only the SHA-256 of the token is
 * stored (the mail holds the token), so a database reader cannot use it.
 * "new_owner": the account was created with the invitation and the link sets
 * its password. "upgrade": the address already belonged to a user, who
 * becomes an owner of `salon_ids` only when they confirm through the link.
 */
export const ownerInvitations = pgTable(
  "owner_invitations",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<InvitationKind>().notNull(),
    /** Salons linked when an "upgrade" is confirmed (a new owner's are linked at once). */
    salonIds: uuid("salon_ids").array().notNull().default(sql`'{}'::uuid[]`),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    /**
     * A salon's staff invitation (issue 29, decision 0045): the role the
     * person gets at salon_ids[0] (a salon_members row) instead of becoming
     * an owner; null for an owner's invitation.
     */
    memberRole: text("member_role").$type<SalonMemberRole>(),
    /** The stylist a "stylist" invitation links to. */
    memberStaffId: uuid("member_staff_id"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("owner_invitations_user_idx").on(t.userId),
    // The foreign key's other side: deleting an administrator's account.
    index("owner_invitations_invited_by_idx")
      .on(t.invitedBy)
      .where(sql`${t.invitedBy} is not null`),
    check("owner_invitations_kind_valid", sql`${t.kind} in ('new_owner', 'upgrade')`),
    check(
      "owner_invitations_member_role_valid",
      sql`${t.memberRole} is null or ${t.memberRole} in (${sqlList(salonMemberRoles)})`,
    ),
    check(
      "owner_invitations_member_stylist_has_staff",
      sql`(${t.memberRole} is not distinct from 'stylist') = (${t.memberStaffId} is not null)`,
    ),
  ],
);
