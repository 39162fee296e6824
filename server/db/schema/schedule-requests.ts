import { sql } from "drizzle-orm";
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  time,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";
import { type ScheduleExceptionKind, scheduleExceptionKinds } from "./schedules";
import { staff } from "./staff";

/**
 * A stylist's request for a change of their own schedule on one date
 * (issue 29, point 1; decision 0052): a day off, other hours or an extra
 * working day, as a dated exception would be. A manager approves it (the
 * exception is written by the editor's exception writer, under the
 * stranding check) or declines it; the stylist may withdraw it while
 * pending. `version` is bumped by every change (optimistic concurrency).
 */
export const scheduleRequestStatuses = ["pending", "approved", "declined", "withdrawn"] as const;
export type ScheduleRequestStatus = (typeof scheduleRequestStatuses)[number];

export const scheduleRequests = pgTable(
  "schedule_requests",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    staffId: uuid("staff_id").notNull(),
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    date: date("date").notNull(),
    kind: text("kind").$type<ScheduleExceptionKind>().notNull(),
    startsAt: time("starts_at"),
    endsAt: time("ends_at"),
    note: text("note").notNull().default(""),
    status: text("status").$type<ScheduleRequestStatus>().notNull().default("pending"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionNote: text("decision_note").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer("version").notNull().default(0),
  },
  (t) => [
    foreignKey({
      name: "schedule_requests_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }).onDelete("cascade"),
    // The managers' list: a salon's pending requests by date.
    index("schedule_requests_salon_status_idx").on(t.salonId, t.status, t.date),
    // A stylist's own list, and the foreign key's other side.
    index("schedule_requests_staff_idx").on(t.staffId, t.salonId),
    index("schedule_requests_requested_by_idx")
      .on(t.requestedBy)
      .where(sql`${t.requestedBy} is not null`),
    index("schedule_requests_decided_by_idx")
      .on(t.decidedBy)
      .where(sql`${t.decidedBy} is not null`),
    check("schedule_requests_kind_valid", sql`${t.kind} in (${sqlList(scheduleExceptionKinds)})`),
    check(
      "schedule_requests_status_valid",
      sql`${t.status} in (${sqlList(scheduleRequestStatuses)})`,
    ),
    check(
      "schedule_requests_times",
      sql`case when ${t.kind} = 'closed' then ${t.startsAt} is null and ${t.endsAt} is null
        else ${t.startsAt} is not null and ${t.endsAt} is not null and ${t.endsAt} > ${t.startsAt} end`,
    ),
    check("schedule_requests_note_length", sql`char_length(${t.note}) <= 200`),
    check("schedule_requests_decision_note_length", sql`char_length(${t.decisionNote}) <= 200`),
  ],
);
