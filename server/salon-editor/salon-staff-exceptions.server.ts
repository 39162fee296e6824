import { and, eq } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { scheduleExceptions } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { recordPartAudit } from "./salon-part-rows.server";
import type { StaffExceptionInput } from "./salon-parts.schema";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";
import { memberOf } from "./salon-staff.server";
import { strandingScope } from "./salon-staff-schedules.server";
import { guardStranding, type StrandingOptions } from "./schedule-stranding.server";

/**
 * A stylist's dated exceptions (休み, 勤務時間の変更, 臨時出勤), added from
 * today on and deleted one by one.
 */

/**
 * Adds a dated exception (a day off, other hours, an extra working day).
 * A day off excludes other rows of the same date; rows of other hours on
 * one date add up (the engine's rule), so they must not overlap.
 */
export async function addStaffException(
  db: Database,
  edit: SalonPartEdit & { timeZone: string },
  staffId: string,
  input: StaffExceptionInput,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const { result } = await guardStranding(
      tx,
      strandingScope(edit, member.id),
      options,
      async () => {
        const today = toLocal(edit.now, edit.timeZone).date;
        if (input.date < today) {
          throw new DomainError("date_past", "日付は今日以降の日付を入力してください。", 400);
        }
        const sameDay = await tx
          .select({
            kind: scheduleExceptions.kind,
            startsAt: localTime(scheduleExceptions.startsAt),
            endsAt: localTime(scheduleExceptions.endsAt),
          })
          .from(scheduleExceptions)
          .where(
            and(
              eq(scheduleExceptions.salonId, edit.salonId),
              eq(scheduleExceptions.staffId, member.id),
              eq(scheduleExceptions.date, input.date),
            ),
          );
        if (
          sameDay.length > 0 &&
          (input.kind === "closed" || sameDay.some((e) => e.kind === "closed"))
        ) {
          throw new DomainError(
            "exception_conflict",
            "この日にはすでに例外が登録されています。休みにする場合は、先にその日の登録を削除してください。",
            409,
          );
        }
        if (
          input.startsAt &&
          input.endsAt &&
          sameDay.some(
            (e) =>
              e.startsAt &&
              e.endsAt &&
              e.startsAt < (input.endsAt ?? "") &&
              (input.startsAt ?? "") < e.endsAt,
          )
        ) {
          throw new DomainError(
            "exception_overlap",
            "この日の登録済みの時間と重なっています。時間を見直してください。",
            409,
          );
        }
        const [row] = await tx
          .insert(scheduleExceptions)
          .values({
            salonId: edit.salonId,
            staffId: member.id,
            date: input.date,
            kind: input.kind,
            startsAt: input.startsAt,
            endsAt: input.endsAt,
            note: input.note,
          })
          .returning({ id: scheduleExceptions.id });
        await recordPartAudit(tx, edit, {
          action: "staff.exception_add",
          targetType: "staff",
          targetId: member.id,
          before: null,
          after: { exceptionId: row?.id, ...input },
        });
        return row;
      },
    );
    return result;
  });
}

export async function deleteStaffException(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  exceptionId: string,
  options: StrandingOptions = {},
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    await guardStranding(tx, strandingScope(edit, member.id), options, async () => {
      const [removed] = isUuid(exceptionId)
        ? await tx
            .delete(scheduleExceptions)
            .where(
              and(
                eq(scheduleExceptions.id, exceptionId.toLowerCase()),
                eq(scheduleExceptions.salonId, edit.salonId),
                eq(scheduleExceptions.staffId, member.id),
              ),
            )
            .returning({
              date: scheduleExceptions.date,
              kind: scheduleExceptions.kind,
              startsAt: localTime(scheduleExceptions.startsAt),
              endsAt: localTime(scheduleExceptions.endsAt),
              note: scheduleExceptions.note,
            })
        : [];
      if (!removed) {
        throw new DomainError(
          "exception_not_found",
          "この例外はすでに削除されています。一覧を確認してください。",
          409,
        );
      }
      await recordPartAudit(tx, edit, {
        action: "staff.exception_delete",
        targetType: "staff",
        targetId: member.id,
        before: { exceptionId, ...removed },
        after: null,
      });
    });
  });
}
