import { eq } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { salons } from "../db/schema";
import type { RedirectRuleCache } from "../routing/redirect-rules";
import { recomputeSalonDerived } from "../salons/derived.server";
import { changedFields, recordAudit } from "./audit";
import { auditView, readSalon, salonFormOptions, valuesOf } from "./salon-basic-info-read.server";
import {
  checkReferences,
  checkSlugFree,
  salonColumns,
  slugRace,
  writeParts,
} from "./salon-basic-info-write.server";
import { type AdminActor, bumpSalonVersion, findSalonForEditor } from "./salon-editor.server";
import type { SalonInput } from "./salon-form";
import { addSlugRedirect } from "./salon-slug-redirect.server";
import { publishRequirements } from "./salon-status.server";

/**
 * /admin/salons/edit/:id, the 基本情報 tab: its page data and its save
 * (decision 0017), audited with the fields that changed.
 */

/** The 基本情報 tab's page data. */
export async function loadSalonEditor(db: Database, idParam: string) {
  const found = await findSalonForEditor(db, idParam);
  const [stored, options, missing] = await Promise.all([
    readSalon(db, found.id, null),
    salonFormOptions(db),
    publishRequirements(db, found.id),
  ]);
  return {
    salon: {
      id: stored.salon.id,
      name: stored.salon.name,
      slug: stored.salon.slug,
      status: stored.salon.status,
      version: stored.salon.version,
      updatedAt: stored.salon.updatedAt,
    },
    values: valuesOf(stored),
    options,
    missing,
  };
}

/**
 * /admin/salons/edit/:id: saves the 基本情報 tab. Refused when another
 * admin saved the salon since `version` was loaded. A published salon whose
 * slug changes gets a permanent redirect from its old address.
 */
export async function updateSalon(
  db: Database,
  redirects: RedirectRuleCache,
  target: { salonId: string; version: number },
  input: SalonInput,
  actor: AdminActor,
  now: Date,
): Promise<{ version: number; changed: string[] }> {
  let redirected = false;
  try {
    const result = await db.transaction(async (tx) => {
      const version = await bumpSalonVersion(tx, target.salonId, target.version);
      const before = await readSalon(tx, target.salonId, null);
      const today = toLocal(now, before.salon.timeZone).date;
      const { prefectureName } = await checkReferences(tx, input);
      await checkSlugFree(tx, input.slug, target.salonId);
      await tx
        .update(salons)
        .set(salonColumns(input, prefectureName))
        .where(eq(salons.id, target.salonId));
      await writeParts(tx, target.salonId, input, today);
      await recomputeSalonDerived(tx, target.salonId, { refreshFreeDaysAt: now });
      const after = await readSalon(tx, target.salonId, today);
      const changes = changedFields(auditView(before), auditView(after));
      if (changes) {
        await recordAudit(
          tx,
          {
            actorUserId: actor.id,
            action: "salon.update",
            targetType: "salon",
            targetId: target.salonId,
            salonId: target.salonId,
            before: changes.before,
            after: changes.after,
          },
          now,
        );
      }
      if (before.salon.slug !== input.slug && before.salon.status === "published") {
        await addSlugRedirect(
          tx,
          redirects,
          target.salonId,
          before.salon.slug,
          input.slug,
          actor,
          now,
        );
        redirected = true;
      }
      return { version, changed: Object.keys(changes?.after ?? {}) };
    });
    // saveRedirectRule invalidated the cache inside the transaction; a lookup
    // in between could have reloaded the old rules, so once more after commit.
    if (redirected) redirects.invalidate();
    return result;
  } catch (error) {
    return slugRace(error);
  }
}
