import { and, asc, eq, sql } from "drizzle-orm";
import { normalizeEmail, normalizePhone } from "../../common/field-rules";
import type { Database } from "../db/client";
import { salonCustomers } from "../db/schema";
import { customerWebhookData, emitWebhookEvent } from "../webhooks/outbox.server";

/**
 * The salon's customer record a booking belongs to (顧客カルテ, issue 28,
 * point 6). Called inside the transaction that confirms or enters a
 * booking. One person is one record per salon: the account's record if the
 * customer booked with one, else the record with the same phone number,
 * else the same address; a new record otherwise. The record found is the
 * top of its merge chain, so a booking never lands on a merged-away row;
 * a phone or address match under another name gets a record of its own,
 * merged into the one found, which the salon can undo.
 */

export type CustomerContact = {
  salonId: string;
  userId: string | null;
  name: string;
  kana: string;
  phone: string;
  email: string;
};

/** A phone number and an address as records keep them (what a contact is matched on). */
export const normalizedPhone = (phone: string) => normalizePhone(phone) ?? "";
export const normalizedEmail = (email: string) => normalizeEmail(email).toLowerCase();
/** Names with one space between parts; kana as katakana (common/field-rules.ts kanaName), so search meets them. */
const normalizedName = (name: string) => name.trim().replace(/\s+/gu, " ");
const normalizedKana = (kana: string) =>
  normalizedName(kana.normalize("NFKC")).replace(/[\u3041-\u3096]/gu, (c) =>
    String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60),
  );

/** The same name as read, or one the start of the other (a surname alone: ヤマダ, ヤマダ ハナコ). */
function sameReading(a: string, b: string) {
  const x = a.replace(/\s/gu, "");
  const y = b.replace(/\s/gu, "");
  return x.startsWith(y) || y.startsWith(x);
}

/** A chain of merges is at most this deep (the back office and the coupons read it alike). */
const MAX_CHAIN_HOPS = 50;

/** uuid literals for an IN list. */
export const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * `chain(id, top_id)`: each of the given records and every record merged
 * into it, recursively, with the given record it counts for.
 */
export const chainCte = (salonId: string, topIds: readonly string[]) => sql`
  with recursive chain(id, top_id, depth) as (
    select c.id, c.id, 0
      from salon_customers c
     where c.salon_id = ${salonId} and c.id in (${idList(topIds)})
    union all
    select c.id, chain.top_id, chain.depth + 1
      from salon_customers c
      join chain on c.merged_into_id = chain.id
     where c.salon_id = ${salonId} and chain.depth < ${MAX_CHAIN_HOPS}
  )`;

/** Follows merged_into_id to the record that absorbed this one. */
export async function topOfMergeChain(
  tx: Pick<Database, "select">,
  salonId: string,
  customerId: string,
): Promise<string> {
  let current = customerId;
  // A chain is at most as long as the salon's customers; 50 hops means a cycle no write makes.
  for (let hop = 0; hop < 50; hop++) {
    const [row] = await tx
      .select({ mergedIntoId: salonCustomers.mergedIntoId })
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, current)));
    if (!row?.mergedIntoId) return current;
    current = row.mergedIntoId;
  }
  return current;
}

/**
 * The person this contact is, as the salon knows them: the account's own
 * record first; else a record with the same phone number, else the same
 * address. Any record of the salon matches, merged ones too (a phone
 * number written on a record merged away still names the person), and the
 * answer is the top of its chain. A phone or address match that belongs to
 * ANOTHER account is not this person (a family sharing a landline): the
 * contact gets its own record, and the back office suggests a merge.
 */
async function findExisting(
  tx: Pick<Database, "select">,
  contact: CustomerContact,
  phone: string,
  email: string,
): Promise<{ id: string; byAccount: boolean } | null> {
  const bySalon = eq(salonCustomers.salonId, contact.salonId);
  const tries = [
    contact.userId ? eq(salonCustomers.userId, contact.userId) : null,
    phone ? eq(salonCustomers.phone, phone) : null,
    email ? eq(salonCustomers.email, email) : null,
  ];
  for (const [index, match] of tries.entries()) {
    if (!match) continue;
    const rows = await tx
      .select({ id: salonCustomers.id, userId: salonCustomers.userId })
      .from(salonCustomers)
      .where(and(bySalon, match))
      // Top records first, then the oldest: the record the salon has known longest.
      .orderBy(sql`${salonCustomers.mergedIntoId} is not null`, asc(salonCustomers.createdAt))
      .limit(20);
    const fits = rows.find(
      (row) => index === 0 || !contact.userId || !row.userId || row.userId === contact.userId,
    );
    if (fits)
      return { id: await topOfMergeChain(tx, contact.salonId, fits.id), byAccount: index === 0 };
  }
  return null;
}

