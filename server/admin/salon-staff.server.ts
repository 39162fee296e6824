import { randomBytes } from "node:crypto";
import { and, asc, count, eq, gte, inArray, isNull, ne, sql } from "drizzle-orm";
import { isUuid } from "../../common/uuid";
import { addDays, toLocal } from "../bookings/local-time";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import {
  bookings,
  menuStaff,
  menus,
  occupyingStatuses,
  salons,
  scheduleExceptions,
  staff,
  staffSchedules,
} from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { type RetirablePart, retireOrDelete } from "./salon-part-retire.server";
import { findPartRow, moveInSalonOrder, recordPartAudit } from "./salon-part-rows.server";
import type {
  ScheduleInput,
  ScheduleInterval,
  StaffExceptionInput,
  StaffInput,
} from "./salon-parts.schema";
import { changedFields, editSalonPart, type SalonPartEdit } from "./salon-parts.server";

/**
 * The スタッフ tab: stylists, their order, retirement, the menus they can
 * do, their weekly patterns and dated exceptions. Every change goes through
 * editSalonPart (version check, audit entry, derived columns, one transaction).
 */

/** A weekly pattern is the rows sharing one validity; this names it in forms and URLs. */
export const patternKey = (validFrom: string | null, validUntil: string | null) =>
  `${validFrom ?? ""}~${validUntil ?? ""}`;

/** Everything the tab shows: the list, and the chosen stylist's details when one is open. */
export async function staffTab(
  db: Database,
  salonId: string,
  selectedId: string | null,
  now: Date,
) {
  const members = await db
    .select({
      id: staff.id,
      slug: staff.slug,
      name: staff.name,
      kana: staff.kana,
      role: staff.role,
      active: staff.active,
      sortOrder: staff.sortOrder,
    })
    .from(staff)
    .where(eq(staff.salonId, salonId))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  const bookingCounts = await db
    .select({ staffId: bookings.staffId, n: count() })
    .from(bookings)
    .where(eq(bookings.salonId, salonId))
    .groupBy(bookings.staffId);
  const counted = new Map(bookingCounts.map((row) => [row.staffId, row.n]));
  const salonMenus = await menusWithStaff(db, salonId);
  const selected =
    isUuid(selectedId) && members.some((m) => m.id === selectedId.toLowerCase())
      ? await staffDetails(db, salonId, selectedId.toLowerCase(), salonMenus, now)
      : null;
  return {
    members: members.map((member) => ({ ...member, bookings: counted.get(member.id) ?? 0 })),
    menus: salonMenus.map(({ allowed: _allowed, ...menu }) => menu),
    selected,
  };
}

/** The salon's menus, each with the stylists restricted to it (null: anyone). */
async function menusWithStaff(db: Database, salonId: string) {
  const rows = await db
    .select({
      id: menus.id,
      name: menus.name,
      category: menus.category,
      published: menus.published,
    })
    .from(menus)
    .where(eq(menus.salonId, salonId))
    .orderBy(asc(menus.sortOrder), asc(menus.id));
  const links = await db
    .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
    .from(menuStaff)
    .innerJoin(menus, eq(menus.id, menuStaff.menuId))
    .where(eq(menus.salonId, salonId));
  return rows.map((menu) => {
    const allowed = links.filter((l) => l.menuId === menu.id).map((l) => l.staffId);
    return { ...menu, allowed: allowed.length > 0 ? new Set(allowed) : null };
  });
}

