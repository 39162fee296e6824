import { and, count, eq, gte, inArray } from "drizzle-orm";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { bookings, occupyingStatuses, salons } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { auditView, readSalon } from "./salon-basic-info-read.server";
import { type AdminActor, bumpSalonVersion } from "./salon-editor.server";

/**
 * Deletes a salon. Refused while it has bookings to come (suspend it
 * instead, which keeps them), and while any booking history exists, which
 * customers and the books still need.
 */
export async function deleteSalon(
  db: Database,
  target: { salonId: string; version: number },
  actor: AdminActor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await bumpSalonVersion(tx, target.salonId, target.version);
    const [future] = await tx
      .select({ n: count() })
      .from(bookings)
      .where(
        and(
          eq(bookings.salonId, target.salonId),
          inArray(bookings.status, [...occupyingStatuses]),
          gte(bookings.startsAt, now),
        ),
      );
    if ((future?.n ?? 0) > 0) {
      throw new DomainError(
        "salon_has_future_bookings",
        `今後の予約が${future?.n}件あるため削除できません。予約を受け付けないようにするには「利用停止」にしてください。`,
        409,
      );
    }
    const [past] = await tx
      .select({ n: count() })
      .from(bookings)
      .where(eq(bookings.salonId, target.salonId));
    if ((past?.n ?? 0) > 0) {
      throw new DomainError(
        "salon_has_bookings",
        "予約の履歴があるため削除できません。公開をやめるには「利用停止」にしてください。",
        409,
      );
    }
    const stored = await readSalon(tx, target.salonId, null);
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "salon.delete",
        targetType: "salon",
        targetId: target.salonId,
        salonId: target.salonId,
        before: auditView(stored),
      },
      now,
    );
    await tx.delete(salons).where(eq(salons.id, target.salonId));
  });
}
