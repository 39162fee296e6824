import { and, asc, desc, eq, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { chainCte, idList } from "../bookings/salon-customers.server";
import type { Database } from "../db/client";
import {
  type BookingSource,
  type BookingStatus,
  bookingMenus,
  bookings,
  type SalonCancelCategory,
  salonCustomers,
  staff,
} from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { CUSTOMERS_PER_PAGE, type CustomerListQuery } from "./customers.schema";

/**
 * The salon's customers (顧客カルテ, issue 28, point 6; decision 0039).
 * One record per person per salon (salon_customers), found or made when a
 * booking comes in (server/bookings/salon-customers.server.ts). Two records
 * of the same person are merged by pointing one at the other
 * (merged_into_id), so a merge moves no booking and is undone by clearing
 * the pointer. Everything here counts a record together with every record
 * merged into it, however deep.
 *
 * Privacy: every query names the salon, and a customer id of another salon
 * is "not found" exactly like an id that does not exist.
 */

/** What the salon sees of a customer's bookings, over the record and its merged ones. */
export type CustomerStats = {
  /** Completed bookings (来店). */
  visits: number;
  /** Start of the last completed booking, ISO; null before the first visit. */
  lastVisitAt: string | null;
  /** Yen of completed bookings. */
  totalSpent: number;
  /** Confirmed bookings still ahead. */
  upcoming: number;
  /** Cancelled by the customer themselves on the web (no category). */
  cancelledByCustomer: number;
  /**
   * Cancellations the salon entered, per reason (decisions 0040, 0065): only
   * `salon` is the salon's own; the others are the customer's, phoned in.
   */
  cancelledBySalon: Record<SalonCancelCategory, number>;
  noShows: number;
};

export type CustomerSummary = {
  id: string;
  name: string;
  kana: string;
  phone: string;
  email: string;
  /** Booked with an account at least once. */
  hasAccount: boolean;
};

export type CustomerRow = CustomerSummary & { stats: CustomerStats };

const emptyStats = (): CustomerStats => ({
  visits: 0,
  lastVisitAt: null,
  totalSpent: 0,
  upcoming: 0,
  cancelledByCustomer: 0,
  cancelledBySalon: { customer_advance: 0, customer_same_day: 0, no_contact: 0, salon: 0 },
  noShows: 0,
});

/** A chain is at most as deep as the salon's customers; no write makes a cycle, this bounds one. */
const MAX_CHAIN_DEPTH = 50;

/** Kana are stored as katakana (common/field-rules.ts kanaName); a hiragana query meets them. */
export function normalizeCustomerQuery(q: string) {
  const text = q
    .normalize("NFKC")
    .replace(/\s+/gu, "")
    .replace(/[\u3041-\u3096]/gu, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60));
  const digits = q.normalize("NFKC").replace(/\D/g, "");
  return { text, digits };
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type StatsRow = {
  top_id: string;
  visits: number;
  last_visit_at: Date | string | null;
  total_spent: number | string;
  upcoming: number;
  cancelled_by_customer: number;
  cancelled_advance: number;
  cancelled_salon: number;
  cancelled_same_day: number;
  cancelled_no_contact: number;
  no_shows: number;
};

/** Rows of a raw query (node-postgres' result on both engines). */
async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const iso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * Per `chain.top_id`: its bookings' counts (holds and blocks never count:
 * a hold is no booking yet, a block has no customer). Kept in one place for
 * the list and the karte alike.
 */
