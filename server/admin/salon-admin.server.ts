import { and, asc, count, eq, gte, inArray, isNull, like, ne, or, sql } from "drizzle-orm";
import { toLocal } from "../bookings/local-time";
import { bookingSettingsDefaults } from "../bookings/settings";
import type { Database } from "../db/client";
import { sqlStateOf } from "../db/errors";
import { localTime } from "../db/local-time";
import {
  areas,
  bookings,
  features,
  menus,
  occupyingStatuses,
  prefectures,
  redirectRules,
  salonBookingSettings,
  salonFeatures,
  salonOpeningHours,
  salonOwners,
  salons,
  scheduleExceptions,
  staff,
  stations,
  users,
} from "../db/schema";
import type { SalonStatus } from "../db/schema/salons";
import { DomainError, NotFoundError } from "../errors/domain-error";
import {
  normalizeRulePath,
  type RedirectRuleCache,
  saveRedirectRule,
} from "../routing/redirect-rules";
import { recomputeSalonDerived } from "../salons/derived.server";
import { type AuditAction, recordAudit } from "./audit";
import { bumpSalonVersion, findSalonForEditor } from "./salon-editor.server";
import {
  BLANK_CLOSURES,
  type Closure,
  closureField,
  hoursField,
  INTERVALS_PER_DAY,
  type OpeningInterval,
  type SalonFormValues,
  type SalonInput,
  WEEKDAYS,
  weekdayLabels,
} from "./salon-form";

/**
 * The salon editor's 基本情報 tab and the salon's life cycle (issue 16,
 * points 4, 7 and 8): create, update, publish, suspend, back to draft and
 * delete, each in one transaction with its audit entry, the version check
 * (bumpSalonVersion) and the derived columns (recomputeSalonDerived).
 */

export type AdminActor = { id: string };

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

/** Publishing refused: what a visitor would miss, in Japanese. */
export class PublishRequirementsError extends DomainError {
  constructor(readonly missing: string[]) {
    super("salon_publish_incomplete", `公開に必要な情報が足りません：${missing.join("、")}`, 422, {
      missing,
    });
  }
}

const publicPath = (slug: string) => `/salons/${slug}`;

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
      closedOnPublicHolidays: d.closedOnHolidays ? "on" : "",
    },
    features: [],
    ownerIds: [],
    closureRows: BLANK_CLOSURES,
  };
}

/** Everything of a salon the 基本情報 tab edits, as stored. */
async function readSalon(db: Database, salonId: string, today: string | null) {
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
  const localToday = today ?? toLocal(new Date(), timeZone).date;
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
    db
      .select({
        slotStepMinutes: salonBookingSettings.slotStepMinutes,
        leadTimeMinutes: salonBookingSettings.leadTimeMinutes,
        bookingWindowDays: salonBookingSettings.bookingWindowDays,
        cancellationCutoffHours: salonBookingSettings.cancellationCutoffHours,
        bufferAfterMinutes: salonBookingSettings.bufferAfterMinutes,
        dailyLimitPerStaff: salonBookingSettings.dailyLimitPerStaff,
        sameDayCutoff: localTime(salonBookingSettings.sameDayCutoff),
        holdMinutes: salonBookingSettings.holdMinutes,
        closedOnPublicHolidays: salonBookingSettings.closedOnPublicHolidays,
      })
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, salonId)),
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
  const d = bookingSettingsDefaults;
  const s = settings[0] ?? {
    slotStepMinutes: d.slotStepMinutes,
    leadTimeMinutes: d.leadTimeMinutes,
    bookingWindowDays: d.bookingWindowDays,
    cancellationCutoffHours: d.cancellationCutoffHours,
    bufferAfterMinutes: d.bufferAfterMinutes,
    dailyLimitPerStaff: d.dailyLimitPerStaff,
    sameDayCutoff: d.sameDayCutoff,
    holdMinutes: d.holdMinutes,
    closedOnPublicHolidays: d.closedOnHolidays,
  };
  const prefix = salon.prefectureName;
  const address = salon.salon.address;
  return {
    salon: salon.salon,
    addressLine: address.startsWith(prefix) ? address.slice(prefix.length) : address,
    hours,
    settings: { ...s, sameDayCutoff: s.sameDayCutoff ?? null },
    featureSlugs: featureRows.map((row) => row.slug),
    ownerIds: ownerRows.map((row) => row.id),
    closures: closureRows as Closure[],
  };
}
type StoredSalon = Awaited<ReturnType<typeof readSalon>>;

/** Salon-wide dated closures from `today` on (earlier ones are history, never edited). */
function salonClosuresFrom(salonId: string, today: string) {
  return and(
    eq(scheduleExceptions.salonId, salonId),
    isNull(scheduleExceptions.staffId),
    eq(scheduleExceptions.kind, "closed"),
    gte(scheduleExceptions.date, today),
  );
}

