import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../server/db/client";
import { salons } from "../server/db/schema";

/**
 * Copies the seeded salons (with what the search reads: features, photos,
 * opening hours and the free-time summary) under new ids and slugs until
 * there are `target`, in SQL: far faster than seeding, which books a
 * demo week and runs the availability engine for every salon. Copies keep
 * the search text and terms, place, genre, rating and price of their original, so the
 * mix of what matches a search stays the seed's.
 */
export async function growTo(handle: DatabaseHandle, target: number) {
  const db = handle.db;
  const count = () => db.$count(salons);
  const base = await db.$count(salons, sql`${salons.slug} not like '%-copy-%'`);
  for (let now = await count(); now < target; now = await count()) {
    const limit = Math.min(base, target - now);
    // The count before the copy makes its slugs unique, also when growing an already grown set.
    const copy = now;
    await db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(`create temp table bench_map on commit drop as
        select id as old_id, gen_random_uuid() as new_id from salons
        where slug not like '%-copy-%' order by slug limit ${limit}`),
      );
      await tx.execute(
        sql.raw(`insert into salons (id, slug, name, name_kana, genre, catch_copy,
          description, postal_code, prefecture_code, area_id, station_id, address, access, latitude,
          longitude, phone, regular_holidays, holiday_note, time_zone, price_min,
          price_max, rating_average, review_count, search_text, search_terms, status)
        select m.new_id, s.slug || '-copy-${copy}', s.name, s.name_kana, s.genre, s.catch_copy,
          s.description, s.postal_code, s.prefecture_code, s.area_id, s.station_id, s.address,
          s.access, s.latitude, s.longitude, s.phone, s.regular_holidays,
          s.holiday_note, s.time_zone, s.price_min, s.price_max, s.rating_average, s.review_count,
          s.search_text, s.search_terms, s.status
        from bench_map m join salons s on s.id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_opening_hours (salon_id, weekday, opens, closes)
        select m.new_id, h.weekday, h.opens, h.closes from bench_map m join salon_opening_hours h on h.salon_id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_features (salon_id, feature_slug)
        select m.new_id, f.feature_slug from bench_map m join salon_features f on f.salon_id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_photos (salon_id, url, alt, width, height, sort_order)
        select m.new_id, p.url, p.alt, p.width, p.height, p.sort_order
        from bench_map m join salon_photos p on p.salon_id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_free_days (salon_id, date, free_minutes, first_free_minute,
          last_free_minute, free_slots_count, updated_at)
        select m.new_id, f.date, f.free_minutes, f.first_free_minute, f.last_free_minute,
          f.free_slots_count, f.updated_at
        from bench_map m join salon_free_days f on f.salon_id = m.old_id`),
      );
    });
  }
  // Vacuum too, as autovacuum soon would: until the copies' pages are marked
  // all-visible, an index-only scan (the search's `@>` on the order indexes,
  // decision 0023) must still visit the table for every row it reads.
  await db.execute(sql`vacuum analyze`);
}
