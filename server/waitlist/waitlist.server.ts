import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import { addDays, isLocalDate, toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import {
  WAITLIST_LIVE_ENTRIES_MAX,
  waitlistOfferStatusLabels,
  waitlistStatusLabels,
} from "../../common/waitlist";
import { findAvailability } from "../bookings/availability";
import { loadAvailabilityInput, publishedSalon } from "../bookings/availability-data.server";
import { couponPrice } from "../bookings/booking.server";
import { StaffNotAvailableError } from "../bookings/booking-errors";
import type { BookingLimits } from "../bookings/booking-rate-limit";
import type { Database } from "../db/client";
import {
  accountProfiles,
  bookingMenus,
  bookings,
  menus,
  salons,
  staff,
  users,
  type WaitlistOfferStatus,
  type WaitlistStatus,
  waitlistEntries,
  waitlistOffers,
} from "../db/schema";
import { notifySlotChange } from "../realtime/slot-events.server";
import {
  TooManyWaitlistAttemptsError,
  WaitlistDuplicateError,
  WaitlistInvalidError,
  WaitlistNotFoundError,
  WaitlistNotLiveError,
  WaitlistOfferClosedError,
  WaitlistOfferNotFoundError,
  WaitlistTimeFreeError,
  WaitlistTooManyError,
} from "./waitlist-errors";

/**
 * The waiting list (キャンセル待ち; issue 30, points 4–6; decision 0055):
 * what visitors and the salon do with it. The matcher that makes offers is
 * waitlist-matcher.server.ts; its jobs waitlist-jobs.server.ts.
 */

export type WaitlistEntry = typeof waitlistEntries.$inferSelect;

/** The counters joinWaitlist is limited by: the booking limits' store and numbers. */
export type WaitlistLimits = Pick<BookingLimits, "store" | "window" | "perIp" | "perAccount">;

export type JoinWaitlistInput = {
  userId: string;
  salonId: string;
  /** 1–5 menus of the salon, in the visitor's order. */
  menuIds: readonly string[];
  /** null: 指名なし. */
  staffId: string | null;
  couponId?: string | null;
  /** The salon's local date, YYYY-MM-DD. */
  date: string;
  /** Earliest wished start, minutes after local midnight (0–1439). */
  windowStart: number;
  /** Latest wished start, exclusive (1–1440). */
  windowEnd: number;
  now: Date;
  limits: WaitlistLimits;
  /** The client address (clientIp of the request). */
  ip: string;
};

const liveStatuses = ["waiting", "offered"] as const satisfies readonly WaitlistStatus[];

/** The account's advisory lock for counting its live entries one join after the other. */
const accountWaitlistLock = (userId: string) => `waitlist:user:${userId}`;

async function limitJoinAttempt(limits: WaitlistLimits, who: { ip: string; userId: string }) {
  const byIp = await limits.store.consume(`waitlist:ip:${who.ip}`, {
    window: limits.window,
    max: limits.perIp,
  });
  if (!byIp.allowed) throw new TooManyWaitlistAttemptsError(byIp.retryAfter ?? limits.window);
  const byAccount = await limits.store.consume(`waitlist:user:${who.userId}`, {
    window: limits.window,
    max: limits.perAccount,
  });
  if (!byAccount.allowed) {
    throw new TooManyWaitlistAttemptsError(byAccount.retryAfter ?? limits.window);
  }
}

function checkWindow(start: number, end: number) {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > 1440) {
    throw new WaitlistInvalidError(
      "時間帯は 0:00〜24:00 の範囲で指定してください。",
      "windowStart",
    );
  }
  if (start >= end) {
    throw new WaitlistInvalidError("時間帯の終わりは始まりより後にしてください。", "windowEnd");
  }
}

/**
 * Puts the signed-in visitor in line for a time on one date: the salon is
 * published, the menus (1–5, its own) can be done by the stylist (or by
 * someone, 指名なし), the date lies within the salon's booking window and is
 * not past, and no matching time is free right now (book it instead:
 * WaitlistTimeFreeError). At most WAITLIST_LIVE_ENTRIES_MAX live entries per
 * account and one per account, salon and date, counted under the account's
 * advisory lock so two joins at once cannot both pass the limit.
 * Rate-limited per account and per address (TooManyWaitlistAttemptsError).
 * Returns the new entry (status waiting).
 */