const statsSelect = (salonId: string, now: Date) => sql`
  select chain.top_id,
         count(b.id) filter (where b.status = 'completed')::int as visits,
         max(b.starts_at) filter (where b.status = 'completed') as last_visit_at,
         coalesce(sum(b.total_price) filter (where b.status = 'completed'), 0)::float8 as total_spent,
         count(b.id) filter (where b.status = 'confirmed'
           and b.starts_at > ${now.toISOString()}::timestamptz)::int as upcoming,
         count(b.id) filter (where b.status = 'cancelled_by_user'
           and b.cancel_category is null)::int as cancelled_by_customer,
         count(b.id) filter (where b.cancel_category = 'customer_advance')::int as cancelled_advance,
         count(b.id) filter (where b.status = 'cancelled_by_salon'
           and coalesce(b.cancel_category, 'salon') = 'salon')::int as cancelled_salon,
         count(b.id) filter (where b.cancel_category = 'customer_same_day')::int as cancelled_same_day,
         count(b.id) filter (where b.cancel_category = 'no_contact')::int as cancelled_no_contact,
         count(b.id) filter (where b.status = 'no_show')::int as no_shows
    from chain
    left join bookings b
      on b.salon_id = ${salonId} and b.customer_id = chain.id and b.kind = 'booking'
   group by chain.top_id`;

const statsOf = (row: Omit<StatsRow, "top_id">): CustomerStats => ({
  visits: Number(row.visits),
  lastVisitAt: iso(row.last_visit_at),
  totalSpent: Number(row.total_spent),
  upcoming: Number(row.upcoming),
  cancelledByCustomer: Number(row.cancelled_by_customer),
  cancelledBySalon: {
    customer_advance: Number(row.cancelled_advance),
    salon: Number(row.cancelled_salon),
    customer_same_day: Number(row.cancelled_same_day),
    no_contact: Number(row.cancelled_no_contact),
  },
  noShows: Number(row.no_shows),
});

/** The stats of each given record with the records merged into it: one grouped query. */
export async function customerStats(
  db: Database,
  salonId: string,
  topIds: readonly string[],
  now: Date,
): Promise<Map<string, CustomerStats>> {
  const out = new Map<string, CustomerStats>();
  if (topIds.length === 0) return out;
  const result = await rowsOf<StatsRow>(
    db,
    sql`
    ${chainCte(salonId, topIds)}
    ${statsSelect(salonId, now)}`,
  );
  for (const row of result) {
    out.set(row.top_id, statsOf(row));
  }
  return out;
}

/** Every record of the chain under each given top record (itself included). */
async function chainIds(db: Database, salonId: string, topId: string): Promise<string[]> {
  const result = await rowsOf<{ id: string }>(
    db,
    sql`
    ${chainCte(salonId, [topId])}
    select id from chain`,
  );
  return result.map((row) => row.id);
}

const summaryColumns = {
  id: salonCustomers.id,
  name: salonCustomers.name,
  kana: salonCustomers.kana,
  phone: salonCustomers.phone,
  email: salonCustomers.email,
  userId: salonCustomers.userId,
};

type SummarySource = {
  id: string;
  name: string;
  kana: string;
  phone: string;
  email: string;
  userId: string | null;
};

const summaryOf = (row: SummarySource): CustomerSummary => ({
  id: row.id,
  name: row.name,
  kana: row.kana,
  phone: row.phone,
  email: row.email,
  hasAccount: row.userId !== null,
});

/**
 * The search condition on a record `m` (raw alias): name or kana (spaces
 * ignored, hiragana read as katakana), phone digits anywhere in the number,
 * or the mail address.
 */
function matchCondition(q: string): SQL | null {
  const { text, digits } = normalizeCustomerQuery(q);
  if (!text) return null;
  const parts: SQL[] = [
    sql`replace(m.name, ' ', '') ilike ${likePattern(text)}`,
    sql`replace(m.kana, ' ', '') ilike ${likePattern(text)}`,
    sql`m.email ilike ${likePattern(text.toLowerCase())}`,
  ];
  if (digits.length >= 2) parts.push(sql`m.phone like ${likePattern(digits)}`);
  return sql.join(parts, sql` or `);
}

/**
 * The records to list: the salon's top records (merged_into_id is null),
 * or, with a query, those that match or absorbed a record that matches (a
 * phone number written on a merged record still finds the person).
 */
