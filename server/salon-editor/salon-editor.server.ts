import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "../../common/uuid";
import { notifyPublicPagesChanged } from "../cache/invalidation";
import type { Database } from "../db/client";
import { salons } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";

/**
 * What every tab of the admin salon editor (/admin/salons/edit/:id and its
 * staff, menus, coupons and photos tabs) shares: finding the salon from the
 * URL and the optimistic-concurrency version (salons.version).
 */

/** The administrator making an edit (the audit entry's actor). */
export type AdminActor = { id: string };

/** The salon an editor tab is about; a malformed or unknown id is the 404 screen. */
export async function findSalonForEditor(db: Database, idParam: string) {
  if (!isUuid(idParam)) throw new NotFoundError();
  const [salon] = await db
    .select({
      id: salons.id,
      name: salons.name,
      slug: salons.slug,
      status: salons.status,
      version: salons.version,
    })
    .from(salons)
    .where(eq(salons.id, idParam.toLowerCase()));
  if (!salon) throw new NotFoundError();
  return salon;
}
export type EditorSalon = Awaited<ReturnType<typeof findSalonForEditor>>;

/** Another administrator saved the salon after this form was loaded. */
export class SalonVersionConflictError extends DomainError {
  constructor() {
    super(
      "salon_version_conflict",
      "他の管理者がこのサロンを更新しました。最新の内容を確認してから保存してください。",
      409,
    );
  }
}

/**
 * Claims the edit: bumps salons.version from `expectedVersion` (the one the
 * form loaded) and returns the new version. Call it first in the edit's
 * transaction, on any tab: the row lock it takes makes a second save of the
 * same salon wait, then find the version changed and be refused.
 *
 * Every admin edit of a salon passes here (基本情報, status, delete, staff,
 * menus, coupons, photos), so this is also where every app server is told to
 * drop its page micro-cache: the NOTIFY is part of the edit's transaction,
 * delivered when it commits and never when it rolls back (decision 0007).
 */
export async function bumpSalonVersion(
  tx: Database,
  salonId: string,
  expectedVersion: number,
): Promise<number> {
  const [row] = await tx
    .update(salons)
    .set({ version: sql`${salons.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(salons.id, salonId), eq(salons.version, expectedVersion)))
    .returning({ version: salons.version });
  if (row) {
    await notifyPublicPagesChanged(tx);
    return row.version;
  }
  const [exists] = await tx.select({ id: salons.id }).from(salons).where(eq(salons.id, salonId));
  if (!exists) throw new NotFoundError();
  throw new SalonVersionConflictError();
}