async function staffDetails(
  db: Database,
  salonId: string,
  staffId: string,
  salonMenus: Awaited<ReturnType<typeof menusWithStaff>>,
  now: Date,
) {
  const [member] = await db
    .select({
      id: staff.id,
      slug: staff.slug,
      name: staff.name,
      kana: staff.kana,
      role: staff.role,
      profile: staff.profile,
      photoUrl: staff.photoUrl,
      yearsOfExperience: staff.yearsOfExperience,
      specialties: staff.specialties,
      active: staff.active,
      timeZone: salons.timeZone,
    })
    .from(staff)
    .innerJoin(salons, eq(salons.id, staff.salonId))
    .where(and(eq(staff.id, staffId), eq(staff.salonId, salonId)));
  if (!member) return null;
  const today = toLocal(now, member.timeZone).date;
  const schedules = await db
    .select({
      weekday: staffSchedules.weekday,
      startsAt: localTime(staffSchedules.startsAt),
      endsAt: localTime(staffSchedules.endsAt),
      validFrom: staffSchedules.validFrom,
      validUntil: staffSchedules.validUntil,
    })
    .from(staffSchedules)
    .where(and(eq(staffSchedules.salonId, salonId), eq(staffSchedules.staffId, staffId)))
    .orderBy(
      sql`${staffSchedules.validFrom} asc nulls first`,
      asc(staffSchedules.weekday),
      asc(staffSchedules.startsAt),
    );
  const exceptions = await db
    .select({
      id: scheduleExceptions.id,
      date: scheduleExceptions.date,
      kind: scheduleExceptions.kind,
      startsAt: localTime(scheduleExceptions.startsAt),
      endsAt: localTime(scheduleExceptions.endsAt),
      note: scheduleExceptions.note,
    })
    .from(scheduleExceptions)
    .where(
      and(
        eq(scheduleExceptions.salonId, salonId),
        eq(scheduleExceptions.staffId, staffId),
        gte(scheduleExceptions.date, today),
      ),
    )
    .orderBy(asc(scheduleExceptions.date), asc(scheduleExceptions.startsAt))
    .limit(200);
  const [upcoming] = await db
    .select({ n: count() })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.staffId, staffId),
        gte(bookings.startsAt, now),
        inArray(bookings.status, [...occupyingStatuses]),
      ),
    );
  const { timeZone: _zone, ...fields } = member;
  return {
    ...fields,
    today,
    upcomingBookings: upcoming?.n ?? 0,
    menuIds: salonMenus.filter((m) => !m.allowed || m.allowed.has(staffId)).map((m) => m.id),
    patterns: groupPatterns(schedules),
    exceptions: exceptions.map((e) => ({
      ...e,
      // Drizzle reads a null time through to_char as null.
      startsAt: e.startsAt ?? null,
      endsAt: e.endsAt ?? null,
    })),
  };
}

type ScheduleRow = ScheduleInterval & { validFrom: string | null; validUntil: string | null };

export type SchedulePattern = {
  key: string;
  validFrom: string | null;
  validUntil: string | null;
  intervals: ScheduleInterval[];
};

function groupPatterns(rows: readonly ScheduleRow[]): SchedulePattern[] {
  const patterns = new Map<string, SchedulePattern>();
  for (const row of rows) {
    const key = patternKey(row.validFrom, row.validUntil);
    const pattern = patterns.get(key) ?? {
      key,
      validFrom: row.validFrom,
      validUntil: row.validUntil,
      intervals: [],
    };
    pattern.intervals.push({ weekday: row.weekday, startsAt: row.startsAt, endsAt: row.endsAt });
    patterns.set(key, pattern);
  }
  return [...patterns.values()];
}

const profileOf = (row: typeof staff.$inferSelect | StaffInput) => ({
  name: row.name,
  kana: row.kana,
  role: row.role,
  profile: row.profile,
  photoUrl: row.photoUrl,
  yearsOfExperience: row.yearsOfExperience,
  specialties: row.specialties,
});

/**
 * A stylist is retired with active = false (left out of the salon page,
 * stylist pages and booking, which ask for active staff; their bookings,
 * schedules and reviews stay); deleted only when they never had a booking.
 */
const stylistRows: RetirablePart<typeof staff> = {
  table: staff,
  label: "スタッフ",
  targetType: "staff",
  actions: { retire: "staff.retire", reinstate: "staff.reinstate", delete: "staff.delete" },
  affectsFreeTime: true,
  references: [
    {
      table: bookings,
      where: (salonId, member) =>
        and(eq(bookings.salonId, salonId), eq(bookings.staffId, member.id)),
      code: "staff_has_bookings",
      message: (member) =>
        `${member.name}さんには予約があるため削除できません。「退職」にすると予約画面や公開ページから外れ、予約は残ります。`,
    },
  ],
  deletedView: async (_tx, member) => ({
    ...profileOf(member),
    slug: member.slug,
    active: member.active,
  }),
};

/** A stylist of this salon, or 404 (also for a malformed id or one of another salon). */
const memberOf = (tx: Database, salonId: string, staffId: string) =>
  findPartRow(tx, stylistRows, salonId, staffId);

/**
 * Makes `wanted` the menus this stylist can do. A menu open to anyone (no
 * menu_staff rows) stays open when wanted; unwanted, it is restricted to the
 * salon's other stylists. A menu must keep at least one stylist: a menu
 * with no rows would mean anyone, the opposite of what was asked.
 */