function listedTops(salonId: string, q: string) {
  const match = matchCondition(q);
  if (!match) {
    return sql`select c.id, c.name, c.kana, c.phone, c.email, c.user_id
                 from salon_customers c
                where c.salon_id = ${salonId} and c.merged_into_id is null`;
  }
  // From each matching record up its chain to the top (by primary key: a
  // few index lookups per match); UNION drops repeats and ends any loop.
  return sql`
    with recursive up(id, merged_into_id, name, kana, phone, email, user_id) as (
      select m.id, m.merged_into_id, m.name, m.kana, m.phone, m.email, m.user_id
        from salon_customers m
       where m.salon_id = ${salonId} and (${match})
      union
      select p.id, p.merged_into_id, p.name, p.kana, p.phone, p.email, p.user_id
        from salon_customers p join up on p.id = up.merged_into_id
       where p.salon_id = ${salonId}
    )
    select up.id, up.name, up.kana, up.phone, up.email, up.user_id
      from up where up.merged_into_id is null`;
}

export type CustomerList = {
  customers: CustomerRow[];
  total: number;
  page: number;
  pageSize: number;
  q: string;
};

/**
 * One page of the salon's customers, by kana (あいうえお順, as a paper
 * karte box is kept), each with its stats: a count, then the page and its
 * stats in one grouped query.
 */
export async function listCustomers(
  db: Database,
  salonId: string,
  query: CustomerListQuery,
  now: Date,
): Promise<CustomerList> {
  const q = query.q.trim();
  const tops = listedTops(salonId, q);
  const counted = await rowsOf<{ total: number }>(
    db,
    sql`select count(*)::int as total from (${tops}) listed`,
  );
  const total = Number(counted[0]?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / CUSTOMERS_PER_PAGE));
  const page = Math.min(query.page, pageCount);
  type PageRow = SummarySource & { user_id: string | null } & Omit<StatsRow, "top_id">;
  const result = await rowsOf<PageRow>(
    db,
    sql`
    with recursive listed as (
      select l.id, l.name, l.kana, l.phone, l.email, l.user_id
        from (${tops}) l
       order by l.kana = '' , l.kana, l.name, l.id
       limit ${CUSTOMERS_PER_PAGE} offset ${(page - 1) * CUSTOMERS_PER_PAGE}
    ),
    chain(id, top_id, depth) as (
      select listed.id, listed.id, 0 from listed
      union all
      select c.id, chain.top_id, chain.depth + 1
        from salon_customers c join chain on c.merged_into_id = chain.id
       where c.salon_id = ${salonId} and chain.depth < ${MAX_CHAIN_DEPTH}
    ),
    stats as (${statsSelect(salonId, now)})
    select listed.*, stats.visits, stats.last_visit_at, stats.total_spent, stats.upcoming,
           stats.cancelled_by_customer, stats.cancelled_advance, stats.cancelled_salon, stats.cancelled_same_day,
           stats.cancelled_no_contact, stats.no_shows
      from listed join stats on stats.top_id = listed.id
     order by listed.kana = '', listed.kana, listed.name, listed.id`,
  );
  const customers = result.map((row) => ({
    ...summaryOf({ ...row, userId: row.user_id }),
    stats: statsOf(row),
  }));
  return { customers, total, page, pageSize: CUSTOMERS_PER_PAGE, q };
}

export type MergedRecord = CustomerSummary & {
  mergedAt: string | null;
  /** The salon's notes written on that record before the merge (read only here). */
  notes: string;
};

export type DuplicateSuggestion = CustomerSummary & {
  samePhone: boolean;
  sameEmail: boolean;
  sameName: boolean;
  stats: CustomerStats;
};

export type VisitRow = {
  id: string;
  bookingNumber: string;
  startsAt: string;
  /** In the salon's zone: YYYY-MM-DD and HH:MM. */
  localDate: string;
  localStart: string;
  localEnd: string;
  status: BookingStatus;
  cancelCategory: SalonCancelCategory | null;
  source: BookingSource;
  stylist: string;
  staffRequested: boolean;
  menus: string[];
  totalPrice: number;
};

