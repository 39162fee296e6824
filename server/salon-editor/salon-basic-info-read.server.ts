import { and, asc, eq, gte, isNull } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import {
  BLANK_CLOSURES,
  closureField,
  hoursField,
  INTERVALS_PER_DAY,
  WEEKDAYS,
  weekdayLabels,
} from "../../common/salon-form-fields";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
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
import { NotFoundError } from "../errors/domain-error";
import { bookingRulesValues } from "./booking-rules";
import { readBookingRules } from "./booking-rules.server";
import type { Closure, OpeningInterval, SalonFormValues } from "./salon-form";

/**
 * The salon editor's 基本情報 tab, read (decision 0017): a salon as the
 * form edits it (readSalon), as the form's strings (valuesOf) and as the
 * audit log compares it (auditView), and the choices the form offers.
 * Creating, saving, publishing and deleting are salon-create, salon-update,
 * salon-status and salon-delete.server.ts.
 */

/** The choices the form offers (prefectures, areas, stations, features, owners). */
export async function salonFormOptions(db: Database) {
  const [prefectureRows, areaRows, stationRows, featureRows, ownerRows] = await Promise.all([
    db
      .select({ code: prefectures.code, name: prefectures.name })
      .from(prefectures)
      .orderBy(asc(prefectures.code)),
    db
      .select({
        id: areas.id,
        name: areas.name,
        prefectureCode: areas.prefectureCode,
      })
      .from(areas)
      .orderBy(asc(areas.prefectureCode), asc(areas.sortOrder), asc(areas.name)),
    db
      .select({ id: stations.id, name: stations.name, areaId: stations.areaId })
      .from(stations)
      .orderBy(asc(stations.name)),
    db
      .select({ slug: features.slug, name: features.name })
      .from(features)
      .orderBy(asc(features.sortOrder), asc(features.slug)),
    db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.role, "owner"))
      .orderBy(asc(users.name), asc(users.id))
      .limit(1000),
  ]);
  return {
    prefectures: prefectureRows,
    areas: areaRows,
    stations: stationRows,
    features: featureRows,
    owners: ownerRows,
  };
}
export type SalonFormOptions = Awaited<ReturnType<typeof salonFormOptions>>;

/**
 * Everything of a salon the 基本情報 tab edits, as stored: closures from
 * `today` (the salon's date), or from the salon's date at `now`.
 */
export async function readSalon(
  db: Database,
  salonId: string,
  today: string | null,
  now: Date = new Date(),
) {
  const [salon] = await db
    .select({
      salon: salons,
      prefectureName: prefectures.name,
    })
    .from(salons)
    .innerJoin(prefectures, eq(prefectures.code, salons.prefectureCode))
    .where(eq(salons.id, salonId));
  if (!salon) throw new NotFoundError();
  const timeZone = salon.salon.timeZone;
  const localToday = today ?? toLocal(now, timeZone).date;
  const [hours, settings, featureRows, ownerRows, closureRows] = await Promise.all([
    db
      .select({
        weekday: salonOpeningHours.weekday,
        opens: localTime(salonOpeningHours.opens),
        closes: localTime(salonOpeningHours.closes),
      })
      .from(salonOpeningHours)
      .where(eq(salonOpeningHours.salonId, salonId))
      .orderBy(asc(salonOpeningHours.weekday), asc(salonOpeningHours.opens)),
    readBookingRules(db, salonId),
    db
      .select({ slug: salonFeatures.featureSlug })
      .from(salonFeatures)
      .where(eq(salonFeatures.salonId, salonId))
      .orderBy(asc(salonFeatures.featureSlug)),
    db
      .select({ id: salonOwners.userId })
      .from(salonOwners)
      .where(eq(salonOwners.salonId, salonId))
      .orderBy(asc(salonOwners.userId)),
    db
      .select({ date: scheduleExceptions.date, note: scheduleExceptions.note })
      .from(scheduleExceptions)
      .where(salonClosuresFrom(salonId, localToday))
      .orderBy(asc(scheduleExceptions.date)),
  ]);
  const prefix = salon.prefectureName;
  const address = salon.salon.address;
  return {
    salon: salon.salon,
    addressLine: address.startsWith(prefix) ? address.slice(prefix.length) : address,
    hours,
    settings,
    featureSlugs: featureRows.map((row) => row.slug),
    ownerIds: ownerRows.map((row) => row.id),
    closures: closureRows as Closure[],
  };
}
export type StoredSalon = Awaited<ReturnType<typeof readSalon>>;

/** Salon-wide dated closures from `today` on (earlier ones are history, never edited). */
export function salonClosuresFrom(salonId: string, today: string) {
  return and(
    eq(scheduleExceptions.salonId, salonId),
    isNull(scheduleExceptions.staffId),
    eq(scheduleExceptions.kind, "closed"),
    gte(scheduleExceptions.date, today),
  );
}

/** The stored salon as the form's strings. */
export function valuesOf(stored: StoredSalon): SalonFormValues {
  const { salon, settings } = stored;
  const fields: Record<string, string> = {
    name: salon.name,
    nameKana: salon.nameKana,
    slug: salon.slug,
    genre: salon.genre,
    catchCopy: salon.catchCopy,
    description: salon.description,
    postalCode: salon.postalCode,
    prefectureCode: String(salon.prefectureCode),
    addressLine: stored.addressLine,
    access: salon.access,
    latitude: String(salon.latitude),
    longitude: String(salon.longitude),
    phone: salon.phone,
    areaId: salon.areaId,
    stationId: salon.stationId ?? "",
    holidayNote: salon.holidayNote,
    ...bookingRulesValues(settings),
    addOwnerId: "",
  };
  for (const weekday of WEEKDAYS) {
    const day = stored.hours.filter((h) => h.weekday === weekday).slice(0, INTERVALS_PER_DAY);
    day.forEach((interval, k) => {
      fields[hoursField(weekday, k, "opens")] = interval.opens;
      fields[hoursField(weekday, k, "closes")] = interval.closes;
    });
  }
  stored.closures.forEach((closure, i) => {
    fields[closureField(i, "date")] = closure.date;
    fields[closureField(i, "note")] = closure.note;
  });
  return {
    fields,
    features: stored.featureSlugs,
    ownerIds: stored.ownerIds,
    closureRows: stored.closures.length + BLANK_CLOSURES,
  };
}

/** What the audit log and the diff compare: each field as a readable value. */
export function auditView(stored: {
  salon: typeof salons.$inferSelect;
  hours: OpeningInterval[];
  settings: Record<string, unknown>;
  featureSlugs: string[];
  ownerIds: string[];
  closures: Closure[];
}): Record<string, unknown> {
  const s = stored.salon;
  return {
    name: s.name,
    nameKana: s.nameKana,
    slug: s.slug,
    genre: s.genre,
    catchCopy: s.catchCopy,
    description: s.description,
    postalCode: s.postalCode,
    prefectureCode: s.prefectureCode,
    address: s.address,
    access: s.access,
    latitude: s.latitude,
    longitude: s.longitude,
    phone: s.phone,
    areaId: s.areaId,
    stationId: s.stationId,
    regularHolidays: s.regularHolidays,
    holidayNote: s.holidayNote,
    openingHours: stored.hours.map((h) => `${weekdayLabels[h.weekday]} ${h.opens}-${h.closes}`),
    closures: stored.closures.map((c) => (c.note ? `${c.date} ${c.note}` : c.date)),
    bookingSettings: stored.settings,
    features: stored.featureSlugs,
    owners: stored.ownerIds,
  };
}