async function setAbilities(tx: Database, salonId: string, staffId: string, wanted: string[]) {
  const salonMenus = await menusWithStaff(tx, salonId);
  const known = new Set(salonMenus.map((m) => m.id));
  if (!wanted.every((id) => known.has(id))) {
    throw new DomainError(
      "menu_not_found",
      "選択されたメニューが見つかりません。画面を読み込み直してください。",
      400,
    );
  }
  const others = (
    await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.salonId, salonId), ne(staff.id, staffId)))
  ).map((row) => row.id);
  const want = new Set(wanted);
  const added: string[] = [];
  const removed: string[] = [];
  for (const menu of salonMenus) {
    const can = !menu.allowed || menu.allowed.has(staffId);
    if (want.has(menu.id) === can) continue;
    if (want.has(menu.id)) {
      await tx.insert(menuStaff).values({ menuId: menu.id, staffId }).onConflictDoNothing();
      added.push(menu.name);
      continue;
    }
    const remaining = menu.allowed ? [...menu.allowed].filter((id) => id !== staffId) : others;
    if (remaining.length === 0) {
      throw new DomainError(
        "menu_without_staff",
        `「${menu.name}」を担当できるスタッフがいなくなります。先にほかのスタッフを担当にするか、メニューの掲載をやめてください。`,
        400,
      );
    }
    if (menu.allowed) {
      await tx
        .delete(menuStaff)
        .where(and(eq(menuStaff.menuId, menu.id), eq(menuStaff.staffId, staffId)));
    } else {
      await tx.insert(menuStaff).values(remaining.map((id) => ({ menuId: menu.id, staffId: id })));
    }
    removed.push(menu.name);
  }
  return { added, removed };
}

export async function createStaff(db: Database, edit: SalonPartEdit, input: StaffInput) {
  return editSalonPart(db, edit, async (tx) => {
    const [salon] = await tx
      .select({ slug: salons.slug })
      .from(salons)
      .where(eq(salons.id, edit.salonId));
    const [last] = await tx
      .select({ max: sql<number>`coalesce(max(${staff.sortOrder}), -1)::int` })
      .from(staff)
      .where(eq(staff.salonId, edit.salonId));
    const [member] = await tx
      .insert(staff)
      .values({
        salonId: edit.salonId,
        // Public URL of the stylist (/salons/staffs/<slug>): the salon's and a random part.
        slug: `${salon?.slug ?? "salon"}-staff-${randomBytes(4).toString("hex")}`,
        ...profileOf(input),
        sortOrder: (last?.max ?? -1) + 1,
      })
      .returning();
    if (!member) throw new Error("staff not inserted");
    // A new stylist can do the menus open to anyone; these calls restrict or add.
    const abilities = await setAbilities(tx, edit.salonId, member.id, input.menuIds);
    const menuNames = await menuNamesFor(tx, edit.salonId, member.id);
    await recordPartAudit(tx, edit, {
      action: "staff.create",
      targetType: "staff",
      targetId: member.id,
      before: null,
      after: {
        ...profileOf(member),
        slug: member.slug,
        menus: menuNames,
        ...abilitiesNote(abilities),
      },
    });
    return member;
  });
}

const abilitiesNote = (abilities: { added: string[]; removed: string[] }) =>
  abilities.removed.length > 0 ? { menusRestricted: abilities.removed } : {};

async function menuNamesFor(tx: Database, salonId: string, staffId: string) {
  const salonMenus = await menusWithStaff(tx, salonId);
  return salonMenus.filter((m) => !m.allowed || m.allowed.has(staffId)).map((m) => m.name);
}

export async function updateStaff(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  input: StaffInput,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const menusBefore = await menuNamesFor(tx, edit.salonId, member.id);
    await tx.update(staff).set(profileOf(input)).where(eq(staff.id, member.id));
    await setAbilities(tx, edit.salonId, member.id, input.menuIds);
    const menusAfter = await menuNamesFor(tx, edit.salonId, member.id);
    const changes = changedFields(
      { ...profileOf(member), menus: menusBefore },
      { ...profileOf(input), menus: menusAfter },
    );
    if (changes) {
      await recordPartAudit(tx, edit, {
        action: "staff.update",
        targetType: "staff",
        targetId: member.id,
        ...changes,
      });
    }
    return member;
  });
}

/**
 * Moves a stylist one place up or down in the salon's order (the order of
 * the salon page and of 指名なし's tie-break). The whole list is renumbered
 * 0…n-1, so equal sort orders left by imports stop mattering.
 */
export async function moveStaff(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  direction: "up" | "down",
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    await moveInSalonOrder(tx, edit, "staff", member.id, direction);
    return member;
  });
}

