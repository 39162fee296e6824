import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";

const migrations = path.resolve("server/db/migrations");

/** The migrations folder as it was before 0004 (the first four entries of the journal). */
function foldersBefore0004() {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-0003-"));
  cpSync(migrations, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, 4);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const oldData = `
insert into prefectures values (13, 'tokyo', '東京都', 'とうきょうと', '関東');
insert into areas (id, slug, prefecture_code, name, kana)
  values ('00000000-0000-4000-8000-000000000001', 'a', 13, '渋谷', 'しぶや');
insert into salons (id, slug, name, name_kana, genre, postal_code, prefecture_code, area_id,
  address, latitude, longitude, opening_hours, status)
  values ('00000000-0000-4000-8000-000000000002', 's', 'S', 'エス', 'hair', '150-0001', 13,
  '00000000-0000-4000-8000-000000000001', '東京都渋谷区', 35, 139,
  '[{"weekday":1,"opens":"10:00","closes":"20:00"},{"weekday":2,"opens":"10:00","closes":"19:00"}]',
  'published');
insert into staff (id, slug, salon_id, name, kana, role)
  values ('00000000-0000-4000-8000-000000000003', 'st', '00000000-0000-4000-8000-000000000002',
  '山田', 'やまだ', 'スタイリスト');
insert into staff_shifts (staff_id, weekday, starts_at, ends_at)
  values ('00000000-0000-4000-8000-000000000003', 1, '10:00', '20:00');
insert into staff_time_off (staff_id, starts_at, ends_at, reason)
  values ('00000000-0000-4000-8000-000000000003', '2026-12-01T00:00:00+09', '2026-12-03T00:00:00+09', '休暇');
insert into menus (id, salon_id, category, name, price, duration_minutes) values
  ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-8000-000000000002', 'カット', 'カット', 5000, 60),
  ('00000000-0000-4000-8000-000000000005', '00000000-0000-4000-8000-000000000002', 'カラー', 'カラー', 5000, 60);
insert into users (id, name, email) values ('u', 'u', 'u@example.jp');
insert into bookings (id, user_id, salon_id, staff_id, starts_at, ends_at, total_price)
  values ('00000000-0000-4000-8000-000000000006', 'u', '00000000-0000-4000-8000-000000000002',
  '00000000-0000-4000-8000-000000000003', '2026-12-05T01:00:00Z', '2026-12-05T02:00:00Z', 10000);
insert into booking_menus values
  ('00000000-0000-4000-8000-000000000006', '00000000-0000-4000-8000-000000000004', 'カット', 5000, 60),
  ('00000000-0000-4000-8000-000000000006', '00000000-0000-4000-8000-000000000005', 'カラー', 5000, 60);
`;

// The migration itself is engine-neutral SQL; it was also run by hand on PostgreSQL
// (docs/decisions/0009-booking-data-model.md). PGlite alone keeps this test cheap.
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("migration 0004", () => {
  it("converts the data of a database migrated to 0003", async () => {
    const old = foldersBefore0004();
    const client = await PGlite.create({ extensions: { btree_gist, pg_trgm } });
    try {
      await migrate(drizzle(client), { migrationsFolder: old });
      await client.exec(oldData);
      await migrate(drizzle(client), { migrationsFolder: migrations });
      const rows = async (query: string) => (await client.query(query)).rows;
      expect(
        await rows(
          "select weekday, opens::text, closes::text from salon_opening_hours order by weekday",
        ),
      ).toEqual([
        { weekday: 1, opens: "10:00:00", closes: "20:00:00" },
        { weekday: 2, opens: "10:00:00", closes: "19:00:00" },
      ]);
      expect(await rows("select salon_id, weekday, starts_at::text from staff_schedules")).toEqual([
        { salon_id: "00000000-0000-4000-8000-000000000002", weekday: 1, starts_at: "10:00:00" },
      ]);
      expect(
        await rows("select date::text, kind, note from schedule_exceptions order by date"),
      ).toEqual([
        { date: "2026-12-01", kind: "closed", note: "休暇" },
        { date: "2026-12-02", kind: "closed", note: "休暇" },
      ]);
      const [booking] = await rows(
        "select booking_number, occupied_until = ends_at as same_end, status from bookings",
      );
      expect(booking).toMatchObject({ same_end: true, status: "confirmed" });
      expect((booking as { booking_number: string }).booking_number).toMatch(
        /^[0-9A-F]{4}-[0-9A-F]{4}$/,
      );
      expect(
        await rows("select name, position, salon_id from booking_menus order by position"),
      ).toEqual([
        { name: "カット", position: 0, salon_id: "00000000-0000-4000-8000-000000000002" },
        { name: "カラー", position: 1, salon_id: "00000000-0000-4000-8000-000000000002" },
      ]);
    } finally {
      await client.close();
      rmSync(old, { recursive: true, force: true });
    }
  });
});
