-- Custom SQL migration file, put your code below! --
-- Buffer before (issue 29, point 4; decision 0048): a booking occupies
-- [coalesce(occupied_from, starts_at), occupied_until), so the exclusion
-- constraint keeps the preparation time before a booking free too (blocks
-- and older bookings have no occupied_from: their start). Same WHERE clause
-- as migration 0004 (the occupying statuses of server/db/schema/bookings.ts).
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_staff_no_overlap";
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_staff_no_overlap"
  EXCLUDE USING gist ("salon_id" WITH =, "staff_id" WITH =,
    tstzrange(coalesce("occupied_from", "starts_at"), "occupied_until", '[)') WITH &&)
  WHERE ("status" IN ('held', 'confirmed', 'completed'));
--> statement-breakpoint
-- booking_availability_data answers the buffer before in the settings and
-- starts busy time at the occupied start; a copy of
-- server/bookings/availability-data.sql (availability-data-sql.test.ts).
CREATE OR REPLACE FUNCTION booking_availability_data(
  p_salon uuid,
  p_menus uuid[],
  p_from date,
  p_to date,
  p_now timestamptz,
  p_ignore_holds boolean,
  p_statuses text[],
  p_default_buffer integer,
  -- The salon's back office reads its salon in any status (a draft salon
  -- still has stylists and bookings); visitors' paths read published ones.
  p_any_status boolean
) RETURNS json
LANGUAGE plpgsql STABLE
-- PL/pgSQL kept choosing a custom plan, i.e. planned the statement on every
-- call (1.3 ms a call, 0.58 ms with the generic plan). The generic plan is
-- the same index lookups by salon and stylist for any argument.
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
  result json;
BEGIN
  WITH salon AS (
    SELECT id, name, slug, time_zone FROM salons
    WHERE id = p_salon AND (status = 'published' OR p_any_status)
  ),
  settings AS (
    SELECT * FROM salon_booking_settings WHERE salon_id = (SELECT id FROM salon)
  ),
  -- idx: the stylist's place in 'members', which schedules and busy time name
  -- instead of repeating a 36-character id on every row.
  members AS (
    SELECT id, (row_number() OVER (ORDER BY sort_order, id) - 1)::int AS idx
    FROM staff WHERE salon_id = (SELECT id FROM salon) AND active
  ),
  -- A day before and after the range: bookings across local midnight and buffers.
  bounds AS (
    SELECT ((p_from - 1)::timestamp AT TIME ZONE s.time_zone) AS starts,
           ((p_to + 2)::timestamp AT TIME ZONE s.time_zone) AS ends,
           make_interval(mins => coalesce((SELECT buffer_after_minutes FROM settings),
             p_default_buffer)) AS buffer,
           make_interval(mins => coalesce((SELECT buffer_before_minutes FROM settings), 0))
             AS buffer_before
    FROM salon s
  )
  SELECT json_build_object(
    'salon', (SELECT json_build_object('id', s.id, 'name', s.name, 'slug', s.slug,
        'timeZone', s.time_zone) FROM salon s),
    'menus', (SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'price', m.price,
        'durationMinutes', m.duration_minutes))
      FROM menus m
      WHERE m.salon_id = (SELECT id FROM salon) AND m.published AND m.id = ANY (p_menus)),
    'members', (SELECT json_agg(t.id ORDER BY t.idx) FROM members t),
    'abilities', (SELECT json_agg(json_build_object('menuId', ms.menu_id, 'staffId', ms.staff_id))
      FROM menu_staff ms WHERE ms.menu_id = ANY (p_menus)),
    'settings', (SELECT json_build_object(
        'slotStepMinutes', r.slot_step_minutes, 'leadTimeMinutes', r.lead_time_minutes,
        'bookingWindowDays', r.booking_window_days, 'bufferAfterMinutes', r.buffer_after_minutes,
        'bufferBeforeMinutes', r.buffer_before_minutes,
        'dailyLimitPerStaff', r.daily_limit_per_staff,
        'sameDayCutoff', to_char(r.same_day_cutoff, 'HH24:MI'),
        'closedOnHolidays', r.closed_on_public_holidays,
        'cancellationCutoffHours', r.cancellation_cutoff_hours, 'holdMinutes', r.hold_minutes)
      FROM settings r),
    'hours', (SELECT json_agg(json_build_object('weekday', h.weekday,
        'start', to_char(h.opens, 'HH24:MI'), 'end', to_char(h.closes, 'HH24:MI'))
        ORDER BY h.weekday, h.opens)
      FROM salon_opening_hours h WHERE h.salon_id = (SELECT id FROM salon)),
    -- [member idx, weekday, start and end as minutes after midnight, valid
    -- from, valid until]; unordered: the engine sorts what it merges.
    'schedules', (SELECT json_agg(json_build_array(t.idx, w.weekday,
        (date_part('epoch', w.starts_at) / 60)::int, (date_part('epoch', w.ends_at) / 60)::int,
        w.valid_from, w.valid_until))
      FROM staff_schedules w JOIN members t ON t.id = w.staff_id
      WHERE w.salon_id = (SELECT id FROM salon)
        AND (w.valid_from IS NULL OR w.valid_from <= p_to)
        AND (w.valid_until IS NULL OR w.valid_until >= p_from)),
    'exceptions', (SELECT json_agg(json_build_object('staffId', e.staff_id, 'date', e.date,
        'kind', e.kind, 'start', to_char(e.starts_at, 'HH24:MI'),
        'end', to_char(e.ends_at, 'HH24:MI'))
        ORDER BY e.date, e.starts_at)
      FROM schedule_exceptions e
      WHERE e.salon_id = (SELECT id FROM salon) AND e.date BETWEEN p_from AND p_to),
    -- The engine adds today's buffers around the start and the end; a
    -- booking made under a longer buffer keeps the time it was given
    -- (occupied_from, null = starts_at, and occupied_until). A hold counts
    -- while it lives, unless the caller (the search summary) leaves holds out.
    -- A block (bookings.kind, the salon's 休憩 or 研修) has no buffers
    -- and is not a booking the daily limit counts.
    -- [member idx, start ms, end ms, local date of the start, is a block]; unordered.
    'busy', (SELECT json_agg(json_build_array(t.idx,
        (date_part('epoch', least(b.starts_at,
          coalesce(b.occupied_from, b.starts_at) + (SELECT buffer_before FROM bounds)))
          * 1000)::bigint,
        (date_part('epoch', greatest(b.ends_at, b.occupied_until - (SELECT buffer FROM bounds)))
          * 1000)::bigint,
        (b.starts_at AT TIME ZONE (SELECT time_zone FROM salon))::date,
        b.kind = 'block'))
      FROM bookings b JOIN members t ON t.id = b.staff_id
      WHERE b.salon_id = (SELECT id FROM salon)
        AND b.status = ANY (p_statuses)
        AND (b.status <> 'held' OR (NOT p_ignore_holds AND b.hold_expires_at > p_now))
        AND b.starts_at < (SELECT ends FROM bounds)
        -- The lower bound the index can use (bookings_span_bounded): without
        -- it, every earlier booking of the stylist was read and filtered.
        AND b.starts_at > (SELECT starts FROM bounds) - interval '2 days'
        AND b.occupied_until > (SELECT starts FROM bounds))
  ) INTO result;
  RETURN result;
END
$fn$;