export type CustomerDetail = {
  customer: CustomerSummary & {
    notes: string;
    createdAt: string;
    updatedAt: string;
  };
  /** Set when this record was merged into another (its page says so and links there). */
  mergedInto: CustomerSummary | null;
  stats: CustomerStats;
  merged: MergedRecord[];
  suggestions: DuplicateSuggestion[];
  visits: VisitRow[];
  /** All bookings of the chain; `visits` holds the newest VISIT_LIMIT of them. */
  visitTotal: number;
};

export const VISIT_LIMIT = 100;
const SUGGESTION_LIMIT = 10;

const customerNotFound = () => new NotFoundError("顧客が見つかりません。");

/** The record of this salon, or 404 (another salon's id included). */
async function recordOf(db: Database, salonId: string, customerId: string) {
  if (!isUuid(customerId)) throw customerNotFound();
  const [row] = await db
    .select()
    .from(salonCustomers)
    .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, customerId)));
  if (!row) throw customerNotFound();
  return row;
}

/**
 * Other top records of the salon that are likely the same person: the same
 * phone number or address as any record of this one's chain, or the same
 * name and kana.
 */
async function duplicateSuggestions(
  db: Database,
  salonId: string,
  customerId: string,
  chain: readonly string[],
  now: Date,
): Promise<DuplicateSuggestion[]> {
  type Row = {
    id: string;
    name: string;
    kana: string;
    phone: string;
    email: string;
    user_id: string | null;
    same_phone: boolean;
    same_email: boolean;
    same_name: boolean;
  };
  const result = await rowsOf<Row>(
    db,
    sql`
    with mine as (
      select phone, email, replace(name, ' ', '') as name, kana
        from salon_customers
       where salon_id = ${salonId} and id in (${idList(chain)})
    )
    select c.id, c.name, c.kana, c.phone, c.email, c.user_id,
           (c.phone <> '' and c.phone in (select phone from mine)) as same_phone,
           (c.email <> '' and c.email in (select email from mine)) as same_email,
           (c.kana <> '' and c.name <> '' and exists (
              select 1 from mine where mine.kana = c.kana and mine.name = replace(c.name, ' ', '')
           )) as same_name
      from salon_customers c
     where c.salon_id = ${salonId}
       and c.merged_into_id is null
       and c.id <> ${customerId}::uuid
       and ((c.phone <> '' and c.phone in (select phone from mine))
         or (c.email <> '' and c.email in (select email from mine))
         or (c.kana <> '' and c.name <> '' and exists (
              select 1 from mine where mine.kana = c.kana and mine.name = replace(c.name, ' ', ''))))
     order by c.created_at, c.id
     limit ${SUGGESTION_LIMIT}`,
  );
  const stats = await customerStats(
    db,
    salonId,
    result.map((row) => row.id),
    now,
  );
  return result.map((row) => ({
    ...summaryOf({ ...row, userId: row.user_id }),
    samePhone: Boolean(row.same_phone),
    sameEmail: Boolean(row.same_email),
    sameName: Boolean(row.same_name),
    stats: stats.get(row.id) ?? emptyStats(),
  }));
}

