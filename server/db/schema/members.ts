import { sql } from "drizzle-orm";
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, sqlList, updatedAt } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

/**
 * The salon's own staff roles (issue 29, point 1; decision 0045), beside
 * its owners: manager (everything but ownership), reception (the day:
 * ledger, bookings, walk-ins, customers) and stylist (their own column,
 * linked to one row of staff). A member is an ordinary account; the row is
 * read on every request, so removing it ends their access at once.
 */
export const salonMemberRoles = ["manager", "reception", "stylist"] as const;
export type SalonMemberRole = (typeof salonMemberRoles)[number];

export const salonMembers = pgTable(
  "salon_members",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<SalonMemberRole>().notNull(),
    /** The stylist this account is (role stylist only); composite key: the same salon. */
    staffId: uuid("staff_id"),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    /** Bumped by every change, for the optimistic-concurrency check of the members page. */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.userId] }),
    index("salon_members_user_idx").on(t.userId),
    foreignKey({
      name: "salon_members_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }).onDelete("cascade"),
    // One account per stylist: two people accepting invitations for the same
    // stylist at the same moment cannot both get through.
    uniqueIndex("salon_members_staff_unique")
      .on(t.staffId, t.salonId)
      .where(sql`${t.staffId} is not null`),
    index("salon_members_invited_by_idx").on(t.invitedBy).where(sql`${t.invitedBy} is not null`),
    check("salon_members_role_valid", sql`${t.role} in (${sqlList(salonMemberRoles)})`),
    check(
      "salon_members_stylist_has_staff",
      sql`(${t.role} = 'stylist') = (${t.staffId} is not null)`,
    ),
  ],
);
