import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { addDays } from "../../common/local-time";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { staffSchedules } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { recordPartAudit } from "./salon-part-rows.server";
import type { ScheduleInput, ScheduleInterval } from "./salon-parts.schema";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";
import { memberOf } from "./salon-staff.server";
import { guardStranding, type StrandingOptions } from "./schedule-stranding.server";

/**
 * A stylist's weekly patterns (decision 0018): the schedule rows sharing
 * one validity (valid_from, valid_until), saved and deleted as a whole.
 */

/** A weekly pattern is the rows sharing one validity; this names it in forms and URLs. */
export const patternKey = (validFrom: string | null, validUntil: string | null) =>
  `${validFrom ?? ""}~${validUntil ?? ""}`;

type ScheduleRow = ScheduleInterval & { validFrom: string | null; validUntil: string | null };

export type SchedulePattern = {
  key: string;
  validFrom: string | null;
  validUntil: string | null;
  intervals: ScheduleInterval[];
};

export function groupPatterns(rows: readonly ScheduleRow[]): SchedulePattern[] {
  const patterns = new Map<string, SchedulePattern>();
  for (const row of rows) {
    const key = patternKey(row.validFrom, row.validUntil);
    const pattern = patterns.get(key) ?? {
      key,
      validFrom: row.validFrom,
      validUntil: row.validUntil,
      intervals: [],
    };
    pattern.intervals.push({ weekday: row.weekday, startsAt: row.startsAt, endsAt: row.endsAt });
    patterns.set(key, pattern);
  }
  return [...patterns.values()];
}

const overlaps = (
  a: { validFrom: string | null; validUntil: string | null },
  b: { validFrom: string | null; validUntil: string | null },
) =>
  (a.validUntil === null || b.validFrom === null || b.validFrom <= a.validUntil) &&
  (b.validUntil === null || a.validFrom === null || a.validFrom <= b.validUntil);

const rangeLabel = (p: { validFrom: string | null; validUntil: string | null }) =>
  `${p.validFrom ?? "開始日なし"}〜${p.validUntil ?? "終了日なし"}`;

/** One stylist's bookings, checked by the one stranding check (decision 0046). */
export const strandingScope = (edit: SalonPartEdit, staffId: string) => ({
  salonId: edit.salonId,
  staffId,
  now: edit.now,
  actorUserId: edit.actor.id,
});

const patternView = (p: SchedulePattern | null) =>
  p ? { validFrom: p.validFrom, validUntil: p.validUntil, intervals: p.intervals } : null;

/**
 * Saves one weekly pattern of a stylist. `key` names the pattern edited
 * ("new" for a new one). A new pattern starting on a date ends the pattern
 * running then on the day before (a new shift pattern from next month);
 * any other overlap of validity with another pattern is refused, so one
 * date never has two patterns to add up.
 */
export async function saveSchedule(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  key: string,
  input: ScheduleInput,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const scope = strandingScope(edit, member.id);
    const { result } = await guardStranding(tx, scope, options, async () => {
      const rows = await tx
        .select({
          id: staffSchedules.id,
          weekday: staffSchedules.weekday,
          startsAt: localTime(staffSchedules.startsAt),
          endsAt: localTime(staffSchedules.endsAt),
          validFrom: staffSchedules.validFrom,
          validUntil: staffSchedules.validUntil,
        })
        .from(staffSchedules)
        .where(and(eq(staffSchedules.salonId, edit.salonId), eq(staffSchedules.staffId, member.id)))
        .orderBy(asc(staffSchedules.weekday), asc(staffSchedules.startsAt));
      const patterns = groupPatterns(rows);
      const old = key === "new" ? null : (patterns.find((p) => p.key === key) ?? null);
      if (key !== "new" && !old) {
        throw new DomainError(
          "pattern_not_found",
          "この勤務パターンは見つかりません。ほかの管理者が変更した可能性があります。一覧を確認してください。",
          409,
        );
      }
      const ended: { from: string; until: string }[] = [];
      for (const other of patterns) {
        if (other.key === old?.key || !overlaps(other, input)) continue;
        const startsBefore =
          input.validFrom !== null &&
          (other.validFrom === null || other.validFrom < input.validFrom);
        if (key === "new" && startsBefore && input.validFrom) {
          const until = addDays(input.validFrom, -1);
          await tx
            .update(staffSchedules)
            .set({ validUntil: until })
            .where(
              and(
                eq(staffSchedules.staffId, member.id),
                other.validFrom === null
                  ? isNull(staffSchedules.validFrom)
                  : eq(staffSchedules.validFrom, other.validFrom),
                other.validUntil === null
                  ? isNull(staffSchedules.validUntil)
                  : eq(staffSchedules.validUntil, other.validUntil),
              ),
            );
          ended.push({ from: rangeLabel(other), until });
          continue;
        }
        throw new DomainError(
          "pattern_overlap",
          `適用期間がほかの勤務パターン（${rangeLabel(other)}）と重なっています。適用開始日・終了日を見直してください。`,
          409,
        );
      }
      if (old) {
        await tx.delete(staffSchedules).where(
          inArray(
            staffSchedules.id,
            rows.filter((r) => patternKey(r.validFrom, r.validUntil) === old.key).map((r) => r.id),
          ),
        );
      }
      await tx.insert(staffSchedules).values(
        input.intervals.map((interval) => ({
          salonId: edit.salonId,
          staffId: member.id,
          ...interval,
          validFrom: input.validFrom,
          validUntil: input.validUntil,
        })),
      );
      await recordPartAudit(tx, edit, {
        action: "staff.schedule_save",
        targetType: "staff",
        targetId: member.id,
        before: patternView(old),
        after: {
          validFrom: input.validFrom,
          validUntil: input.validUntil,
          intervals: input.intervals,
          ...(ended.length > 0 ? { endedPatterns: ended } : {}),
        },
      });
      return patternKey(input.validFrom, input.validUntil);
    });
    return result;
  });
}

export async function deleteSchedule(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  key: string,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    await guardStranding(tx, strandingScope(edit, member.id), options, async () => {
      const [from = "", until = ""] = key.split("~");
      const removed = await tx
        .delete(staffSchedules)
        .where(
          and(
            eq(staffSchedules.salonId, edit.salonId),
            eq(staffSchedules.staffId, member.id),
            from === "" ? isNull(staffSchedules.validFrom) : eq(staffSchedules.validFrom, from),
            until === "" ? isNull(staffSchedules.validUntil) : eq(staffSchedules.validUntil, until),
          ),
        )
        .returning({
          weekday: staffSchedules.weekday,
          startsAt: localTime(staffSchedules.startsAt),
          endsAt: localTime(staffSchedules.endsAt),
        });
      if (removed.length === 0) {
        throw new DomainError(
          "pattern_not_found",
          "この勤務パターンは見つかりません。ほかの管理者が変更した可能性があります。一覧を確認してください。",
          409,
        );
      }
      await recordPartAudit(tx, edit, {
        action: "staff.schedule_delete",
        targetType: "staff",
        targetId: member.id,
        before: { validFrom: from || null, validUntil: until || null, intervals: removed },
        after: null,
      });
    });
  });
}