/** Every booking of the chain (no holds, no blocks), newest first, with menus and stylist. */
async function visitHistory(
  db: Database,
  salonId: string,
  chain: readonly string[],
  timeZone: string,
): Promise<{ visits: VisitRow[]; total: number }> {
  const where = and(
    eq(bookings.salonId, salonId),
    eq(bookings.kind, "booking"),
    ne(bookings.status, "held"),
    inArray(bookings.customerId, [...chain]),
  );
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(bookings)
    .where(where);
  const rows = await db
    .select({
      id: bookings.id,
      bookingNumber: bookings.bookingNumber,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      status: bookings.status,
      cancelCategory: bookings.cancelCategory,
      source: bookings.source,
      stylist: staff.name,
      staffRequested: bookings.staffRequested,
      totalPrice: bookings.totalPrice,
    })
    .from(bookings)
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .where(where)
    .orderBy(desc(bookings.startsAt), asc(bookings.id))
    .limit(VISIT_LIMIT);
  const menuRows =
    rows.length === 0
      ? []
      : await db
          .select({ bookingId: bookingMenus.bookingId, name: bookingMenus.name })
          .from(bookingMenus)
          .where(
            and(
              eq(bookingMenus.salonId, salonId),
              inArray(
                bookingMenus.bookingId,
                rows.map((row) => row.id),
              ),
            ),
          )
          .orderBy(asc(bookingMenus.bookingId), asc(bookingMenus.position));
  const menusOf = new Map<string, string[]>();
  for (const menu of menuRows) {
    const list = menusOf.get(menu.bookingId) ?? [];
    list.push(menu.name);
    menusOf.set(menu.bookingId, list);
  }
  const visits = rows.map((row) => {
    const start = toLocal(row.startsAt, timeZone);
    return {
      id: row.id,
      bookingNumber: row.bookingNumber,
      startsAt: row.startsAt.toISOString(),
      localDate: start.date,
      localStart: start.time,
      localEnd: toLocal(row.endsAt, timeZone).time,
      status: row.status,
      cancelCategory: row.cancelCategory,
      source: row.source,
      stylist: row.stylist,
      staffRequested: row.staffRequested,
      menus: menusOf.get(row.id) ?? [],
      totalPrice: row.totalPrice,
    };
  });
  return { visits, total: Number(counted?.total ?? 0) };
}

/** The detail page (顧客カルテ) of one record of this salon. */
export async function customerDetail(
  db: Database,
  salon: { id: string; timeZone: string },
  customerId: string,
  now: Date,
): Promise<CustomerDetail> {
  const record = await recordOf(db, salon.id, customerId);
  const chain = await chainIds(db, salon.id, record.id);
  const [statsById, merged, history, parent] = await Promise.all([
    customerStats(db, salon.id, [record.id], now),
    db
      .select({
        ...summaryColumns,
        mergedAt: salonCustomers.mergedAt,
        notes: salonCustomers.notes,
      })
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, salon.id), eq(salonCustomers.mergedIntoId, record.id)))
      .orderBy(desc(salonCustomers.mergedAt), asc(salonCustomers.id)),
    visitHistory(db, salon.id, chain, salon.timeZone),
    record.mergedIntoId
      ? db
          .select(summaryColumns)
          .from(salonCustomers)
          .where(
            and(eq(salonCustomers.salonId, salon.id), eq(salonCustomers.id, record.mergedIntoId)),
          )
      : Promise.resolve([]),
  ]);
  // Suggestions only for a top record: a merged one is merged from its top's page.
  const suggestions = record.mergedIntoId
    ? []
    : await duplicateSuggestions(db, salon.id, record.id, chain, now);
  const mergedInto = parent[0] ? summaryOf(parent[0]) : null;
  return {
    customer: {
      ...summaryOf(record),
      notes: record.notes,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
    },
    mergedInto,
    stats: statsById.get(record.id) ?? emptyStats(),
    merged: merged.map((row) => ({
      ...summaryOf(row),
      mergedAt: row.mergedAt?.toISOString() ?? null,
      notes: row.notes,
    })),
    suggestions,
    visits: history.visits,
    visitTotal: history.total,
  };
}

export class CustomerConflictError extends DomainError {
  constructor(code: string, message: string) {
    super(code, message, 409);
  }
}

/**
 * Locks both records of this salon, in id order so two merges of the same
 * pair in opposite directions wait for each other instead of deadlocking;
 * the second then reads the first's result and is refused.
 */
