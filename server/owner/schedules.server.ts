import { and, asc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { data } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { formatDate } from "../../common/format";
import { addDays, formatMinutes, toLocal, weekdayOf } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { recordAudit } from "../audit/audit";
import { salonOpeningOn, workingIntervals } from "../bookings/availability";
import { loadSalonSchedule } from "../bookings/availability-data.server";
import { japaneseHolidaysBetween } from "../bookings/holidays";
import { bookingSettingsDefaults } from "../bookings/settings";
import type { Database } from "../db/client";
import {
  bookings,
  salonBookingSettings,
  salonOpeningHours,
  salons,
  scheduleExceptions,
} from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { notFound } from "../routing/not-found";
import type { SalonAccess } from "../salon-access/salon-access.server";
import {
  parseSchedule,
  scheduleFieldNames,
  staffExceptionSchema,
  versionField,
} from "../salon-editor/salon-parts.schema";
import { editSalonPart, fieldsOf, type SalonPartEdit } from "../salon-editor/salon-parts.server";
import {
  addStaffException,
  deleteStaffException,
} from "../salon-editor/salon-staff-exceptions.server";
import {
  deleteSchedule,
  type SchedulePattern,
  saveSchedule,
} from "../salon-editor/salon-staff-schedules.server";
import { staffTab } from "../salon-editor/salon-staff-tab.server";
import {
  guardStranding,
  type StrandedBooking,
  StrandedBookingsError,
  type StrandingOptions,
} from "../salon-editor/schedule-stranding.server";
import {
  ownScheduleRequests,
  pendingScheduleRequests,
  type ScheduleRequestView,
  submitManagerRequestForm,
} from "./schedule-requests.server";
import {
  type ClosureInput,
  closureSchema,
  InvalidMonthError,
  monthBounds,
  monthOf,
  monthOfDate,
  shiftMonth,
} from "./schedules.schema";

/**
 * The salon's 勤務表 (issue 29, point 2; decision 0046): a month per
 * stylist as the availability engine reads it, and the forms that change
 * it. The stylist's weekly patterns and exceptions are written by the
 * admin editor's writers (salon-staff-schedules/exceptions.server.ts: one
 * editor, two doors); the salon's 臨時休業, opening hours and public-holiday
 * rule by the writers here. Every writer runs in editSalonPart (the
 * salon's version check, the audit entry, the free-time summary refreshed
 * in the same transaction) and under guardStranding (the one stranding check).
 */

/** What a stylist's day is, for the calendar's words. */
export type StaffDayKind =
  /** Works the weekly pattern. */
  | "working"
  /** No hours in the weekly pattern that weekday. */
  | "weekly_off"
  /** A dated day off (休み). */
  | "day_off"
  /** Dated other hours (勤務時間の変更). */
  | "changed"
  /** A dated extra working day (臨時出勤). */
  | "extra";

/** Why the salon is closed that day: 定休日, 臨時休業, 祝日; null: open. */
export type SalonDayClosure = "regular" | "closure" | "holiday" | null;

export type MonthDay = {
  date: string;
  day: number;
  weekday: number;
  /** 2026年12月1日(火). */
  label: string;
  past: boolean;
  today: boolean;
  /** The public holiday's name (祝日), also when the salon opens. */
  holidayName: string | null;
  salonClosure: SalonDayClosure;
  /** The salon opens other hours that day (a dated exception of the whole salon). */
  salonHoursChanged: boolean;
  staffKind: StaffDayKind;
  /** The stylist's working time as the engine computes it (inside the salon's hours). */
  hours: { start: string; end: string }[];
  /** The stylist's bookings that day (confirmed or completed). */
  bookings: number;
  exceptions: {
    id: string;
    kind: "closed" | "hours" | "extra";
    startsAt: string | null;
    endsAt: string | null;
    note: string;
  }[];
  /** The salon's 臨時休業 row of the date, to remove it. */
  closureId: string | null;
  closureNote: string;
};

export type ScheduleMonth = {
  salon: { id: string; name: string; timeZone: string; version: number };
  month: string;
  monthLabel: string;
  previousMonth: string;
  nextMonth: string;
  today: string;
  staff: { id: string; name: string; active: boolean }[];
  selected: {
    id: string;
    name: string;
    active: boolean;
    patterns: SchedulePattern[];
    upcomingBookings: number;
  } | null;
  /** Weeks of seven days from Sunday; null pads the days of other months. */
  weeks: (MonthDay | null)[][];
  days: MonthDay[];
  closedOnHolidays: boolean;
  openingHours: { weekday: number; start: string; end: string }[];
};

const hhmm = (ms: number, timeZone: string) =>
  formatMinutes(toLocal(new Date(ms), timeZone).minutes);

async function salonRow(db: Database, salonId: string) {
  const [row] = await db
    .select({
      id: salons.id,
      name: salons.name,
      timeZone: salons.timeZone,
      version: salons.version,
    })
    .from(salons)
    .where(eq(salons.id, salonId));
  if (!row) throw new NotFoundError();
  return row;
}

/** Bookings (confirmed, completed) of one stylist per local date over the month. */
async function bookingCounts(
  db: Database,
  salonId: string,
  staffId: string,
  timeZone: string,
  from: string,
  to: string,
) {
  const local = sql<string>`to_char(${bookings.startsAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({ date: local, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.staffId, staffId),
        eq(bookings.kind, "booking"),
        inArray(bookings.status, ["confirmed", "completed"]),
        // A day either side covers any zone's local midnight.
        gte(bookings.startsAt, new Date(`${addDays(from, -1)}T00:00:00Z`)),
        lt(bookings.startsAt, new Date(`${addDays(to, 2)}T00:00:00Z`)),
      ),
    )
    // By position: the zone is a parameter, so the expression is not the same text twice.
    .groupBy(sql`1`);
  return new Map(rows.map((row) => [row.date, Number(row.n)]));
}

/** The dated exceptions of the month: the stylist's and the salon's (with their ids). */
async function monthExceptions(db: Database, salonId: string, from: string, to: string) {
  const rows = await db
    .select({
      id: scheduleExceptions.id,
      staffId: scheduleExceptions.staffId,
      date: scheduleExceptions.date,
      kind: scheduleExceptions.kind,
      startsAt: sql<string | null>`to_char(${scheduleExceptions.startsAt}, 'HH24:MI')`,
      endsAt: sql<string | null>`to_char(${scheduleExceptions.endsAt}, 'HH24:MI')`,
      note: scheduleExceptions.note,
    })
    .from(scheduleExceptions)
    .where(
      and(
        eq(scheduleExceptions.salonId, salonId),
        gte(scheduleExceptions.date, from),
        sql`${scheduleExceptions.date} <= ${to}`,
      ),
    )
    .orderBy(asc(scheduleExceptions.date), asc(scheduleExceptions.startsAt));
  return rows;
}

/**
 * The month of one stylist (`staffParam`, or the first active one) as the
 * engine reads it: hours, 定休日, 臨時休業, 祝日, days off, changed hours
 * and the number of bookings each day. A malformed month is 400; a
 * stylist who is not the salon's, 404.
 */
export async function scheduleMonth(
  db: Database,
  salonId: string,
  query: { staff: string | null; month: string | null },
  now: Date,
): Promise<ScheduleMonth> {
  const salon = await salonRow(db, salonId);
  const today = toLocal(now, salon.timeZone).date;
  const month = monthOf(query.month, monthOfDate(today));
  const { from, to } = monthBounds(month);
  const wanted = query.staff ? query.staff.trim().toLowerCase() : null;
  if (wanted !== null && wanted !== "" && !isUuid(wanted)) {
    throw new NotFoundError("スタッフが見つかりません。");
  }
  const firstTab = await staffTab(db, salonId, null, now);
  const members = firstTab.members;
  const chosenId =
    wanted && wanted !== ""
      ? (members.find((m) => m.id === wanted)?.id ?? null)
      : (members.find((m) => m.active)?.id ?? members[0]?.id ?? null);
  if (wanted && wanted !== "" && !chosenId) throw new NotFoundError("スタッフが見つかりません。");
  const tab = chosenId ? await staffTab(db, salonId, chosenId, now) : null;
  const selected = tab?.selected ?? null;

  const [schedule, exceptions, counts, settingsRow, hours] = await Promise.all([
    loadSalonSchedule(db, { salonId, from, to }),
    monthExceptions(db, salonId, from, to),
    chosenId
      ? bookingCounts(db, salonId, chosenId, salon.timeZone, from, to)
      : new Map<string, number>(),
    db
      .select({ closed: salonBookingSettings.closedOnPublicHolidays })
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, salonId)),
    db
      .select({
        weekday: salonOpeningHours.weekday,
        start: sql<string>`to_char(${salonOpeningHours.opens}, 'HH24:MI')`,
        end: sql<string>`to_char(${salonOpeningHours.closes}, 'HH24:MI')`,
      })
      .from(salonOpeningHours)
      .where(eq(salonOpeningHours.salonId, salonId))
      .orderBy(asc(salonOpeningHours.weekday), asc(salonOpeningHours.opens)),
  ]);
  const holidays = japaneseHolidaysBetween(from, to);

  const days: MonthDay[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const salonRows = exceptions.filter((e) => e.staffId === null && e.date === date);
    const closure = salonRows.find((e) => e.kind === "closed") ?? null;
    const own = chosenId ? exceptions.filter((e) => e.staffId === chosenId && e.date === date) : [];
    const opening = schedule
      ? salonOpeningOn(schedule, date)
      : { closedReason: "salon_closed" as const, opening: [] };
    const salonClosure: SalonDayClosure =
      opening.closedReason === "holiday"
        ? "holiday"
        : opening.closedReason === "salon_closed"
          ? closure
            ? "closure"
            : "regular"
          : null;
    const working =
      schedule && chosenId ? (workingIntervals(schedule, date).get(chosenId) ?? []) : [];
    const staffKind: StaffDayKind = own.some((e) => e.kind === "closed")
      ? "day_off"
      : own.some((e) => e.kind === "extra")
        ? "extra"
        : own.some((e) => e.kind === "hours")
          ? "changed"
          : (selected?.patterns ?? []).some((p) =>
                p.intervals.some(
                  (i) =>
                    i.weekday === weekdayOf(date) &&
                    (p.validFrom === null || p.validFrom <= date) &&
                    (p.validUntil === null || date <= p.validUntil),
                ),
              )
            ? "working"
            : "weekly_off";
    days.push({
      date,
      day: Number(date.slice(8)),
      weekday: weekdayOf(date),
      label: formatDate(date),
      past: date < today,
      today: date === today,
      holidayName: holidays.get(date) ?? null,
      salonClosure,
      salonHoursChanged: salonRows.some((e) => e.kind !== "closed"),
      staffKind,
      hours: working.map((w) => ({
        start: hhmm(w.start, salon.timeZone),
        end: hhmm(w.end, salon.timeZone),
      })),
      bookings: counts.get(date) ?? 0,
      exceptions: own.map((e) => ({
        id: e.id,
        kind: e.kind,
        startsAt: e.startsAt ?? null,
        endsAt: e.endsAt ?? null,
        note: e.note ?? "",
      })),
      closureId: closure?.id ?? null,
      closureNote: closure?.note ?? "",
    });
  }
  const weeks: (MonthDay | null)[][] = [];
  let week: (MonthDay | null)[] = Array.from({ length: days[0]?.weekday ?? 0 }, () => null);
  for (const day of days) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0)
    weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  const [y, m] = month.split("-");
  return {
    salon,
    month,
    monthLabel: `${y}年${Number(m)}月`,
    previousMonth: shiftMonth(month, -1),
    nextMonth: shiftMonth(month, 1),
    today,
    staff: members.map((m) => ({ id: m.id, name: m.name, active: m.active })),
    selected: selected
      ? {
          id: selected.id,
          name: selected.name,
          active: selected.active,
          patterns: selected.patterns,
          upcomingBookings: selected.upcomingBookings,
        }
      : null,
    weeks,
    days,
    closedOnHolidays: settingsRow[0]?.closed ?? bookingSettingsDefaults.closedOnHolidays,
    openingHours: hours,
  };
}

// ── The salon-wide writers ─────────────────────────────────────────────

const salonScope = (edit: SalonPartEdit) => ({
  salonId: edit.salonId,
  staffId: null,
  now: edit.now,
  actorUserId: edit.actor.id,
});

const salonAudit = (
  tx: Database,
  edit: SalonPartEdit,
  action:
    | "salon.closure_add"
    | "salon.closure_remove"
    | "salon.holiday_rule"
    | "salon.opening_hours",
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
) =>
  recordAudit(
    tx,
    {
      actorUserId: edit.actor.id,
      action,
      targetType: "salon",
      targetId: edit.salonId,
      salonId: edit.salonId,
      before,
      after,
    },
    edit.now,
  );

/** 臨時休業 on a date from today on; one per date. Refused when it would strand bookings (any stylist's). */
export async function addSalonClosure(
  db: Database,
  edit: SalonPartEdit & { timeZone: string },
  input: ClosureInput,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    const today = toLocal(edit.now, edit.timeZone).date;
    if (input.date < today) {
      throw new DomainError("date_past", "日付は今日以降の日付を入力してください。", 400);
    }
    const { result } = await guardStranding(tx, salonScope(edit), options, async () => {
      const [existing] = await tx
        .select({ id: scheduleExceptions.id })
        .from(scheduleExceptions)
        .where(
          and(
            eq(scheduleExceptions.salonId, edit.salonId),
            isNull(scheduleExceptions.staffId),
            eq(scheduleExceptions.kind, "closed"),
            eq(scheduleExceptions.date, input.date),
          ),
        );
      if (existing) {
        throw new DomainError("closure_exists", "この日はすでに臨時休業になっています。", 409);
      }
      const [row] = await tx
        .insert(scheduleExceptions)
        .values({
          salonId: edit.salonId,
          staffId: null,
          date: input.date,
          kind: "closed",
          note: input.note,
        })
        .returning({ id: scheduleExceptions.id });
      await salonAudit(tx, edit, "salon.closure_add", null, { exceptionId: row?.id, ...input });
      return row;
    });
    return result;
  });
}

/** Removes a 臨時休業 (opening again strands nobody, but it passes the one check like every writer). */
export async function removeSalonClosure(
  db: Database,
  edit: SalonPartEdit,
  exceptionId: string,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    await guardStranding(tx, salonScope(edit), options, async () => {
      const [removed] = isUuid(exceptionId)
        ? await tx
            .delete(scheduleExceptions)
            .where(
              and(
                eq(scheduleExceptions.id, exceptionId.toLowerCase()),
                eq(scheduleExceptions.salonId, edit.salonId),
                isNull(scheduleExceptions.staffId),
                eq(scheduleExceptions.kind, "closed"),
              ),
            )
            .returning({ date: scheduleExceptions.date, note: scheduleExceptions.note })
        : [];
      if (!removed) {
        throw new DomainError(
          "closure_not_found",
          "この臨時休業はすでに削除されています。表示を確認してください。",
          409,
        );
      }
      await salonAudit(tx, edit, "salon.closure_remove", { exceptionId, ...removed }, null);
    });
  });
}

/** The public-holiday rule (祝日は休業): turning it on may strand bookings on holidays. */
export async function setHolidayRule(
  db: Database,
  edit: SalonPartEdit,
  closed: boolean,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    await guardStranding(tx, salonScope(edit), options, async () => {
      const [row] = await tx
        .select({ closed: salonBookingSettings.closedOnPublicHolidays })
        .from(salonBookingSettings)
        .where(eq(salonBookingSettings.salonId, edit.salonId));
      const before = row?.closed ?? bookingSettingsDefaults.closedOnHolidays;
      if (before === closed) return;
      await tx
        .insert(salonBookingSettings)
        .values({ salonId: edit.salonId, closedOnPublicHolidays: closed })
        .onConflictDoUpdate({
          target: salonBookingSettings.salonId,
          set: { closedOnPublicHolidays: closed },
        });
      await salonAudit(
        tx,
        edit,
        "salon.holiday_rule",
        { closedOnPublicHolidays: before },
        {
          closedOnPublicHolidays: closed,
        },
      );
    });
  });
}

/**
 * The salon's weekly opening hours; a weekday without hours is a 定休日
 * (salons.regular_holidays follows, as the 基本情報 tab writes it).
 */
export async function saveOpeningHours(
  db: Database,
  edit: SalonPartEdit,
  intervals: { weekday: number; startsAt: string; endsAt: string }[],
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    await guardStranding(tx, salonScope(edit), options, async () => {
      const before = await tx
        .select({
          weekday: salonOpeningHours.weekday,
          opens: sql<string>`to_char(${salonOpeningHours.opens}, 'HH24:MI')`,
          closes: sql<string>`to_char(${salonOpeningHours.closes}, 'HH24:MI')`,
        })
        .from(salonOpeningHours)
        .where(eq(salonOpeningHours.salonId, edit.salonId))
        .orderBy(asc(salonOpeningHours.weekday), asc(salonOpeningHours.opens));
      await tx.delete(salonOpeningHours).where(eq(salonOpeningHours.salonId, edit.salonId));
      const after = intervals.map((i) => ({
        weekday: i.weekday,
        opens: i.startsAt,
        closes: i.endsAt,
      }));
      if (after.length > 0) {
        await tx
          .insert(salonOpeningHours)
          .values(after.map((row) => ({ salonId: edit.salonId, ...row })));
      }
      const open = new Set(after.map((row) => row.weekday));
      await tx
        .update(salons)
        .set({ regularHolidays: [0, 1, 2, 3, 4, 5, 6].filter((w) => !open.has(w)) })
        .where(eq(salons.id, edit.salonId));
      await salonAudit(tx, edit, "salon.opening_hours", { hours: before }, { hours: after });
    });
  });
}

// ── The page's POST ────────────────────────────────────────────────────

export type ScheduleFormResult =
  | {
      ok: true;
      done: string;
      query: Record<string, string>;
      /** Applied with 「予約が残っていても変更する」: the bookings to move or cancel. */
      stranded: StrandedBooking[];
    }
  | {
      ok: false;
      form: string;
      errors: Record<string, string>;
      values: Record<string, string | string[]>;
      status: number;
      conflict?: boolean;
      /** With a conflict: the version the refused form was loaded with (saving again is refused too). */
      version?: number;
      /** Refused because of these bookings (409). */
      stranded?: StrandedBooking[];
    };

const exceptionFields = ["date", "kind", "startsAt", "endsAt", "note"] as const;

/**
 * POST /owner/salons/{id}/schedules (and the API's writes, if any): which
 * button (`intent`), the fields by their schema, one writer; every refusal
 * keeps what was typed. `force` is the 「予約が残っていても変更する」 box.
 */
export async function submitScheduleForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<ScheduleFormResult> {
  const intent = String(form.get("intent") ?? "").slice(0, 50);
  const staffId = String(form.get("staffId") ?? "").slice(0, 100);
  const month = String(form.get("month") ?? "").slice(0, 20);
  const force = form.get("force") === "on";
  const base = { intent, staffId, month, ...(force ? { force: "on" } : {}) };
  const query: Record<string, string> = {
    ...(staffId ? { staff: staffId } : {}),
    ...(month ? { month } : {}),
  };
  const refuse = (
    name: string,
    values: Record<string, string | string[]>,
    errors: Record<string, string | undefined>,
    status = 400,
  ): ScheduleFormResult => {
    const clean: Record<string, string> = {};
    for (const [key, message] of Object.entries(errors)) if (message) clean[key] = message;
    return { ok: false, form: name, errors: clean, values, status };
  };
  const version = versionField.safeParse(form.get("version") ?? "");
  const stranded: StrandedBooking[] = [];
  const options: StrandingOptions = {
    allowStranding: force,
    onStranded: (list) => stranded.push(...list),
  };
  const run = async (
    name: string,
    values: Record<string, string | string[]>,
    write: (edit: SalonPartEdit) => Promise<unknown>,
    done: string,
  ): Promise<ScheduleFormResult> => {
    if (!version.success) {
      return refuse(name, values, { form: version.error.issues[0]?.message ?? "" });
    }
    const edit: SalonPartEdit = {
      salonId: access.salon.id,
      version: version.data,
      actor: { id: access.user.id },
      now,
    };
    try {
      await write(edit);
      return { ok: true, done, query, stranded };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return {
        ok: false,
        form: name,
        values,
        errors: { form: error.message },
        status: error.status,
        ...(error.code === "salon_version_conflict"
          ? { conflict: true, version: edit.version }
          : {}),
        ...(error instanceof StrandedBookingsError ? { stranded: error.bookings } : {}),
      };
    }
  };
  const timeZone = access.salon.timeZone;

  switch (intent) {
    case "schedule-save": {
      const pattern = String(form.get("pattern") ?? "").slice(0, 100);
      const values = {
        ...fieldsOf(form, ["validFrom", "validUntil", ...scheduleFieldNames]),
        ...base,
        pattern,
      };
      const parsed = parseSchedule(values as Record<string, string>);
      if (!parsed.success) return refuse(`schedule:${pattern}`, values, parsed.errors);
      return run(
        `schedule:${pattern}`,
        values,
        (edit) => saveSchedule(db, edit, staffId, pattern, parsed.data, options),
        "schedule-saved",
      );
    }
    case "schedule-delete": {
      const pattern = String(form.get("pattern") ?? "").slice(0, 100);
      const values = { ...base, pattern };
      return run(
        `schedule:${pattern}`,
        values,
        (edit) => deleteSchedule(db, edit, staffId, pattern, options),
        "schedule-deleted",
      );
    }
    case "exception-add": {
      const values = { ...fieldsOf(form, exceptionFields), ...base };
      const parsed = staffExceptionSchema.safeParse(values);
      if (!parsed.success) return refuse("exception", values, fieldErrors(parsed.error));
      return run(
        "exception",
        values,
        (edit) => addStaffException(db, { ...edit, timeZone }, staffId, parsed.data, options),
        "exception-added",
      );
    }
    case "exception-delete": {
      const values = { ...base, exceptionId: String(form.get("exceptionId") ?? "").slice(0, 100) };
      return run(
        "exception",
        values,
        (edit) => deleteStaffException(db, edit, staffId, values.exceptionId, options),
        "exception-deleted",
      );
    }
    case "closure-add": {
      const values = { ...fieldsOf(form, ["date", "note"]), ...base };
      const parsed = closureSchema.safeParse(values);
      if (!parsed.success) return refuse("closure", values, fieldErrors(parsed.error));
      return run(
        "closure",
        values,
        (edit) => addSalonClosure(db, { ...edit, timeZone }, parsed.data, options),
        "closure-added",
      );
    }
    case "closure-delete": {
      const values = { ...base, exceptionId: String(form.get("exceptionId") ?? "").slice(0, 100) };
      return run(
        "closure",
        values,
        (edit) => removeSalonClosure(db, edit, values.exceptionId, options),
        "closure-deleted",
      );
    }
    case "holiday-rule": {
      const values = {
        ...base,
        closedOnHolidays: form.get("closedOnHolidays") === "on" ? "on" : "",
      };
      return run(
        "holiday",
        values,
        (edit) => setHolidayRule(db, edit, values.closedOnHolidays === "on", options),
        "holiday-rule-saved",
      );
    }
    case "hours-save": {
      const values = { ...fieldsOf(form, scheduleFieldNames), ...base };
      const parsed = parseSchedule({
        ...(values as Record<string, string>),
        validFrom: "",
        validUntil: "",
      });
      if (!parsed.success) {
        // The grid is the weekly pattern's; a salon open on no day at all is refused.
        const errors = { ...parsed.errors };
        if (errors.form) {
          errors.form =
            "営業時間を1つ以上入力してください（定休日の曜日は空欄のままにします）。ずっと休業する場合は、管理者にご連絡ください。";
        }
        return refuse("hours", values, errors);
      }
      return run(
        "hours",
        values,
        (edit) => saveOpeningHours(db, edit, parsed.data.intervals, options),
        "hours-saved",
      );
    }
    case "request-approve":
    case "request-decline": {
      // A stylist's request (decision 0052): its own version check; approving writes the
      // exception through addStaffException, under the same stranding check.
      const outcome = await submitManagerRequestForm(db, access, form, intent, now);
      return outcome.ok ? { ...outcome, query } : outcome;
    }
    default:
      return refuse("page", base, {
        form: "操作の指定が正しくありません。画面を読み込み直してください。",
      });
  }
}

/**
 * The page's data: the frame, the month, and the outcome of the last save
 * (?done=). A malformed month is the 400 screen with its message; a
 * stylist not of this salon, the 404 screen.
 */
export async function schedulesPage(
  db: Database,
  access: SalonAccess,
  request: Request,
  now: Date,
) {
  const url = new URL(request.url);
  try {
    const month = await scheduleMonth(
      db,
      access.salon.id,
      { staff: url.searchParams.get("staff"), month: url.searchParams.get("month") },
      now,
    );
    // The stylists' requests waiting for a manager (decision 0052); a stylist's own page
    // replaces them with their own.
    const requests: ScheduleRequestView[] = access.staffId
      ? []
      : await pendingScheduleRequests(db, access.salon.id);
    return {
      ...month,
      done: url.searchParams.get("done"),
      requests,
      ownRequests: null as ScheduleRequestView[] | null,
    };
  } catch (error) {
    if (error instanceof InvalidMonthError) throw data(error.message, { status: 400 });
    if (error instanceof NotFoundError) throw notFound(request);
    throw error;
  }
}

/**
 * /owner/salons/{id}/schedules/mine: a stylist's own month, read-only
 * (schedules.request): the same reading, only their own column and name;
 * ?staff= is not theirs to choose; with their requests and the form to
 * ask (decision 0052). An account that is no stylist of the
 * salon, the 404 screen.
 */
export async function ownSchedulePage(
  db: Database,
  access: SalonAccess,
  request: Request,
  now: Date,
) {
  if (!access.staffId) throw notFound(request);
  const url = new URL(request.url);
  url.searchParams.set("staff", access.staffId);
  const page = await schedulesPage(db, access, new Request(url), now);
  return {
    ...page,
    ownRequests: await ownScheduleRequests(db, access.salon.id, access.staffId),
    staff: page.staff.filter((member) => member.id === access.staffId),
    readOnly: true as const,
  };
}
