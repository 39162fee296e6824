import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { fieldErrors } from "../../common/field-rules";
import { formatDate } from "../../common/format";
import { addDays, toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { retryTransaction } from "../db/retry";
import { type ScheduleRequestStatus, salons, scheduleRequests, staff } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { staffExceptionSchema, versionField } from "../salon-editor/salon-parts.schema";
import { fieldsOf } from "../salon-editor/salon-parts.server";
import { addStaffException } from "../salon-editor/salon-staff-exceptions.server";
import {
  type StrandedBooking,
  StrandedBookingsError,
  type StrandingOptions,
} from "../salon-editor/schedule-stranding.server";

/**
 * A stylist's own schedule requests (issue 29, point 1; decision 0052):
 * the stylist asks for a day off, other hours or an extra working day on
 * a date and may withdraw it while pending; a manager (schedules.manage)
 * approves it — the exception is written by the admin editor's exception
 * writer (addStaffException: the salon's version, the stranding check,
 * its audit entry) in the same transaction as the request's new status —
 * or declines it with a note. Every change checks the request's version.
 */

/** The most pending requests one stylist may hold. */
export const PENDING_REQUEST_LIMIT = 20;
/** How far ahead a stylist may ask (days). */
export const REQUEST_HORIZON_DAYS = 365;

export type ScheduleRequestView = {
  id: string;
  staffId: string;
  staffName: string;
  date: string;
  dateLabel: string;
  kind: "closed" | "hours" | "extra";
  startsAt: string | null;
  endsAt: string | null;
  note: string;
  status: ScheduleRequestStatus;
  decisionNote: string;
  version: number;
};

const columns = {
  id: scheduleRequests.id,
  staffId: scheduleRequests.staffId,
  staffName: staff.name,
  date: scheduleRequests.date,
  kind: scheduleRequests.kind,
  startsAt: localTime(scheduleRequests.startsAt),
  endsAt: localTime(scheduleRequests.endsAt),
  note: scheduleRequests.note,
  status: scheduleRequests.status,
  decisionNote: scheduleRequests.decisionNote,
  version: scheduleRequests.version,
};

const view = (row: {
  id: string;
  staffId: string;
  staffName: string;
  date: string;
  kind: "closed" | "hours" | "extra";
  startsAt: string | null;
  endsAt: string | null;
  note: string;
  status: ScheduleRequestStatus;
  decisionNote: string;
  version: number;
}): ScheduleRequestView => ({
  ...row,
  startsAt: row.startsAt ?? null,
  endsAt: row.endsAt ?? null,
  dateLabel: formatDate(row.date),
});

/** A stylist's own requests, the newest first (the last 50). */
export async function ownScheduleRequests(db: Database, salonId: string, staffId: string) {
  const rows = await db
    .select(columns)
    .from(scheduleRequests)
    .innerJoin(staff, eq(staff.id, scheduleRequests.staffId))
    .where(and(eq(scheduleRequests.salonId, salonId), eq(scheduleRequests.staffId, staffId)))
    .orderBy(desc(scheduleRequests.createdAt))
    .limit(50);
  return rows.map(view);
}

/** The salon's pending requests by date (the managers' list). */
export async function pendingScheduleRequests(db: Database, salonId: string) {
  const rows = await db
    .select(columns)
    .from(scheduleRequests)
    .innerJoin(staff, eq(staff.id, scheduleRequests.staffId))
    .where(and(eq(scheduleRequests.salonId, salonId), eq(scheduleRequests.status, "pending")))
    .orderBy(asc(scheduleRequests.date), asc(scheduleRequests.createdAt))
    .limit(200);
  return rows.map(view);
}

/** How many requests wait for a manager (今日's 要確認). */
export async function pendingScheduleRequestCount(db: Database, salonId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduleRequests)
    .where(and(eq(scheduleRequests.salonId, salonId), eq(scheduleRequests.status, "pending")));
  return Number(row?.n ?? 0);
}

const requestNote = z.string().trim().max(200, "メモは200文字以内で入力してください。");
const decisionNote = z.string().trim().max(200, "見送りの理由は200文字以内で入力してください。");