async function lockPair(tx: Database, salonId: string, a: string, b: string) {
  if (!isUuid(a) || !isUuid(b)) throw customerNotFound();
  const rows = await tx
    .select({ id: salonCustomers.id, mergedIntoId: salonCustomers.mergedIntoId })
    .from(salonCustomers)
    .where(and(eq(salonCustomers.salonId, salonId), inArray(salonCustomers.id, [a, b])))
    .orderBy(asc(salonCustomers.id))
    .for("update");
  const first = rows.find((row) => row.id === a);
  const second = rows.find((row) => row.id === b);
  if (!first || !second) throw customerNotFound();
  return [first, second] as const;
}

/**
 * `customerId` absorbs `otherId`: the other's bookings and merged records
 * count for this one from now on. Both must be top records of the salon; a
 * top record is nobody's descendant, so pointing one top at another can
 * never close a cycle.
 */
export async function mergeCustomers(
  db: Database,
  salonId: string,
  input: { customerId: string; otherId: string },
  now: Date,
) {
  if (input.customerId === input.otherId) {
    throw new DomainError("merge_same_customer", "同じ顧客どうしは統合できません。", 422);
  }
  await db.transaction(async (tx) => {
    const [keeper, other] = await lockPair(tx, salonId, input.customerId, input.otherId);
    if (keeper.mergedIntoId) {
      throw new CustomerConflictError(
        "customer_already_merged",
        "この顧客はすでに別の顧客に統合されています。統合先の顧客の画面から操作してください。",
      );
    }
    if (other.mergedIntoId) {
      throw new CustomerConflictError(
        "customer_already_merged",
        "統合しようとした顧客は、すでに別の顧客に統合されています。画面を更新してください。",
      );
    }
    await tx
      .update(salonCustomers)
      .set({ mergedIntoId: keeper.id, mergedAt: now })
      .where(
        and(
          eq(salonCustomers.salonId, salonId),
          eq(salonCustomers.id, other.id),
          isNull(salonCustomers.mergedIntoId),
        ),
      );
  });
}

/** Undoes a merge: `otherId`, merged into `customerId`, is its own record again. */
export async function unmergeCustomer(
  db: Database,
  salonId: string,
  input: { customerId: string; otherId: string },
) {
  await db.transaction(async (tx) => {
    const [keeper, other] = await lockPair(tx, salonId, input.customerId, input.otherId);
    if (other.mergedIntoId !== keeper.id) {
      throw new CustomerConflictError(
        "customer_not_merged",
        "この顧客は統合されていません（統合はすでに取り消されています）。画面を更新してください。",
      );
    }
    await tx
      .update(salonCustomers)
      .set({ mergedIntoId: null, mergedAt: null })
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, other.id)));
  });
}

/**
 * Saves the salon's private notes. With `seenNotes` (what the editor
 * started from), a save over notes someone changed meanwhile is refused
 * instead of silently erasing their words.
 */
export async function saveCustomerNotes(
  db: Database,
  salonId: string,
  input: { customerId: string; notes: string; seenNotes?: string | undefined },
) {
  if (!isUuid(input.customerId)) throw customerNotFound();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ notes: salonCustomers.notes })
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, input.customerId)))
      .for("update");
    if (!row) throw customerNotFound();
    const current = row.notes.replace(/\r\n?/g, "\n").replace(/\s+$/u, "");
    if (input.seenNotes !== undefined && input.seenNotes !== current && input.notes !== current) {
      throw new CustomerConflictError(
        "notes_changed",
        "ほかの人がこの顧客のメモを更新しました。最新のメモを確認してから、もう一度保存してください。",
      );
    }
    const [saved] = await tx
      .update(salonCustomers)
      .set({ notes: input.notes })
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, input.customerId)))
      .returning({ notes: salonCustomers.notes, updatedAt: salonCustomers.updatedAt });
    if (!saved) throw customerNotFound();
    return { notes: saved.notes, updatedAt: saved.updatedAt.toISOString() };
  });
}
