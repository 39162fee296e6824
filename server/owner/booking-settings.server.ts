import { eq } from "drizzle-orm";
import type { BookingRuleField } from "../../common/booking-rules-fields";
import type { Database } from "../db/client";
import { retryTransaction } from "../db/retry";
import { salons } from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";
import {
  type BookingRulesErrors,
  bookingRulesFormValues,
  bookingRulesValues,
  parseBookingRules,
} from "../salon-editor/booking-rules";
import {
  auditBookingRules,
  readBookingRules,
  writeBookingRules,
} from "../salon-editor/booking-rules.server";
import { bumpSalonVersion, SalonVersionConflictError } from "../salon-editor/salon-editor.server";
import {
  guardStranding,
  type StrandedBooking,
  StrandedBookingsError,
} from "../salon-editor/schedule-stranding.server";
import { recomputeSalonDerived } from "../salons/derived.server";

/**
 * The booking rules on the owner's 設定 page (issue 29, point 4; decision
 * 0048): the same fields, checks, audit entry and optimistic concurrency
 * (salons.version, shared with every tab of the admin editor) as the admin
 * 基本情報 tab, whose rules are written by the same booking-rules.server.ts.
 */

export type BookingRulesForm = {
  values: Record<BookingRuleField, string>;
  /** The salon's version the form was loaded with. */
  version: number;
};

export type BookingRulesSaveResult =
  /** `stranded`: bookings the owner chose to leave outside working time, to move or cancel. */
  | { ok: true; changed: string[]; stranded: StrandedBooking[] }
  | {
      ok: false;
      status: 400 | 409;
      errors: BookingRulesErrors;
      form: BookingRulesForm;
      /** The change would strand bookings: the form offers 「予約が残っていても変更する」. */
      stranding: boolean;
    };

/** The form as stored now. */
export async function bookingRulesForm(db: Database, salonId: string): Promise<BookingRulesForm> {
  const [rules, [salon]] = await Promise.all([
    readBookingRules(db, salonId),
    db.select({ version: salons.version }).from(salons).where(eq(salons.id, salonId)),
  ]);
  return { values: bookingRulesValues(rules), version: salon?.version ?? 0 };
}

export const conflictMessage =
  "ほかの人がこのサロンを更新しました。最新の内容を確認してから保存してください。";

/**
 * Validates and saves at once: the version claimed first (a second save of
 * the same version waits on the row lock, then is refused), the rules
 * written, the salon's derived data and free-time summary refreshed as the
 * admin editor does, and an audit entry of the changed fields with who.
 */
export async function saveBookingRules(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<BookingRulesSaveResult> {
  const values = bookingRulesFormValues(form);
  const versionText = String(form.get("version") ?? "");
  const version = /^\d{1,9}$/.test(versionText) ? Number(versionText) : -1;
  const typed = { values, version };
  const refused = (status: 400 | 409, errors: BookingRulesErrors, stranding = false) => ({
    ok: false as const,
    status,
    errors,
    form: typed,
    stranding,
  });
  const parsed = parseBookingRules(values);
  if (!parsed.ok) return refused(400, parsed.errors);
  if (version < 0) return refused(400, { form: "画面を読み込み直してから保存してください。" });
  const salonId = access.salon.id;
  try {
    // A deadlock with a booking of the salon is run again from the start (issue 38, §4.1).
    return await retryTransaction(() =>
      db.transaction(async (tx) => {
        await bumpSalonVersion(tx, salonId, version);
        // 祝日は休業する closes days: the one stranding check of decision 0046, as on the admin tab.
        const { result: changes, stranded } = await guardStranding(
          tx,
          { salonId, staffId: null, now, actorUserId: access.user.id },
          { allowStranding: form.get("allowStranding") === "on" },
          () => writeBookingRules(tx, salonId, parsed.rules),
        );
        if (!changes) return { ok: true as const, changed: [], stranded };
        await recomputeSalonDerived(tx, salonId, { refreshFreeDaysAt: now });
        await auditBookingRules(tx, salonId, changes, access.user.id, now);
        return { ok: true as const, changed: Object.keys(changes.after), stranded };
      }),
    );
  } catch (error) {
    if (error instanceof SalonVersionConflictError) return refused(409, { form: conflictMessage });
    if (error instanceof StrandedBookingsError) {
      return refused(409, { closedOnPublicHolidays: error.message }, true);
    }
    throw error;
  }
}
