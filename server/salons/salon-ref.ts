import { and, eq, or } from "drizzle-orm";
import { SLUG_PATTERN } from "../../common/slug";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { salons } from "../db/schema";
import { DomainError } from "../errors/domain-error";

export class SalonRefNotFoundError extends DomainError {
  constructor() {
    super("salon_not_found", "サロンが見つかりません。", 404);
  }
}

/**
 * A published salon named as the pages name it (its slug) or by its UUID,
 * as the API accepts both; SalonRefNotFoundError otherwise. `anyStatus`
 * also finds unpublished ones (removing a favorite of a suspended salon).
 */
export async function publishedSalonRef(db: Database, ref: string, { anyStatus = false } = {}) {
  if (!SLUG_PATTERN.test(ref)) throw new SalonRefNotFoundError();
  const match = isUuid(ref)
    ? or(eq(salons.id, ref.toLowerCase()), eq(salons.slug, ref))
    : eq(salons.slug, ref);
  const [salon] = await db
    .select({ id: salons.id, slug: salons.slug, name: salons.name, timeZone: salons.timeZone })
    .from(salons)
    .where(anyStatus ? match : and(match, eq(salons.status, "published")))
    .limit(1);
  if (!salon) throw new SalonRefNotFoundError();
  return salon;
}
