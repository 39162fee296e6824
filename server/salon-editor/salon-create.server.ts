import { toLocal } from "../../common/local-time";
import { BLANK_CLOSURES } from "../../common/salon-form-fields";
import { recordAudit } from "../audit/audit";
import { bookingSettingsDefaults } from "../bookings/settings";
import type { Database } from "../db/client";
import { salons } from "../db/schema";
import { recomputeSalonDerived } from "../salons/derived.server";
import { bookingRulesDefaults } from "./booking-rules";
import { auditView, readSalon } from "./salon-basic-info-read.server";
import {
  checkReferences,
  checkSlugFree,
  salonColumns,
  slugRace,
  writeParts,
} from "./salon-basic-info-write.server";
import type { AdminActor } from "./salon-editor.server";
import type { SalonFormValues, SalonInput } from "./salon-form";

/** /admin/salons/add: the blank form and the new draft salon (decision 0017). */

/** The form of a new salon: the booking defaults, nothing else chosen. */
export function blankSalonValues(): SalonFormValues {
  const d = bookingSettingsDefaults;
  return {
    fields: {
      genre: "hair",
      slotStepMinutes: String(d.slotStepMinutes),
      leadTimeMinutes: String(d.leadTimeMinutes),
      bookingWindowDays: String(d.bookingWindowDays),
      cancellationCutoffHours: String(d.cancellationCutoffHours),
      bufferAfterMinutes: String(d.bufferAfterMinutes),
      dailyLimitPerStaff: d.dailyLimitPerStaff === null ? "" : String(d.dailyLimitPerStaff),
      sameDayCutoff: d.sameDayCutoff ?? "",
      holdMinutes: String(d.holdMinutes),
      waitlistOfferMinutes: String(bookingRulesDefaults.waitlistOfferMinutes),
      approvalAnswerHours: String(bookingRulesDefaults.approvalAnswerHours),
      closedOnPublicHolidays: d.closedOnHolidays ? "on" : "",
    },
    features: [],
    ownerIds: [],
    closureRows: BLANK_CLOSURES,
  };
}

/**
 * /admin/salons/add: a new draft salon. Returns its id. A draft shows on no
 * public page, so unlike every later edit (bumpSalonVersion) it does not
 * drop the page micro-cache.
 */
export async function createSalon(
  db: Database,
  input: SalonInput,
  actor: AdminActor,
  now: Date,
): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const { prefectureName } = await checkReferences(tx, input);
      await checkSlugFree(tx, input.slug, null);
      const [created] = await tx
        .insert(salons)
        .values({ ...salonColumns(input, prefectureName), status: "draft" })
        .returning();
      if (!created) throw new Error("salon not inserted");
      const today = toLocal(now, created.timeZone).date;
      await writeParts(tx, created.id, input, today);
      await recomputeSalonDerived(tx, created.id);
      const stored = await readSalon(tx, created.id, today);
      await recordAudit(
        tx,
        {
          actorUserId: actor.id,
          action: "salon.create",
          targetType: "salon",
          targetId: created.id,
          salonId: created.id,
          after: auditView(stored),
        },
        now,
      );
      return created.id;
    });
  } catch (error) {
    return slugRace(error);
  }
}
