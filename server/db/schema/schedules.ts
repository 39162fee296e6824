import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  uuid,
} from "drizzle-orm/pg-core";
import { slotStepChoices } from "../../../common/salon-form-fields";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

/**
 * When a salon and its stylists work (docs/decisions/0009-booking-data-model.md).
 * Times are local to the salon's time zone (`salons.time_zone`); the
 * no-overlap exclusion constraints on opening hours and schedules are added
 * by hand in migration 0004 (drizzle-kit cannot express them).
 */

/** A weekly opening interval; several a weekday are allowed (a lunch closing). */
export const salonOpeningHours = pgTable(
  "salon_opening_hours",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** 0 = Sunday … 6 = Saturday (PostgreSQL's dow, Date.getDay()). */
    weekday: smallint("weekday").notNull(),
    opens: time("opens").notNull(),
    closes: time("closes").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.weekday, t.opens] }),
    check("salon_opening_hours_weekday_range", sql`${t.weekday} between 0 and 6`),
    check("salon_opening_hours_order", sql`${t.closes} > ${t.opens}`),
  ],
);

/**
 * A salon's booking rules. A salon without a row uses the defaults, which
 * live in code once (bookingSettingsDefaults in server/bookings/settings.ts)
 * and are repeated here only as column defaults for rows written by hand.
 */
export const salonBookingSettings = pgTable(
  "salon_booking_settings",
  {
    salonId: uuid("salon_id")
      .primaryKey()
      .references(() => salons.id, { onDelete: "cascade" }),
    slotStepMinutes: integer("slot_step_minutes").notNull().default(15),
    leadTimeMinutes: integer("lead_time_minutes").notNull().default(60),
    bookingWindowDays: integer("booking_window_days").notNull().default(60),
    cancellationCutoffHours: integer("cancellation_cutoff_hours").notNull().default(24),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    /** Preparation time kept free before each booking (issue 29, point 4). */
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    /** The most confirmed future bookings one customer may hold here; null = no limit. */
    maxLiveBookingsPerCustomer: integer("max_live_bookings_per_customer"),
    /** New web bookings wait for the salon's approval (仮予約) before they are final. */
    requiresApproval: boolean("requires_approval").notNull().default(false),
    dailyLimitPerStaff: integer("daily_limit_per_staff"),
    sameDayCutoff: time("same_day_cutoff"),
    closedOnPublicHolidays: boolean("closed_on_public_holidays").notNull().default(false),
    holdMinutes: integer("hold_minutes").notNull().default(10),
    /** Mail the salon about new bookings, cancellations and customers' moves (issue 28, point 7). */
    noticeMailEnabled: boolean("notice_mail_enabled").notNull().default(true),
    /** The salon's booking address for those mails; "" means its owners' addresses. */
    noticeEmail: text("notice_email").notNull().default(""),
    /** How long a waiting-list offer holds a freed time for its visitor (issue 30, point 4). */
    waitlistOfferMinutes: integer("waitlist_offer_minutes").notNull().default(30),
    /** How long the salon has to answer a 仮予約 before it lapses (issue 38, §1.2; decision 0071). */
    approvalAnswerHours: integer("approval_answer_hours").notNull().default(24),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "salon_booking_settings_slot_step_valid",
      sql`${t.slotStepMinutes} in (${sql.raw(slotStepChoices.join(", "))})`,
    ),
    check("salon_booking_settings_lead_time_nonnegative", sql`${t.leadTimeMinutes} >= 0`),
    check("salon_booking_settings_window_range", sql`${t.bookingWindowDays} between 1 and 365`),
    check("salon_booking_settings_cutoff_nonnegative", sql`${t.cancellationCutoffHours} >= 0`),
    check("salon_booking_settings_buffer_nonnegative", sql`${t.bufferAfterMinutes} >= 0`),
    // The admin form's bound; bookings_span_bounded relies on it.
    check("salon_booking_settings_buffer_at_most_4h", sql`${t.bufferAfterMinutes} <= 240`),
    check(
      "salon_booking_settings_buffer_before_range",
      sql`${t.bufferBeforeMinutes} between 0 and 240`,
    ),
    check(
      "salon_booking_settings_max_live_range",
      sql`${t.maxLiveBookingsPerCustomer} is null or ${t.maxLiveBookingsPerCustomer} between 1 and 50`,
    ),
    check(
      "salon_booking_settings_daily_limit_positive",
      sql`${t.dailyLimitPerStaff} is null or ${t.dailyLimitPerStaff} > 0`,
    ),
    check("salon_booking_settings_hold_range", sql`${t.holdMinutes} between 1 and 60`),
    check(
      "salon_booking_settings_waitlist_offer_range",
      sql`${t.waitlistOfferMinutes} between 10 and 240`,
    ),
    check(
      "salon_booking_settings_approval_answer_range",
      sql`${t.approvalAnswerHours} between 1 and 168`,
    ),
  ],
);

/**
 * A stylist's weekly working interval. Several rows a weekday make breaks
 * (10:00–13:00 and 14:00–20:00); validity dates (inclusive, null = open)
 * let a new pattern start on a date without rewriting the old one.
 */
export const staffSchedules = pgTable(
  "staff_schedules",
  {
    id: id(),
    salonId: uuid("salon_id").notNull(),
    staffId: uuid("staff_id").notNull(),
    weekday: smallint("weekday").notNull(),
    startsAt: time("starts_at").notNull(),
    endsAt: time("ends_at").notNull(),
    validFrom: date("valid_from"),
    validUntil: date("valid_until"),
  },
  (t) => [
    foreignKey({
      name: "staff_schedules_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }).onDelete("cascade"),
    index("staff_schedules_staff_idx").on(t.salonId, t.staffId, t.weekday),
    check("staff_schedules_weekday_range", sql`${t.weekday} between 0 and 6`),
    check("staff_schedules_order", sql`${t.endsAt} > ${t.startsAt}`),
    check(
      "staff_schedules_validity_order",
      sql`${t.validFrom} is null or ${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`,
    ),
  ],
);

/**
 * What a dated exception does (see DatedException in
 * server/bookings/availability-input.ts): closed = nothing that day;
 * hours = that day's intervals replace the weekly ones; extra = a working
 * day the weekly pattern does not have.
 */
export const scheduleExceptionKinds = ["closed", "hours", "extra"] as const;
export type ScheduleExceptionKind = (typeof scheduleExceptionKinds)[number];

/** A dated exception for one stylist, or for the whole salon when staff_id is null. */
export const scheduleExceptions = pgTable(
  "schedule_exceptions",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    staffId: uuid("staff_id"),
    date: date("date").notNull(),
    kind: text("kind").$type<ScheduleExceptionKind>().notNull(),
    startsAt: time("starts_at"),
    endsAt: time("ends_at"),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    // MATCH SIMPLE: a salon-wide row (staff_id null) is not checked against staff.
    foreignKey({
      name: "schedule_exceptions_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }).onDelete("cascade"),
    index("schedule_exceptions_salon_date_idx").on(t.salonId, t.date),
    // The foreign key's other side: deleting a stylist.
    index("schedule_exceptions_staff_idx").on(t.staffId, t.salonId),
    check("schedule_exceptions_kind_valid", sql`${t.kind} in (${sqlList(scheduleExceptionKinds)})`),
    check(
      "schedule_exceptions_times",
      sql`case when ${t.kind} = 'closed' then ${t.startsAt} is null and ${t.endsAt} is null
        else ${t.startsAt} is not null and ${t.endsAt} is not null and ${t.endsAt} > ${t.startsAt} end`,
    ),
  ],
);
