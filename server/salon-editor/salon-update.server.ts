import { eq } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { changedFields, recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { retryTransaction } from "../db/retry";
import { salons } from "../db/schema";
import type { RedirectRuleCache } from "../routing/redirect-rules";
import { recomputeSalonDerived } from "../salons/derived.server";
import { auditBookingRules } from "./booking-rules.server";
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
import { guardStranding } from "./schedule-stranding.server";

/**
 * /admin/salons/edit/:id, the 基本情報 tab: its page data and its save
 * (decision 0017), audited with the fields that changed.
 */

/** The 基本情報 tab's page data. */
export async function loadSalonEditor(db: Database, idParam: string, now: Date = new Date()) {
  const found = await findSalonForEditor(db, idParam);
  const [stored, options, missing] = await Promise.all([
    readSalon(db, found.id, null, now),
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
    // A deadlock with a booking of the salon is run again from the start (issue 38, §4.1).
    const result = await retryTransaction(() =>
      db.transaction(async (tx) => {
        const version = await bumpSalonVersion(tx, target.salonId, target.version);
        const before = await readSalon(tx, target.salonId, null, now);
        const today = toLocal(now, before.salon.timeZone).date;
        const { prefectureName } = await checkReferences(tx, input);
        await checkSlugFree(tx, input.slug, target.salonId);
        await tx
          .update(salons)
          .set(salonColumns(input, prefectureName))
          .where(eq(salons.id, target.salonId));
        // Hours, 臨時休業 and the holiday rule pass the one stranding check (decision 0046).
        const { result: rulesChanged } = await guardStranding(
          tx,
          { salonId: target.salonId, staffId: null, now, actorUserId: actor.id },
          {},
          () => writeParts(tx, target.salonId, input, today),
        );
        await recomputeSalonDerived(tx, target.salonId, { refreshFreeDaysAt: now });
        const after = await readSalon(tx, target.salonId, today);
        // The booking rules have their own entry, as from the owner's 設定 page (decision 0048).
        const { bookingSettings: _before, ...viewBefore } = auditView(before);
        const { bookingSettings: _after, ...viewAfter } = auditView(after);
        const changes = changedFields(viewBefore, viewAfter);
        if (rulesChanged) {
          await auditBookingRules(tx, target.salonId, rulesChanged, actor.id, now);
        }
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
        const changed = Object.keys(changes?.after ?? {});
        return { version, changed: rulesChanged ? [...changed, "bookingSettings"] : changed };
      }),
    );
    // saveRedirectRule invalidated the cache inside the transaction; a lookup
    // in between could have reloaded the old rules, so once more after commit.
    if (redirected) redirects.invalidate();
    return result;
  } catch (error) {
    return slugRace(error);
  }
}
