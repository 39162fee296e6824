import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  smallint,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { id } from "./common";

/** The 47 prefectures, keyed by their JIS code (1 Hokkaido … 47 Okinawa). */
export const prefectures = pgTable(
  "prefectures",
  {
    code: smallint("code").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    kana: text("kana").notNull(),
    region: text("region").notNull(),
  },
  (t) => [check("prefectures_code_range", sql`${t.code} between 1 and 47`)],
);

/** A searchable area: a city, ward or district inside a prefecture (渋谷・原宿, 梅田 …). */
export const areas = pgTable(
  "areas",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    prefectureCode: smallint("prefecture_code")
      .notNull()
      .references(() => prefectures.code),
    /** A sub-area points at its parent area (表参道 inside 渋谷・原宿). */
    parentId: uuid("parent_id").references((): AnyPgColumn => areas.id),
    name: text("name").notNull(),
    kana: text("kana").notNull(),
    description: text("description").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [index("areas_prefecture_idx").on(t.prefectureCode, t.sortOrder)],
);

export const stations = pgTable(
  "stations",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    areaId: uuid("area_id")
      .notNull()
      .references(() => areas.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kana: text("kana").notNull(),
    lines: text("lines").array().notNull().default(sql`'{}'::text[]`),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
  },
  (t) => [
    index("stations_area_idx").on(t.areaId),
    check("stations_latitude_range", sql`${t.latitude} between -90 and 90`),
    check("stations_longitude_range", sql`${t.longitude} between -180 and 180`),
  ],
);
