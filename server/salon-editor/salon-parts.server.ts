import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { retryTransaction } from "../db/retry";
import { salons } from "../db/schema";
import { sqlState } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { recomputeSalonDerived } from "../salons/derived.server";
import { bumpSalonVersion, SalonVersionConflictError } from "./salon-editor.server";
import { type StrandedBooking, StrandedBookingsError } from "./schedule-stranding.server";

/**
 * What the スタッフ, メニュー and クーポン tabs of the salon editor share
 * (issue 16, point 4; decision 0018): one transaction per save that checks
 * and bumps the salon's version, makes the change with its audit entry, and
 * recomputes the salon's derived columns, all or nothing.
 */

export type SalonPartEdit = {
  salonId: string;
  /** The salon version the form was loaded with. */
  version: number;
  actor: { id: string };
  now: Date;
};

/** A save's transaction, typed as the database (Drizzle's transaction has the same query API). */
export async function editSalonPart<T>(
  db: Database,
  edit: SalonPartEdit,
  change: (tx: Database) => Promise<T>,
  options: { affectsFreeTime?: boolean } = { affectsFreeTime: true },
): Promise<T> {
  try {
    // A deadlock with a booking of the salon (or another save) is run again from the start.
    return await retryTransaction(() =>
      db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        // First: the row lock it takes makes a second editor wait here, then fail the check.
        await bumpSalonVersion(tx, edit.salonId, edit.version);
        const result = await change(tx);
        // Staff, schedules and menus change when the salon is free (search's 空席 summary).
        await recomputeSalonDerived(
          tx,
          edit.salonId,
          options.affectsFreeTime ? { refreshFreeDaysAt: edit.now } : {},
        );
        return result;
      }),
    );
  } catch (error) {
    throw partError(error);
  }
}

/** A database refusal as a Japanese 4xx; anything else stays what it was. */
function partError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  switch (sqlState(error)) {
    case "23P01":
      return new DomainError(
        "schedule_overlap",
        "勤務時間がほかの勤務パターンと重なっています。期間か時間を見直してください。",
        409,
      );
    case "23503":
      return new DomainError(
        "in_use",
        "予約などで使われているため削除できません。代わりに掲載をやめてください。",
        409,
      );
    case "23505":
      return new DomainError(
        "duplicate",
        "同じ内容がすでに登録されています。一覧を確認してください。",
        409,
      );
    case "23514":
    case "22007":
    case "22008":
    case "22P02":
      return new DomainError("invalid", "入力内容を確認してください。", 400);
    default:
      return error;
  }
}

/** The salon's time zone (dates of exceptions and coupons are its local dates). */
export async function salonTimeZone(db: Database, salonId: string) {
  const [row] = await db
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, salonId));
  return row?.timeZone ?? "Asia/Tokyo";
}

/** A form's fields as typed: text fields as strings, list fields (checkboxes) as arrays. */
export function fieldsOf(form: FormData, text: readonly string[], lists: readonly string[] = []) {
  const values: Record<string, string | string[]> = {};
  for (const key of text) {
    const value = form.get(key);
    values[key] = typeof value === "string" ? value.slice(0, 5000) : "";
  }
  for (const key of lists) {
    values[key] = form
      .getAll(key)
      .filter((value): value is string => typeof value === "string")
      .slice(0, 500)
      .map((value) => value.slice(0, 100));
  }
  return values;
}

/** What a tab's action answers: done (the page redirects) or refused (the form is shown again). */
export type PartResult =
  | { ok: true; done: string; query?: Record<string, string> }
  | {
      ok: false;
      /** Which form of the page the errors belong to. */
      form: string;
      errors: Record<string, string>;
      values: Record<string, string | string[]>;
      status: number;
      /**
       * Another save came first (decision 0017): the page keeps the version it
       * was loaded with, so saving again is refused until the latest is opened.
       */
      conflict?: boolean;
      /** With a conflict: the version the refused form was loaded with. */
      version?: number;
      /** A schedule change refused for these bookings (decision 0046), linked on the page. */
      stranded?: StrandedBooking[];
    };

export function refused(
  form: string,
  values: Record<string, string | string[]>,
  errors: Record<string, string | undefined>,
  status = 400,
): PartResult {
  const clean: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) if (message) clean[key] = message;
  return { ok: false, form, errors: clean, values, status };
}

/** A DomainError becomes the form's message; anything else is a real failure and goes on. */
export function refusedBy(
  error: unknown,
  form: string,
  values: Record<string, string | string[]>,
): PartResult {
  if (!(error instanceof DomainError)) throw error;
  return {
    ok: false,
    form,
    values,
    errors: { form: error.message },
    status: error.status,
    ...(error instanceof SalonVersionConflictError ? { conflict: true } : {}),
    ...(error instanceof StrandedBookingsError ? { stranded: error.bookings } : {}),
  };
}