/** The stored salon as the form's strings. */
function valuesOf(stored: StoredSalon): SalonFormValues {
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
    slotStepMinutes: String(settings.slotStepMinutes),
    leadTimeMinutes: String(settings.leadTimeMinutes),
    bookingWindowDays: String(settings.bookingWindowDays),
    cancellationCutoffHours: String(settings.cancellationCutoffHours),
    bufferAfterMinutes: String(settings.bufferAfterMinutes),
    dailyLimitPerStaff:
      settings.dailyLimitPerStaff === null ? "" : String(settings.dailyLimitPerStaff),
    sameDayCutoff: settings.sameDayCutoff ?? "",
    holdMinutes: String(settings.holdMinutes),
    closedOnPublicHolidays: settings.closedOnPublicHolidays ? "on" : "",
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

/** What the audit log and the diff compare: each field as a readable value. */
function auditView(stored: {
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

/** The fields whose values differ, before and after. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changedBefore: Record<string, unknown> = {};
  const changedAfter: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      changedBefore[key] = before[key] ?? null;
      changedAfter[key] = after[key] ?? null;
    }
  }
  return { before: changedBefore, after: changedAfter, changed: Object.keys(changedAfter) };
}

/** Checks the chosen references exist (Japanese field errors instead of foreign-key failures). */
async function checkReferences(tx: Database, input: SalonInput) {
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

async function checkSlugFree(tx: Database, slug: string, salonId: string | null) {
  const [taken] = await tx
    .select({ id: salons.id })
    .from(salons)
    .where(salonId ? and(eq(salons.slug, slug), ne(salons.id, salonId)) : eq(salons.slug, slug));
  if (taken) {
    throw new SalonFieldError(
      "slug",
      "このURL名（スラッグ）はほかのサロンが使っています。別の名前にしてください。",
      409,
    );
  }
}

/** Rewrites the rows the form owns: hours, closures from today, settings, features, owners. */
async function writeParts(tx: Database, salonId: string, input: SalonInput, today: string) {
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
  const settings = {
    slotStepMinutes: input.slotStepMinutes,
    leadTimeMinutes: input.leadTimeMinutes,
    bookingWindowDays: input.bookingWindowDays,
    cancellationCutoffHours: input.cancellationCutoffHours,
    bufferAfterMinutes: input.bufferAfterMinutes,
    dailyLimitPerStaff: input.dailyLimitPerStaff,
    sameDayCutoff: input.sameDayCutoff,
    holdMinutes: input.holdMinutes,
    closedOnPublicHolidays: input.closedOnPublicHolidays,
  };
  const d = bookingSettingsDefaults;
  const isDefault =
    settings.slotStepMinutes === d.slotStepMinutes &&
    settings.leadTimeMinutes === d.leadTimeMinutes &&
    settings.bookingWindowDays === d.bookingWindowDays &&
    settings.cancellationCutoffHours === d.cancellationCutoffHours &&
    settings.bufferAfterMinutes === d.bufferAfterMinutes &&
    settings.dailyLimitPerStaff === d.dailyLimitPerStaff &&
    settings.sameDayCutoff === d.sameDayCutoff &&
    settings.holdMinutes === d.holdMinutes &&
    settings.closedOnPublicHolidays === d.closedOnHolidays;
  // No row means the defaults (decision 0009): a salon on the defaults keeps
  // following them if they change.
  if (isDefault) {
    await tx.delete(salonBookingSettings).where(eq(salonBookingSettings.salonId, salonId));
  } else {
    await tx
      .insert(salonBookingSettings)
      .values({ salonId, ...settings })
      .onConflictDoUpdate({ target: salonBookingSettings.salonId, set: settings });
  }
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
}

function salonColumns(input: SalonInput, prefectureName: string) {
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
function slugRace(error: unknown): never {
  if (sqlStateOf(error) === "23505") {
    throw new SalonFieldError(
      "slug",
      "このURL名（スラッグ）はほかのサロンが使っています。別の名前にしてください。",
      409,
    );
  }
  throw error;
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
      const changes = diff(auditView({ ...before, closures: before.closures }), auditView(after));
      if (changes.changed.length > 0) {
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
      return { version, changed: changes.changed };
    });
    // saveRedirectRule invalidated the cache inside the transaction; a lookup
    // in between could have reloaded the old rules, so once more after commit.
    if (redirected) redirects.invalidate();
    return result;
  } catch (error) {
    return slugRace(error);
  }
}

/**
 * The old public address now answers 301 to the new one, and so does every
 * path under it (/salons/old/confirm?menu=x → /salons/new/confirm?menu=x):
 * the rule covers sub-paths. Rules that sent visitors to the old address or
 * under it follow (one hop, never a chain), and rules from the new address
 * or under it (a slug given back) are removed: the salon's live pages are
 * never redirected, so nothing loops through them.
 */
async function addSlugRedirect(
  tx: Database,
  redirects: RedirectRuleCache,
  salonId: string,
  oldSlug: string,
  newSlug: string,
  actor: AdminActor,
  now: Date,
) {
  const from = normalizeRulePath(publicPath(oldSlug));
  const to = publicPath(newSlug);
  // Slugs are [a-z0-9-], so they need no escaping inside LIKE patterns.
  await tx
    .delete(redirectRules)
    .where(or(eq(redirectRules.path, to), like(redirectRules.path, `${to}/%`)));
  await tx
    .update(redirectRules)
    .set({ target: sql`${to} || substr(${redirectRules.target}, ${from.length + 1})` })
    .where(
      or(
        eq(redirectRules.target, from),
        like(redirectRules.target, `${from}/%`),
        like(redirectRules.target, `${from}?%`),
        like(redirectRules.target, `${from}#%`),
      ),
    );
  await saveRedirectRule(tx, redirects, {
    path: from,
    target: to,
    statusCode: 301,
    includeSubpaths: true,
  });
  await recordAudit(
    tx,
    {
      actorUserId: actor.id,
      action: "salon.slug_redirect",
      targetType: "salon",
      targetId: salonId,
      salonId,
      before: { slug: oldSlug },
      after: { path: from, target: to, statusCode: 301, includeSubpaths: true },
    },
    now,
  );
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

/** For routes: the id of a salon that exists, or the 404 error. */
export { findSalonForEditor };