/** Retires (active = false) or brings back a stylist. */
export function setStaffActive(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  active: boolean,
) {
  return retireOrDelete(db, edit, stylistRows, staffId, {
    action: active ? "reinstate" : "retire",
    columns: (member) => (member.active === active ? null : { active }),
  });
}

/** Deletes a stylist who never had a booking; one with bookings can only be retired. */
export function deleteStaff(db: Database, edit: SalonPartEdit, staffId: string) {
  return retireOrDelete(db, edit, stylistRows, staffId, { action: "delete" });
}

const overlaps = (
  a: { validFrom: string | null; validUntil: string | null },
  b: { validFrom: string | null; validUntil: string | null },
) =>
  (a.validUntil === null || b.validFrom === null || b.validFrom <= a.validUntil) &&
  (b.validUntil === null || a.validFrom === null || a.validFrom <= b.validUntil);

const rangeLabel = (p: { validFrom: string | null; validUntil: string | null }) =>
  `${p.validFrom ?? "開始日なし"}〜${p.validUntil ?? "終了日なし"}`;

const patternView = (p: SchedulePattern | null) =>
  p ? { validFrom: p.validFrom, validUntil: p.validUntil, intervals: p.intervals } : null;

/**
 * Saves one weekly pattern of a stylist. `key` names the pattern edited
 * ("new" for a new one). A new pattern starting on a date ends the pattern
 * running then on the day before (a new shift pattern from next month);
 * any other overlap of validity with another pattern is refused, so one
 * date never has two patterns to add up.
 */
export async function saveSchedule(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  key: string,
  input: ScheduleInput,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const rows = await tx
      .select({
        id: staffSchedules.id,
        weekday: staffSchedules.weekday,
        startsAt: localTime(staffSchedules.startsAt),
        endsAt: localTime(staffSchedules.endsAt),
        validFrom: staffSchedules.validFrom,
        validUntil: staffSchedules.validUntil,
      })
      .from(staffSchedules)
      .where(and(eq(staffSchedules.salonId, edit.salonId), eq(staffSchedules.staffId, member.id)))
      .orderBy(asc(staffSchedules.weekday), asc(staffSchedules.startsAt));
    const patterns = groupPatterns(rows);
    const old = key === "new" ? null : (patterns.find((p) => p.key === key) ?? null);
    if (key !== "new" && !old) {
      throw new DomainError(
        "pattern_not_found",
        "この勤務パターンは見つかりません。ほかの管理者が変更した可能性があります。一覧を確認してください。",
        409,
      );
    }
    const ended: { from: string; until: string }[] = [];
    for (const other of patterns) {
      if (other.key === old?.key || !overlaps(other, input)) continue;
      const startsBefore =
        input.validFrom !== null && (other.validFrom === null || other.validFrom < input.validFrom);
      if (key === "new" && startsBefore && input.validFrom) {
        const until = addDays(input.validFrom, -1);
        await tx
          .update(staffSchedules)
          .set({ validUntil: until })
          .where(
            and(
              eq(staffSchedules.staffId, member.id),
              other.validFrom === null
                ? isNull(staffSchedules.validFrom)
                : eq(staffSchedules.validFrom, other.validFrom),
              other.validUntil === null
                ? isNull(staffSchedules.validUntil)
                : eq(staffSchedules.validUntil, other.validUntil),
            ),
          );
        ended.push({ from: rangeLabel(other), until });
        continue;
      }
      throw new DomainError(
        "pattern_overlap",
        `適用期間がほかの勤務パターン（${rangeLabel(other)}）と重なっています。適用開始日・終了日を見直してください。`,
        409,
      );
    }
    if (old) {
      await tx.delete(staffSchedules).where(
        inArray(
          staffSchedules.id,
          rows.filter((r) => patternKey(r.validFrom, r.validUntil) === old.key).map((r) => r.id),
        ),
      );
    }
    await tx.insert(staffSchedules).values(
      input.intervals.map((interval) => ({
        salonId: edit.salonId,
        staffId: member.id,
        ...interval,
        validFrom: input.validFrom,
        validUntil: input.validUntil,
      })),
    );
    await recordPartAudit(tx, edit, {
      action: "staff.schedule_save",
      targetType: "staff",
      targetId: member.id,
      before: patternView(old),
      after: {
        validFrom: input.validFrom,
        validUntil: input.validUntil,
        intervals: input.intervals,
        ...(ended.length > 0 ? { endedPatterns: ended } : {}),
      },
    });
    return patternKey(input.validFrom, input.validUntil);
  });
}