/** The request's fields: the exception form's rules, a note of up to 200 characters. */
export function parseScheduleRequest(values: Record<string, string>) {
  const parsed = staffExceptionSchema.safeParse({ ...values, note: "" });
  const note = requestNote.safeParse(values.note ?? "");
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const [key, message] of Object.entries(fieldErrors(parsed.error))) {
      if (message) errors[key] = message;
    }
  }
  if (!note.success) errors.note = note.error.issues[0]?.message ?? "";
  if (!parsed.success || !note.success) return { success: false as const, errors };
  return { success: true as const, data: { ...parsed.data, note: note.data } };
}

type RequestInput = Extract<ReturnType<typeof parseScheduleRequest>, { success: true }>["data"];

const stale = () =>
  new DomainError(
    "schedule_request_stale",
    "この申請はほかの操作で変更されています（取り下げ・承認・見送り済みなど）。画面を読み込み直してください。",
    409,
  );

/** The request row, locked, if it is the salon's (and the stylist's, when given). */
async function lockRequest(
  tx: Database,
  salonId: string,
  requestId: string,
  staffId: string | null,
) {
  if (!isUuid(requestId)) throw new NotFoundError("申請が見つかりません。");
  const [row] = await tx
    .select({
      id: scheduleRequests.id,
      staffId: scheduleRequests.staffId,
      date: scheduleRequests.date,
      kind: scheduleRequests.kind,
      startsAt: localTime(scheduleRequests.startsAt),
      endsAt: localTime(scheduleRequests.endsAt),
      note: scheduleRequests.note,
      status: scheduleRequests.status,
      version: scheduleRequests.version,
    })
    .from(scheduleRequests)
    .where(
      and(
        eq(scheduleRequests.id, requestId.toLowerCase()),
        eq(scheduleRequests.salonId, salonId),
        ...(staffId ? [eq(scheduleRequests.staffId, staffId)] : []),
      ),
    )
    .for("update");
  if (!row) throw new NotFoundError("申請が見つかりません。");
  return row;
}

async function setStatus(
  tx: Database,
  requestId: string,
  status: ScheduleRequestStatus,
  decided: { by: string; at: Date; note: string } | null,
) {
  await tx
    .update(scheduleRequests)
    .set({
      status,
      version: sql`${scheduleRequests.version} + 1`,
      ...(decided
        ? { decidedBy: decided.by, decidedAt: decided.at, decisionNote: decided.note }
        : {}),
    })
    .where(eq(scheduleRequests.id, requestId));
}

const audit = (
  tx: Database,
  access: SalonAccess,
  action:
    | "schedule_request.create"
    | "schedule_request.withdraw"
    | "schedule_request.approve"
    | "schedule_request.decline",
  requestId: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  now: Date,
) =>
  recordAudit(
    tx,
    {
      actorUserId: access.user.id,
      action,
      targetType: "schedule_request",
      targetId: requestId,
      salonId: access.salon.id,
      before,
      after,
    },
    now,
  );