export async function joinWaitlist(db: Database, input: JoinWaitlistInput): Promise<WaitlistEntry> {
  await limitJoinAttempt(input.limits, { ip: input.ip, userId: input.userId });
  if (!isLocalDate(input.date)) {
    throw new WaitlistInvalidError("日付は YYYY-MM-DD の形式で指定してください。", "date");
  }
  checkWindow(input.windowStart, input.windowEnd);
  const salon = await publishedSalon(db, input.salonId);
  const today = toLocal(input.now, salon.timeZone).date;
  if (input.date < today) {
    throw new WaitlistInvalidError("過去の日付にはお申し込みできません。", "date");
  }
  const loaded = await loadAvailabilityInput(db, {
    salonId: salon.id,
    menuIds: input.menuIds,
    staffId: input.staffId,
    from: input.date,
    to: input.date,
    now: input.now,
  });
  if (input.date > addDays(today, loaded.rules.bookingWindowDays)) {
    throw new WaitlistInvalidError(
      `ご予約を受け付けているのは${loaded.rules.bookingWindowDays}日先までです。`,
      "date",
    );
  }
  // 指名なし: somebody must be able to do all the menus.
  if (loaded.input.staff.length === 0) throw new StaffNotAvailableError();
  if (input.couponId) {
    await couponPrice(db, {
      salonId: salon.id,
      couponId: input.couponId,
      date: input.date,
      userId: input.userId,
      menus: loaded.menus,
      requestedStaffId: input.staffId,
    });
  }
  const free = findAvailability(loaded.input)
    .flatMap((day) => day.slots)
    .some((slot) => {
      const minutes = toLocal(slot.start, salon.timeZone).minutes;
      return minutes >= input.windowStart && minutes < input.windowEnd;
    });
  if (free) throw new WaitlistTimeFreeError();

  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${accountWaitlistLock(input.userId)}, 0))`,
    );
    const live = await tx
      .select({ salonId: waitlistEntries.salonId, date: waitlistEntries.date })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.userId, input.userId),
          inArray(waitlistEntries.status, liveStatuses),
          // A past date's entry waits for housekeeping to expire it; it no longer counts.
          gte(waitlistEntries.date, addDays(today, -1)),
        ),
      );
    if (live.some((entry) => entry.salonId === salon.id && entry.date === input.date)) {
      throw new WaitlistDuplicateError();
    }
    if (live.length >= WAITLIST_LIVE_ENTRIES_MAX) throw new WaitlistTooManyError();
    const [entry] = await tx
      .insert(waitlistEntries)
      .values({
        salonId: salon.id,
        userId: input.userId,
        staffId: input.staffId,
        menuIds: loaded.menus.map((menu) => menu.id),
        couponId: input.couponId ?? null,
        date: input.date,
        windowStart: input.windowStart,
        windowEnd: input.windowEnd,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    if (!entry) throw new Error("waitlist entry not inserted");
    return entry;
  });
}

/**
 * Inside a transaction: withdraws the entry's open offer (its hold deleted,
 * so the time is free and the next in line is matched through
 * notifySlotChange's job) and sets the entry's new status.
 */
async function closeEntry(
  tx: Database,
  entry: WaitlistEntry,
  status: WaitlistStatus,
  offerStatus: WaitlistOfferStatus,
  now: Date,
) {
  const closed = await tx
    .update(waitlistOffers)
    .set({ status: offerStatus, settledAt: now })
    .where(and(eq(waitlistOffers.entryId, entry.id), eq(waitlistOffers.status, "open")))
    .returning({ holdId: waitlistOffers.holdId });
  const holdIds = closed.flatMap((offer) => (offer.holdId ? [offer.holdId] : []));
  const released =
    holdIds.length > 0
      ? await tx
          .delete(bookings)
          .where(and(inArray(bookings.id, holdIds), eq(bookings.status, "held")))
          .returning({ id: bookings.id })
      : [];
  await tx
    .update(waitlistEntries)
    .set({ status, version: sql`${waitlistEntries.version} + 1`, updatedAt: now })
    .where(eq(waitlistEntries.id, entry.id));
  if (released.length > 0) await notifySlotChange(tx, entry.salonId, [entry.date]);
}

/**
 * The visitor leaves the line. With an open offer, its hold is released
 * and the time offered to the next in line. Someone else's or a missing
 * entry: WaitlistNotFoundError (404); one no longer live: WaitlistNotLiveError (409).
 * Returns the entry as it is now (status left).
 */
export async function leaveWaitlist(
  db: Database,
  { userId, entryId, now }: { userId: string; entryId: string; now: Date },
): Promise<WaitlistEntry> {
  if (!isUuid(entryId)) throw new WaitlistNotFoundError();
  return db.transaction(async (tx) => {
    const [entry] = await tx
      .select()
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.userId, userId)))
      .for("update");
    if (!entry) throw new WaitlistNotFoundError();
    if (entry.status !== "waiting" && entry.status !== "offered") throw new WaitlistNotLiveError();
    await closeEntry(tx, entry, "left", "withdrawn", now);
    return { ...entry, status: "left" as const, version: entry.version + 1, updatedAt: now };
  });
}

/**
 * The visitor turns an open offer down: the hold is released, the offer
 * withdrawn, the entry left, and the time offered to the next in line.
 * WaitlistOfferNotFoundError (404) for someone else's; WaitlistOfferClosedError
 * (410) when it is no longer open.
 */
export async function declineOffer(
  db: Database,
  { userId, offerId, now }: { userId: string; offerId: string; now: Date },
): Promise<void> {
  if (!isUuid(offerId)) throw new WaitlistOfferNotFoundError();
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ entry: waitlistEntries, offerStatus: waitlistOffers.status })
      .from(waitlistOffers)
      .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
      .where(and(eq(waitlistOffers.id, offerId), eq(waitlistEntries.userId, userId)))
      .for("update");
    if (!found) throw new WaitlistOfferNotFoundError();
    if (found.offerStatus !== "open") throw new WaitlistOfferClosedError();
    await closeEntry(tx, found.entry, "left", "withdrawn", now);
  });
}

export type WaitlistOfferView = {
  id: string;
  status: WaitlistOfferStatus;
  statusLabel: string;
  /** Open, not past its deadline, and its hold still there: it can be booked now. */
  bookable: boolean;
  holdId: string | null;
  entryId: string;
  startsAt: Date;
  endsAt: Date;
  expiresAt: Date;
  salon: { id: string; slug: string; name: string; timeZone: string };
  /** The stylist of the held time. */
  staff: { id: string; name: string };
  /** False for 指名なし (the salon picked the stylist). */
  staffRequested: boolean;
  menus: { id: string; name: string; price: number; durationMinutes: number }[];
  /** The held time's total (coupon and 指名料 included), or null once the hold is gone. */
  totalPrice: number | null;
};

/**
 * One of the visitor's offers, with what the offer page and mail show.
 * WaitlistOfferNotFoundError (404) for a missing or someone else's offer;
 * a closed one is returned (bookable false) so the page can say so.
 */
export async function getOfferForUser(
  db: Database,
  { userId, offerId, now }: { userId: string; offerId: string; now: Date },
): Promise<WaitlistOfferView> {
  if (!isUuid(offerId)) throw new WaitlistOfferNotFoundError();
  const [row] = await db
    .select({
      offer: waitlistOffers,
      entryStaffId: waitlistEntries.staffId,
      entryMenuIds: waitlistEntries.menuIds,
      salonId: salons.id,
      salonSlug: salons.slug,
      salonName: salons.name,
      timeZone: salons.timeZone,
      staffName: staff.name,
      holdStatus: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      totalPrice: bookings.totalPrice,
    })
    .from(waitlistOffers)
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
    .innerJoin(salons, eq(salons.id, waitlistOffers.salonId))
    .innerJoin(staff, eq(staff.id, waitlistOffers.staffId))
    .leftJoin(bookings, eq(bookings.id, waitlistOffers.holdId))
    .where(and(eq(waitlistOffers.id, offerId), eq(waitlistEntries.userId, userId)));
  if (!row) throw new WaitlistOfferNotFoundError();
  const { offer } = row;
  const heldMenus = offer.holdId
    ? await db
        .select({
          id: bookingMenus.menuId,
          name: bookingMenus.name,
          price: bookingMenus.price,
          durationMinutes: bookingMenus.durationMinutes,
        })
        .from(bookingMenus)
        .where(
          and(eq(bookingMenus.salonId, offer.salonId), eq(bookingMenus.bookingId, offer.holdId)),
        )
        .orderBy(asc(bookingMenus.position))
    : [];
  const menuRows =
    heldMenus.length > 0 ? heldMenus : await menusById(db, row.entryMenuIds, offer.salonId);
  const bookable =
    offer.status === "open" &&
    offer.expiresAt.getTime() > now.getTime() &&
    row.holdStatus === "held" &&
    (row.holdExpiresAt?.getTime() ?? 0) > now.getTime();
  return {
    id: offer.id,
    status: offer.status,
    statusLabel: waitlistOfferStatusLabels[offer.status],
    bookable,
    holdId: offer.holdId,
    entryId: offer.entryId,
    startsAt: offer.startsAt,
    endsAt: offer.endsAt,
    expiresAt: offer.expiresAt,
    salon: { id: row.salonId, slug: row.salonSlug, name: row.salonName, timeZone: row.timeZone },
    staff: { id: offer.staffId, name: row.staffName },
    staffRequested: row.entryStaffId !== null,
    menus: menuRows,
    totalPrice: row.holdStatus ? row.totalPrice : null,
  };
}

async function menusById(db: Pick<Database, "select">, ids: readonly string[], salonId?: string) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: menus.id,
      name: menus.name,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
    })
    .from(menus)
    .where(and(inArray(menus.id, [...ids]), salonId ? eq(menus.salonId, salonId) : undefined));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const menu = byId.get(id);
    return menu ? [menu] : [];
  });
}

/** An entry's open offer as lists show it. */
export type OpenOfferSummary = {
  id: string;
  startsAt: Date;
  endsAt: Date;
  expiresAt: Date;
  holdId: string | null;
  staffId: string;
};

export type WaitlistEntrySummary = {
  id: string;
  status: WaitlistStatus;
  statusLabel: string;
  /** The salon's local date, YYYY-MM-DD. */
  date: string;
  windowStart: number;
  windowEnd: number;
  salon: { id: string; slug: string; name: string; timeZone: string };
  /** Menu names in the visitor's order (a menu the salon deleted since is left out). */
  menus: { id: string; name: string }[];
  /** The wished stylist, or null for 指名なし. */
  staff: { id: string; name: string } | null;
  /** "指名なし" or the stylist's name, ready to show. */
  staffLabel: string;
  createdAt: Date;
  bookingId: string | null;
  /** The open offer, if any (status offered). */
  offer: OpenOfferSummary | null;
  /** waiting or offered: the visitor may leave it. */
  live: boolean;
};

const summaryColumns = {
  entry: waitlistEntries,
  salonSlug: salons.slug,
  salonName: salons.name,
  timeZone: salons.timeZone,
  staffName: staff.name,
};

type SummaryRow = {
  entry: WaitlistEntry;
  salonSlug: string;
  salonName: string;
  timeZone: string;
  staffName: string | null;
};

async function summarize(db: Database, rows: SummaryRow[]): Promise<WaitlistEntrySummary[]> {
  if (rows.length === 0) return [];
  const allMenuIds = [...new Set(rows.flatMap((row) => row.entry.menuIds))];
  const menuNames = new Map(
    (await menusById(db, allMenuIds)).map((menu) => [menu.id, menu.name] as const),
  );
  const offers = await db
    .select()
    .from(waitlistOffers)
    .where(
      and(
        inArray(
          waitlistOffers.entryId,
          rows.map((row) => row.entry.id),
        ),
        eq(waitlistOffers.status, "open"),
      ),
    );
  const offerByEntry = new Map(offers.map((offer) => [offer.entryId, offer]));
  return rows.map(({ entry, ...row }) => {
    const offer = offerByEntry.get(entry.id);
    return {
      id: entry.id,
      status: entry.status,
      statusLabel: waitlistStatusLabels[entry.status],
      date: entry.date,
      windowStart: entry.windowStart,
      windowEnd: entry.windowEnd,
      salon: {
        id: entry.salonId,
        slug: row.salonSlug,
        name: row.salonName,
        timeZone: row.timeZone,
      },
      menus: entry.menuIds.flatMap((id) => {
        const name = menuNames.get(id);
        return name ? [{ id, name }] : [];
      }),
      staff: entry.staffId && row.staffName ? { id: entry.staffId, name: row.staffName } : null,
      staffLabel: entry.staffId && row.staffName ? row.staffName : "指名なし",
      createdAt: entry.createdAt,
      bookingId: entry.bookingId,
      offer: offer
        ? {
            id: offer.id,
            startsAt: offer.startsAt,
            endsAt: offer.endsAt,
            expiresAt: offer.expiresAt,
            holdId: offer.holdId,
            staffId: offer.staffId,
          }
        : null,
      live: entry.status === "waiting" || entry.status === "offered",
    };
  });
}

/**
 * The visitor's entries, newest first (live and past alike; the page
 * splits them by `live`). `now` is taken for a stable signature; entries of
 * past dates are expired by the matcher and housekeeping, not here.
 */
export async function listWaitlistForUser(
  db: Database,
  userId: string,
  _now: Date,
): Promise<WaitlistEntrySummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(waitlistEntries)
    .innerJoin(salons, eq(salons.id, waitlistEntries.salonId))
    .leftJoin(staff, eq(staff.id, waitlistEntries.staffId))
    .where(eq(waitlistEntries.userId, userId))
    .orderBy(desc(waitlistEntries.createdAt), desc(waitlistEntries.id))
    .limit(200);
  return summarize(db, rows);
}

export type SalonWaitlistEntry = WaitlistEntrySummary & {
  /** Place in the live line (1 = offered first); null once the entry left it. */
  position: number | null;
  customer: { name: string; kana: string };
};

/**
 * The salon's waiting list for one local date, in line order (created_at,
 * id), live entries and those that left it alike (`position` numbers the
 * live ones). With `staffId` (a stylist's own view): their entries and
 * 指名なし ones only. The caller checks the salon is the member's.
 */
export async function listWaitlistForSalonDay(
  db: Database,
  { salonId, date, staffId }: { salonId: string; date: string; staffId?: string | null },
): Promise<SalonWaitlistEntry[]> {
  if (!isUuid(salonId)) throw new WaitlistNotFoundError();
  if (!isLocalDate(date)) {
    throw new WaitlistInvalidError("日付は YYYY-MM-DD の形式で指定してください。", "date");
  }
  const rows = await db
    .select({
      ...summaryColumns,
      userName: users.name,
      profileName: accountProfiles.name,
      profileKana: accountProfiles.nameKana,
    })
    .from(waitlistEntries)
    .innerJoin(salons, eq(salons.id, waitlistEntries.salonId))
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .leftJoin(accountProfiles, eq(accountProfiles.userId, waitlistEntries.userId))
    .leftJoin(staff, eq(staff.id, waitlistEntries.staffId))
    .where(
      and(
        eq(waitlistEntries.salonId, salonId),
        eq(waitlistEntries.date, date),
        staffId
          ? or(eq(waitlistEntries.staffId, staffId), isNull(waitlistEntries.staffId))
          : undefined,
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
  const summaries = await summarize(db, rows);
  let position = 0;
  return summaries.map((summary, index) => {
    const row = rows[index];
    return {
      ...summary,
      position: summary.live ? ++position : null,
      customer: {
        name: row?.profileName || row?.userName || "",
        kana: row?.profileKana ?? "",
      },
    };
  });
}