export async function deleteSchedule(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  key: string,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const [from = "", until = ""] = key.split("~");
    const removed = await tx
      .delete(staffSchedules)
      .where(
        and(
          eq(staffSchedules.salonId, edit.salonId),
          eq(staffSchedules.staffId, member.id),
          from === "" ? isNull(staffSchedules.validFrom) : eq(staffSchedules.validFrom, from),
          until === "" ? isNull(staffSchedules.validUntil) : eq(staffSchedules.validUntil, until),
        ),
      )
      .returning({
        weekday: staffSchedules.weekday,
        startsAt: localTime(staffSchedules.startsAt),
        endsAt: localTime(staffSchedules.endsAt),
      });
    if (removed.length === 0) {
      throw new DomainError(
        "pattern_not_found",
        "この勤務パターンは見つかりません。ほかの管理者が変更した可能性があります。一覧を確認してください。",
        409,
      );
    }
    await recordPartAudit(tx, edit, {
      action: "staff.schedule_delete",
      targetType: "staff",
      targetId: member.id,
      before: { validFrom: from || null, validUntil: until || null, intervals: removed },
      after: null,
    });
  });
}

/**
 * Adds a dated exception (a day off, other hours, an extra working day).
 * A day off excludes other rows of the same date; rows of other hours on
 * one date add up (the engine's rule), so they must not overlap.
 */
export async function addStaffException(
  db: Database,
  edit: SalonPartEdit & { timeZone: string },
  staffId: string,
  input: StaffExceptionInput,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const today = toLocal(edit.now, edit.timeZone).date;
    if (input.date < today) {
      throw new DomainError("date_past", "日付は今日以降の日付を入力してください。", 400);
    }
    const sameDay = await tx
      .select({
        kind: scheduleExceptions.kind,
        startsAt: localTime(scheduleExceptions.startsAt),
        endsAt: localTime(scheduleExceptions.endsAt),
      })
      .from(scheduleExceptions)
      .where(
        and(
          eq(scheduleExceptions.salonId, edit.salonId),
          eq(scheduleExceptions.staffId, member.id),
          eq(scheduleExceptions.date, input.date),
        ),
      );
    if (
      sameDay.length > 0 &&
      (input.kind === "closed" || sameDay.some((e) => e.kind === "closed"))
    ) {
      throw new DomainError(
        "exception_conflict",
        "この日にはすでに例外が登録されています。休みにする場合は、先にその日の登録を削除してください。",
        409,
      );
    }
    if (
      input.startsAt &&
      input.endsAt &&
      sameDay.some(
        (e) =>
          e.startsAt &&
          e.endsAt &&
          e.startsAt < (input.endsAt ?? "") &&
          (input.startsAt ?? "") < e.endsAt,
      )
    ) {
      throw new DomainError(
        "exception_overlap",
        "この日の登録済みの時間と重なっています。時間を見直してください。",
        409,
      );
    }
    const [row] = await tx
      .insert(scheduleExceptions)
      .values({
        salonId: edit.salonId,
        staffId: member.id,
        date: input.date,
        kind: input.kind,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        note: input.note,
      })
      .returning({ id: scheduleExceptions.id });
    await recordPartAudit(tx, edit, {
      action: "staff.exception_add",
      targetType: "staff",
      targetId: member.id,
      before: null,
      after: { exceptionId: row?.id, ...input },
    });
    return row;
  });
}

export async function deleteStaffException(
  db: Database,
  edit: SalonPartEdit,
  staffId: string,
  exceptionId: string,
) {
  return editSalonPart(db, edit, async (tx) => {
    const member = await memberOf(tx, edit.salonId, staffId);
    const [removed] = isUuid(exceptionId)
      ? await tx
          .delete(scheduleExceptions)
          .where(
            and(
              eq(scheduleExceptions.id, exceptionId.toLowerCase()),
              eq(scheduleExceptions.salonId, edit.salonId),
              eq(scheduleExceptions.staffId, member.id),
            ),
          )
          .returning({
            date: scheduleExceptions.date,
            kind: scheduleExceptions.kind,
            startsAt: localTime(scheduleExceptions.startsAt),
            endsAt: localTime(scheduleExceptions.endsAt),
            note: scheduleExceptions.note,
          })
      : [];
    if (!removed) {
      throw new DomainError(
        "exception_not_found",
        "この例外はすでに削除されています。一覧を確認してください。",
        409,
      );
    }
    await recordPartAudit(tx, edit, {
      action: "staff.exception_delete",
      targetType: "staff",
      targetId: member.id,
      before: { exceptionId, ...removed },
      after: null,
    });
  });
}