/** A stylist asks (their own staff id only): today or later within a year, at most 20 pending. */
export async function createScheduleRequest(
  db: Database,
  access: SalonAccess,
  input: RequestInput,
  now: Date,
) {
  const staffId = access.staffId;
  if (!staffId) throw new NotFoundError();
  const today = toLocal(now, access.salon.timeZone).date;
  if (input.date < today) {
    throw new DomainError("date_past", "日付は今日以降の日付を入力してください。", 400);
  }
  if (input.date > addDays(today, REQUEST_HORIZON_DAYS)) {
    throw new DomainError("date_too_far", "日付は1年以内の日付を入力してください。", 400);
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    // One stylist's requests take turns (the limit holds under two posts at once); NO KEY
    // UPDATE does not wait for a booking's insert (its foreign key takes KEY SHARE).
    const [member] = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.id, staffId), eq(staff.salonId, access.salon.id)))
      .for("no key update");
    if (!member) throw new NotFoundError();
    const pending = await tx
      .select({ date: scheduleRequests.date })
      .from(scheduleRequests)
      .where(
        and(
          eq(scheduleRequests.salonId, access.salon.id),
          eq(scheduleRequests.staffId, staffId),
          eq(scheduleRequests.status, "pending"),
        ),
      );
    if (pending.length >= PENDING_REQUEST_LIMIT) {
      throw new DomainError(
        "schedule_request_limit",
        `承認待ちの申請は${PENDING_REQUEST_LIMIT}件までです。承認・見送りを待つか、不要な申請を取り下げてください。`,
        409,
      );
    }
    if (pending.some((p) => p.date === input.date)) {
      throw new DomainError(
        "schedule_request_same_day",
        "この日の申請はすでに承認待ちです。変える場合は、先にその申請を取り下げてください。",
        409,
      );
    }
    const [row] = await tx
      .insert(scheduleRequests)
      .values({
        salonId: access.salon.id,
        staffId,
        requestedBy: access.user.id,
        date: input.date,
        kind: input.kind,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        note: input.note,
      })
      .returning({ id: scheduleRequests.id });
    if (!row) throw new Error("schedule request not inserted");
    await audit(tx, access, "schedule_request.create", row.id, null, { staffId, ...input }, now);
    return row;
  });
}

/** The stylist withdraws their own pending request (another stylist's: 404). */
export async function withdrawScheduleRequest(
  db: Database,
  access: SalonAccess,
  requestId: string,
  version: number,
  now: Date,
) {
  if (!access.staffId) throw new NotFoundError();
  const staffId = access.staffId;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const row = await lockRequest(tx, access.salon.id, requestId, staffId);
    if (row.status !== "pending" || row.version !== version) throw stale();
    await setStatus(tx, row.id, "withdrawn", null);
    await audit(
      tx,
      access,
      "schedule_request.withdraw",
      row.id,
      { status: row.status },
      { status: "withdrawn" },
      now,
    );
  });
}

/**
 * A manager approves: the exception is added by the editor's writer (the
 * stranding check refuses a change that strands bookings unless
 * `options.allowStranding`), the request becomes approved, one transaction.
 */
export async function approveScheduleRequest(
  db: Database,
  access: SalonAccess,
  requestId: string,
  version: number,
  options: StrandingOptions,
  now: Date,
) {
  // A deadlock with a booking of the salon is run again from the start (issue 38, §4.1).
  await retryTransaction(() =>
    db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const row = await lockRequest(tx, access.salon.id, requestId, null);
      if (row.status !== "pending" || row.version !== version) throw stale();
      // The salon's version as it is now: the request's own version is the check here.
      // NO KEY UPDATE, as the version bump's own UPDATE takes: FOR UPDATE would
      // also stop the KEY SHARE a booking's insert takes on its salon, and a
      // booking that holds its stylist (FOR SHARE) while this waits for that
      // stylist (guardStranding) deadlocked with it (issue 38, §4.1: 40P01).
      const [salon] = await tx
        .select({ version: salons.version })
        .from(salons)
        .where(eq(salons.id, access.salon.id))
        .for("no key update");
      if (!salon) throw new NotFoundError();
      const exception = await addStaffException(
        tx,
        {
          salonId: access.salon.id,
          version: salon.version,
          actor: { id: access.user.id },
          now,
          timeZone: access.salon.timeZone,
        },
        row.staffId,
        {
          date: row.date,
          kind: row.kind,
          startsAt: row.startsAt ?? null,
          endsAt: row.endsAt ?? null,
          note: row.note,
        },
        options,
      );
      await setStatus(tx, row.id, "approved", { by: access.user.id, at: now, note: "" });
      await audit(
        tx,
        access,
        "schedule_request.approve",
        row.id,
        { status: row.status },
        { status: "approved", exceptionId: exception?.id ?? null },
        now,
      );
    }),
  );
}

/** A manager declines, with an optional note the stylist sees. */
export async function declineScheduleRequest(
  db: Database,
  access: SalonAccess,
  requestId: string,
  version: number,
  note: string,
  now: Date,
) {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const row = await lockRequest(tx, access.salon.id, requestId, null);
    if (row.status !== "pending" || row.version !== version) throw stale();
    await setStatus(tx, row.id, "declined", { by: access.user.id, at: now, note });
    await audit(
      tx,
      access,
      "schedule_request.decline",
      row.id,
      { status: row.status },
      { status: "declined", decisionNote: note },
      now,
    );
  });
}

