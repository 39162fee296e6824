import { and, asc, eq } from "drizzle-orm";
import { isUuid } from "../../common/uuid";
import { type AuditEntry, recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import type { coupons, menus, staff } from "../db/schema";
import { NotFoundError } from "../errors/domain-error";
import { editSalonPart, type SalonPartEdit } from "./salon-parts.server";

/**
 * Steps the スタッフ, メニュー and クーポン tabs repeat (decision 0018):
 * finding the row a form names and writing the audit entry, inside a save's
 * transaction (editSalonPart), and moving a stylist or menu in the salon's
 * order, a save of its own.
 */

/** The tables of the rows the tabs edit one by one. */
export type PartTable = typeof staff | typeof menus | typeof coupons;
export type PartRow<T extends PartTable> = T["$inferSelect"];

/**
 * The stylist, menu or coupon `id` of this salon, or 404 named by `label`
 * (スタッフ, メニュー, クーポン): also for a malformed id or one of another
 * salon, so a form cannot reach another salon's rows.
 */
export async function findPartRow<T extends PartTable>(
  tx: Database,
  part: { table: T; label: string },
  salonId: string,
  id: string,
): Promise<PartRow<T>> {
  if (!isUuid(id)) throw new NotFoundError(`${part.label}が見つかりません。`);
  const table: PartTable = part.table;
  const [row] = await tx
    .select()
    .from(table)
    .where(and(eq(table.id, id.toLowerCase()), eq(table.salonId, salonId)));
  if (!row) {
    throw new NotFoundError(
      `${part.label}が見つかりません。ほかの管理者が削除した可能性があります。一覧を確認してください。`,
    );
  }
  return row as PartRow<T>;
}

/** The audit entry of a save: by the edit's admin, about its salon, at its time. */
export function recordPartAudit(
  tx: Database,
  edit: SalonPartEdit,
  entry: Omit<AuditEntry, "actorUserId" | "salonId">,
) {
  return recordAudit(tx, { actorUserId: edit.actor.id, salonId: edit.salonId, ...entry }, edit.now);
}

/** The lists a salon orders by hand with up/down buttons (sort_order), and their audit actions. */
const reorderActions = { staff: "staff.reorder", menu: "menu.reorder" } as const;

/**
 * Moves one stylist or menu a place up or down in its salon's list, in a
 * save of its own, and audits it with positions from 1 (nothing is written
 * at either end). The whole list is renumbered 0…n-1, so equal sort orders
 * left by imports stop mattering; the staff order is also 指名なし's
 * tie-break.
 */
export function moveInSalonOrder<T extends typeof staff | typeof menus>(
  db: Database,
  edit: SalonPartEdit,
  part: { table: T; label: string; targetType: keyof typeof reorderActions },
  id: string,
  direction: "up" | "down",
): Promise<PartRow<T>> {
  return editSalonPart(db, edit, async (tx) => {
    const row = await findPartRow(tx, part, edit.salonId, id);
    const table: typeof staff | typeof menus = part.table;
    const order = await tx
      .select({ id: table.id, sortOrder: table.sortOrder })
      .from(table)
      .where(eq(table.salonId, edit.salonId))
      .orderBy(asc(table.sortOrder), asc(table.id));
    const moved = await renumber(order, row.id, direction, async (rowId, sortOrder) => {
      await tx.update(table).set({ sortOrder }).where(eq(table.id, rowId));
    });
    if (moved) {
      await recordPartAudit(tx, edit, {
        action: reorderActions[part.targetType],
        targetType: part.targetType,
        targetId: row.id,
        before: { position: moved.from + 1 },
        after: { position: moved.to + 1 },
      });
    }
    return row;
  });
}

/** Swaps `id` with its neighbour and writes every position that changed; null at either end. */
async function renumber(
  order: { id: string; sortOrder: number }[],
  id: string,
  direction: "up" | "down",
  write: (id: string, sortOrder: number) => Promise<void>,
) {
  const ids = order.map((row) => row.id);
  const from = ids.indexOf(id);
  const to = direction === "up" ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return null;
  [ids[from], ids[to]] = [ids[to] as string, ids[from] as string];
  for (const [index, rowId] of ids.entries()) {
    if (order.find((row) => row.id === rowId)?.sortOrder !== index) await write(rowId, index);
  }
  return { from, to };
}