/** The id of the customer record for this contact, created when there is none. */
export async function attachCustomer(tx: Database, contact: CustomerContact): Promise<string> {
  const phone = normalizedPhone(contact.phone);
  const email = normalizedEmail(contact.email);
  const found = await findExisting(tx, contact, phone, email);
  const existing = found?.id ?? null;
  if (found && !found.byAccount) {
    // The same phone or address under another name (a family's landline, a
    // typo, a married name): merged into the person the salon knows, as its
    // own record, so the karte lists it with 統合を取り消す (decision 0039).
    const [known] = await tx
      .select({ kana: salonCustomers.kana })
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, contact.salonId), eq(salonCustomers.id, found.id)));
    const kana = normalizedKana(contact.kana);
    if (known?.kana && kana && !sameReading(known.kana, kana)) {
      // Called before: the record already merged in for this name.
      const children = await tx
        .select({ id: salonCustomers.id, kana: salonCustomers.kana })
        .from(salonCustomers)
        .where(
          and(
            eq(salonCustomers.salonId, contact.salonId),
            eq(salonCustomers.mergedIntoId, found.id),
          ),
        )
        .orderBy(asc(salonCustomers.createdAt));
      const again = children.find((child) => child.kana && sameReading(child.kana, kana));
      if (again) return again.id;
      const [merged] = await tx
        .insert(salonCustomers)
        .values({
          salonId: contact.salonId,
          userId: contact.userId,
          name: normalizedName(contact.name),
          kana,
          phone,
          email,
          mergedIntoId: found.id,
          mergedAt: sql`now()`,
        })
        .returning({ id: salonCustomers.id });
      if (!merged) throw new Error("customer not inserted");
      return merged.id;
    }
  }
  if (existing) {
    // Fill in what the record lacked (an account on a walk-in's record, a new phone…);
    // never overwrite what the salon already knows.
    const [row] = await tx
      .select()
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, contact.salonId), eq(salonCustomers.id, existing)));
    if (row) {
      const patch: Partial<typeof salonCustomers.$inferInsert> = {};
      if (!row.userId && contact.userId) patch.userId = contact.userId;
      if (!row.phone && phone) patch.phone = phone;
      if (!row.email && email) patch.email = email;
      if (!row.name && contact.name.trim()) patch.name = normalizedName(contact.name);
      if (!row.kana && contact.kana.trim()) patch.kana = normalizedKana(contact.kana);
      if (Object.keys(patch).length > 0) {
        await tx.update(salonCustomers).set(patch).where(eq(salonCustomers.id, existing));
      }
    }
    return existing;
  }
  const [created] = await tx
    .insert(salonCustomers)
    .values({
      salonId: contact.salonId,
      userId: contact.userId,
      name: normalizedName(contact.name),
      kana: normalizedKana(contact.kana),
      phone,
      email,
    })
    .returning();
  if (!created) throw new Error("customer not inserted");
  // A new person for the salon: its webhooks hear of it in this transaction (decision 0086).
  await emitWebhookEvent(tx, {
    salonId: contact.salonId,
    type: "customer.created",
    at: created.createdAt,
    data: async () => customerWebhookData(created),
  });
  return created.id;
}

/**
 * Gives every booking made before customer records existed (migration 0019)
 * or written in bulk (the seed) its salon's customer record, as
 * attachCustomer would have: by account, then phone, then address, an
 * existing record first, else one new record per person. Set-based, in one
 * transaction; run at start (prepareDatabase) and after the seed. Does
 * nothing, in one indexed look, when every booking has its record.
 */
export async function backfillSalonCustomers(db: Database): Promise<number> {
  const pending = sql`b.customer_id IS NULL AND b.kind = 'booking' AND b.status <> 'held'`;
  const [first] = (
    (await db.execute(
      sql`SELECT count(*)::int AS n FROM bookings b WHERE ${pending}`,
    )) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  if (!first || first.n === 0) return 0;
  const phone = sql`regexp_replace(b.customer_phone, '[^0-9]', '', 'g')`;
  const email = sql`lower(trim(b.customer_email))`;
  // Each key: how a booking names its person, and how a record matches it.
  const keys = [
    { booking: sql`b.user_id`, record: sql`c.user_id`, has: sql`b.user_id IS NOT NULL` },
    { booking: phone, record: sql`c.phone`, has: sql`b.user_id IS NULL AND ${phone} <> ''` },
    { booking: email, record: sql`c.email`, has: sql`b.user_id IS NULL AND ${email} <> ''` },
  ];
  await db.transaction(async (tx) => {
    for (const key of keys) {
      const link = sql`
        UPDATE bookings b SET customer_id = (
          SELECT c.id FROM salon_customers c
          WHERE c.salon_id = b.salon_id AND ${key.record} = ${key.booking}
            AND c.merged_into_id IS NULL
          ORDER BY c.created_at, c.id LIMIT 1)
        WHERE ${pending} AND ${key.has}`;
      await tx.execute(link);
      // The people still without a record: one each, from their latest booking.
      await tx.execute(sql`
        INSERT INTO salon_customers (salon_id, user_id, name, kana, phone, email)
        SELECT DISTINCT ON (b.salon_id, ${key.booking})
          b.salon_id, b.user_id, b.customer_name, b.customer_kana, ${phone}, ${email}
        FROM bookings b
        WHERE ${pending} AND ${key.has}
        ORDER BY b.salon_id, ${key.booking}, b.created_at DESC`);
      await tx.execute(link);
    }
  });
  return first.n;
}
