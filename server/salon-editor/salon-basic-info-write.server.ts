import { and, eq, inArray, ne } from "drizzle-orm";
import { WEEKDAYS } from "../../common/salon-form-fields";
import type { Database } from "../db/client";
import {
  areas,
  features,
  prefectures,
  salonFeatures,
  salonOpeningHours,
  salonOwners,
  salons,
  scheduleExceptions,
  stations,
  users,
} from "../db/schema";
import { sqlState } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { bookingRulesOf } from "./booking-rules";
import { writeBookingRules } from "./booking-rules.server";
import { salonClosuresFrom } from "./salon-basic-info-read.server";
import type { SalonInput } from "./salon-form";

/**
 * The salon editor's 基本情報 tab, written: the checks and writes creating
 * a salon (salon-create.server.ts) and saving one (salon-update.server.ts)
 * share, inside their transaction.
 */

/** A refused edit that belongs next to one field of the form. */
export class SalonFieldError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
    status = 400,
  ) {
    super("salon_field", message, status, { field });
  }
}

/** Checks the chosen references exist (Japanese field errors instead of foreign-key failures). */
export async function checkReferences(tx: Database, input: SalonInput) {
  const [prefecture] = await tx
    .select({ name: prefectures.name })
    .from(prefectures)
    .where(eq(prefectures.code, input.prefectureCode));
  if (!prefecture) throw new SalonFieldError("prefectureCode", "都道府県を選択してください。");
  const [area] = await tx.select({ id: areas.id }).from(areas).where(eq(areas.id, input.areaId));
  if (!area) throw new SalonFieldError("areaId", "エリアを選択してください。");
  if (input.stationId) {
    const [station] = await tx
      .select({ areaId: stations.areaId })
      .from(stations)
      .where(eq(stations.id, input.stationId));
    if (!station) throw new SalonFieldError("stationId", "最寄り駅を選択してください。");
    if (station.areaId !== input.areaId) {
      throw new SalonFieldError("stationId", "最寄り駅は選んだエリアの駅から選択してください。");
    }
  }
  if (input.featureSlugs.length > 0) {
    const known = await tx
      .select({ slug: features.slug })
      .from(features)
      .where(inArray(features.slug, input.featureSlugs));
    if (known.length !== input.featureSlugs.length) {
      throw new SalonFieldError("features", "特徴の指定が正しくありません。");
    }
  }
  if (input.ownerIds.length > 0) {
    const owners = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, input.ownerIds), eq(users.role, "owner")));
    if (owners.length !== input.ownerIds.length) {
      throw new SalonFieldError(
        "ownerIds",
        "オーナーはオーナー登録済みの会員から選択してください。",
      );
    }
  }
  return { prefectureName: prefecture.name };
}

/** The slug is another salon's: refused next to the field. */
const slugTaken = () =>
  new SalonFieldError(
    "slug",
    "このURL名（スラッグ）はほかのサロンが使っています。別の名前にしてください。",
    409,
  );

export async function checkSlugFree(tx: Database, slug: string, salonId: string | null) {
  const [taken] = await tx
    .select({ id: salons.id })
    .from(salons)
    .where(salonId ? and(eq(salons.slug, slug), ne(salons.id, salonId)) : eq(salons.slug, slug));
  if (taken) throw slugTaken();
}

/**
 * Rewrites the rows the form owns: hours, closures from today, booking rules
 * (booking-rules.server.ts), features, owners. Answers what of the booking
 * rules changed (their own audit entry, salon.booking_settings), or null.
 */
export async function writeParts(tx: Database, salonId: string, input: SalonInput, today: string) {
  await tx.delete(salonOpeningHours).where(eq(salonOpeningHours.salonId, salonId));
  if (input.openingHours.length > 0) {
    await tx
      .insert(salonOpeningHours)
      .values(input.openingHours.map((interval) => ({ salonId, ...interval })));
  }
  await tx.delete(scheduleExceptions).where(salonClosuresFrom(salonId, today));
  const closures = input.closures.filter((closure) => closure.date >= today);
  if (closures.length > 0) {
    await tx.insert(scheduleExceptions).values(
      closures.map((closure) => ({
        salonId,
        staffId: null,
        date: closure.date,
        kind: "closed" as const,
        note: closure.note,
      })),
    );
  }
  const rulesChanged = await writeBookingRules(tx, salonId, bookingRulesOf(input));
  await tx.delete(salonFeatures).where(eq(salonFeatures.salonId, salonId));
  if (input.featureSlugs.length > 0) {
    await tx
      .insert(salonFeatures)
      .values(input.featureSlugs.map((featureSlug) => ({ salonId, featureSlug })));
  }
  await tx.delete(salonOwners).where(eq(salonOwners.salonId, salonId));
  if (input.ownerIds.length > 0) {
    await tx.insert(salonOwners).values(input.ownerIds.map((userId) => ({ salonId, userId })));
  }
  return rulesChanged;
}

export function salonColumns(input: SalonInput, prefectureName: string) {
  const openDays = new Set(input.openingHours.map((h) => h.weekday));
  return {
    name: input.name,
    nameKana: input.nameKana,
    slug: input.slug,
    genre: input.genre,
    catchCopy: input.catchCopy,
    description: input.description,
    postalCode: input.postalCode,
    prefectureCode: input.prefectureCode,
    address: `${prefectureName}${input.addressLine}`,
    access: input.access,
    latitude: input.latitude,
    longitude: input.longitude,
    phone: input.phone,
    areaId: input.areaId,
    stationId: input.stationId,
    // The weekly closed days are the weekdays without hours: one source.
    regularHolidays: WEEKDAYS.filter((weekday) => !openDays.has(weekday)),
    holidayNote: input.holidayNote,
  };
}

/** A unique violation on the slug that slipped past checkSlugFree (two saves at once). */
export function slugRace(error: unknown): never {
  if (sqlState(error) === "23505") throw slugTaken();
  throw error;
}
