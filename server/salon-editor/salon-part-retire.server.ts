import { count, eq, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { AuditAction } from "../audit/audit";
import { changedFields } from "../audit/audit";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import {
  findPartRow,
  type PartRow,
  type PartTable,
  recordPartAudit,
} from "./salon-part-rows.server";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";

/**
 * Retiring and deleting a stylist, a menu or a coupon (decision 0018), one
 * step for the three. Retiring writes the columns every public and booking
 * reader filters on (staff.active, menus.published, a coupon's validity),
 * so the row leaves the salon page and booking while bookings keep it;
 * deleting is refused while anything still names the row (a booking, a
 * coupon's menus), and otherwise removes it. Either is audited, inside
 * editSalonPart: version check first, derived columns last.
 */

/** How one kind of row is retired and deleted. */
export type RetirablePart<T extends PartTable> = {
  table: T;
  /** Its name in a 404: 「スタッフが見つかりません。」 */
  label: string;
  targetType: "staff" | "menu" | "coupon";
  actions: { retire: AuditAction; reinstate?: AuditAction; delete: AuditAction };
  /** Whether the salon's free days change with it (coupons: no). */
  affectsFreeTime: boolean;
  /** What may still name a row, checked in this order; the first found refuses the delete. */
  references: readonly PartReference<PartRow<T>>[];
  /** The delete's audit "before", read before the row's links are deleted with it. */
  deletedView: (tx: Database, row: PartRow<T>) => Promise<Record<string, unknown>>;
};

export type PartReference<R> = {
  /** The rows that may name it, and the condition that they do. */
  table: PgTable;
  where: (salonId: string, row: R) => SQL | undefined;
  /** The refusal (409): why, and what to do instead. */
  code: string;
  message: (row: R) => string;
};

/**
 * What to do: delete, or retire (reinstate) by writing `columns`, which
 * answers null when the row already is so (nothing written, nothing audited).
 */
export type PartEnding<R> =
  | { action: "delete" }
  | { action: "retire" | "reinstate"; columns: (row: R) => Partial<R> | null };

export async function retireOrDelete<T extends PartTable>(
  db: Database,
  edit: SalonPartEdit,
  part: RetirablePart<T>,
  id: string,
  ending: PartEnding<PartRow<T>>,
): Promise<PartRow<T>> {
  return editSalonPart(
    db,
    edit,
    async (tx) => {
      const row = await findPartRow(tx, part, edit.salonId, id);
      if (ending.action === "delete") await deleteRow(tx, edit, part, row);
      else await retireRow(tx, edit, part, row, ending);
      return row;
    },
    { affectsFreeTime: part.affectsFreeTime },
  );
}

async function retireRow<T extends PartTable>(
  tx: Database,
  edit: SalonPartEdit,
  part: RetirablePart<T>,
  row: PartRow<T>,
  ending: Extract<PartEnding<PartRow<T>>, { action: "retire" | "reinstate" }>,
) {
  const columns = ending.columns(row);
  if (!columns) return;
  const action = part.actions[ending.action];
  if (!action) throw new Error(`${part.targetType} cannot be reinstated`);
  const table: PartTable = part.table;
  await tx.update(table).set(columns).where(eq(table.id, row.id));
  const was = Object.fromEntries(
    Object.keys(columns).map((key) => [key, row[key as keyof typeof row]]),
  );
  const changes = changedFields(was, columns);
  await recordPartAudit(tx, edit, {
    action,
    targetType: part.targetType,
    targetId: row.id,
    before: changes?.before ?? null,
    after: changes?.after ?? null,
  });
}

async function deleteRow<T extends PartTable>(
  tx: Database,
  edit: SalonPartEdit,
  part: RetirablePart<T>,
  row: PartRow<T>,
) {
  for (const reference of part.references) {
    const [named] = await tx
      .select({ n: count() })
      .from(reference.table)
      .where(reference.where(edit.salonId, row));
    if ((named?.n ?? 0) > 0) {
      throw new DomainError(reference.code, reference.message(row), 409);
    }
  }
  const before = await part.deletedView(tx, row);
  const table: PartTable = part.table;
  await tx.delete(table).where(eq(table.id, row.id));
  await recordPartAudit(tx, edit, {
    action: part.actions.delete,
    targetType: part.targetType,
    targetId: row.id,
    before,
    after: null,
  });
}
