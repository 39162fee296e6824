import { and, count, eq } from "drizzle-orm";
import { type AuditAction, recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { menus, salons, staff } from "../db/schema";
import type { SalonStatus } from "../db/schema/salons";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { recomputeSalonDerived } from "../salons/derived.server";
import { readSalon } from "./salon-basic-info-read.server";
import { type AdminActor, bumpSalonVersion } from "./salon-editor.server";

/**
 * A salon's life cycle (decision 0017): publish (when a visitor would miss
 * nothing), suspend, or take back to draft, audited.
 */

/** Publishing refused: what a visitor would miss, in Japanese. */
export class PublishRequirementsError extends DomainError {
  constructor(readonly missing: string[]) {
    super("salon_publish_incomplete", `公開に必要な情報が足りません：${missing.join("、")}`, 422, {
      missing,
    });
  }
}

/**
 * What a visitor needs before the salon may be published (issue 16,
 * point 4), as Japanese labels; empty when it may be.
 */
export async function publishRequirements(db: Database, salonId: string): Promise<string[]> {
  const stored = await readSalon(db, salonId, null);
  const [menuCount] = await db
    .select({ n: count() })
    .from(menus)
    .where(and(eq(menus.salonId, salonId), eq(menus.published, true)));
  const [staffCount] = await db
    .select({ n: count() })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.active, true)));
  const missing: string[] = [];
  if (!stored.salon.name.trim()) missing.push("サロン名");
  if (!stored.salon.areaId) missing.push("エリア");
  if (!stored.addressLine.trim()) missing.push("住所（市区町村・番地）");
  if (stored.hours.length === 0) missing.push("営業時間");
  if ((menuCount?.n ?? 0) === 0) missing.push("公開中のメニュー（1件以上）");
  if ((staffCount?.n ?? 0) === 0) missing.push("在籍中のスタッフ（1名以上）");
  return missing;
}

const statusActions: Record<SalonStatus, AuditAction> = {
  published: "salon.publish",
  suspended: "salon.suspend",
  draft: "salon.unpublish",
};

/**
 * Publish, suspend or take back to draft. Publishing checks
 * publishRequirements; suspending hides the salon from search and its page
 * (both read only published salons) and keeps its bookings.
 */
export async function changeSalonStatus(
  db: Database,
  target: { salonId: string; version: number },
  to: SalonStatus,
  actor: AdminActor,
  now: Date,
): Promise<{ version: number }> {
  return db.transaction(async (tx) => {
    const version = await bumpSalonVersion(tx, target.salonId, target.version);
    const [current] = await tx
      .select({ status: salons.status })
      .from(salons)
      .where(eq(salons.id, target.salonId));
    if (!current) throw new NotFoundError();
    if (current.status === to) return { version };
    if (to === "published") {
      const missing = await publishRequirements(tx, target.salonId);
      if (missing.length > 0) throw new PublishRequirementsError(missing);
    }
    await tx.update(salons).set({ status: to }).where(eq(salons.id, target.salonId));
    await recomputeSalonDerived(tx, target.salonId, { refreshFreeDaysAt: now });
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: statusActions[to],
        targetType: "salon",
        targetId: target.salonId,
        salonId: target.salonId,
        before: { status: current.status },
        after: { status: to },
      },
      now,
    );
    return { version };
  });
}