// ── The forms ──────────────────────────────────────────────────────────

export type RequestFormResult =
  | { ok: true; done: string; stranded: StrandedBooking[] }
  | {
      ok: false;
      form: string;
      errors: Record<string, string>;
      values: Record<string, string>;
      status: number;
      stranded?: StrandedBooking[];
    };

const requestFields = ["date", "kind", "startsAt", "endsAt", "note"] as const;

async function attempt(
  name: string,
  values: Record<string, string>,
  write: () => Promise<unknown>,
  done: string,
  stranded: StrandedBooking[] = [],
): Promise<RequestFormResult> {
  try {
    await write();
    return { ok: true, done, stranded };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return {
      ok: false,
      form: name,
      values,
      errors: { form: error.message },
      status: error.status,
      ...(error instanceof StrandedBookingsError ? { stranded: error.bookings } : {}),
    };
  }
}

function requestVersion(form: FormData) {
  return versionField.safeParse(form.get("requestVersion") ?? "");
}

/** POST /owner/salons/{id}/schedules/mine: ask (intent request-create) or withdraw. */
export async function submitOwnRequestForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<RequestFormResult> {
  const intent = String(form.get("intent") ?? "").slice(0, 50);
  if (intent === "request-create") {
    const values = fieldsOf(form, requestFields) as Record<string, string>;
    const parsed = parseScheduleRequest(values);
    if (!parsed.success) {
      return { ok: false, form: "request", values, errors: parsed.errors, status: 400 };
    }
    return attempt(
      "request",
      values,
      () => createScheduleRequest(db, access, parsed.data, now),
      "request-created",
    );
  }
  if (intent === "request-withdraw") {
    const requestId = String(form.get("requestId") ?? "").slice(0, 100);
    const values = { requestId };
    const version = requestVersion(form);
    if (!version.success) {
      return {
        ok: false,
        form: `request:${requestId}`,
        values,
        errors: { form: version.error.issues[0]?.message ?? "" },
        status: 400,
      };
    }
    return attempt(
      `request:${requestId}`,
      values,
      () => withdrawScheduleRequest(db, access, requestId, version.data, now),
      "request-withdrawn",
    );
  }
  return {
    ok: false,
    form: "page",
    values: {},
    errors: { form: "操作の指定が正しくありません。画面を読み込み直してください。" },
    status: 400,
  };
}

/** The managers' buttons on /owner/salons/{id}/schedules: approve (with force) or decline. */
export async function submitManagerRequestForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  intent: "request-approve" | "request-decline",
  now: Date,
): Promise<RequestFormResult> {
  const requestId = String(form.get("requestId") ?? "").slice(0, 100);
  const name = `request:${requestId}`;
  const force = form.get("force") === "on";
  const values: Record<string, string> = {
    requestId,
    decisionNote: String(form.get("decisionNote") ?? "").slice(0, 1000),
    ...(force ? { force: "on" } : {}),
  };
  const version = requestVersion(form);
  if (!version.success) {
    return {
      ok: false,
      form: name,
      values,
      errors: { form: version.error.issues[0]?.message ?? "" },
      status: 400,
    };
  }
  if (intent === "request-decline") {
    const note = decisionNote.safeParse(values.decisionNote);
    if (!note.success) {
      return {
        ok: false,
        form: name,
        values,
        errors: { decisionNote: note.error.issues[0]?.message ?? "" },
        status: 400,
      };
    }
    return attempt(
      name,
      values,
      () => declineScheduleRequest(db, access, requestId, version.data, note.data, now),
      "request-declined",
    );
  }
  const stranded: StrandedBooking[] = [];
  return attempt(
    name,
    values,
    () =>
      approveScheduleRequest(
        db,
        access,
        requestId,
        version.data,
        { allowStranding: force, onStranded: (list) => stranded.push(...list) },
        now,
      ),
    "request-approved",
    stranded,
  );
}
