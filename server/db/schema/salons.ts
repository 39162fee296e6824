import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import type { SalonGenre } from "../../../common/genres";
import type { PhotoVariant } from "../../../common/photo-variants";
import { users } from "./accounts";
import { areas, prefectures, stations } from "./areas";
import { createdAt, id, updatedAt } from "./common";
import { menus } from "./menus";
import { staff } from "./staff";

export const salonStatuses = ["draft", "published", "suspended"] as const;
export type SalonStatus = (typeof salonStatuses)[number];

/**
 * An opening interval of one weekday (0 = Sunday), local "HH:MM" in the
 * salon's time zone: rows of salon_opening_hours (schema/schedules.ts).
 */
export type OpeningHours = { weekday: number; opens: string; closes: string };

export const salons = pgTable(
  "salons",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    nameKana: text("name_kana").notNull(),
    genre: text("genre").$type<SalonGenre>().notNull(),
    catchCopy: text("catch_copy").notNull().default(""),
    description: text("description").notNull().default(""),
    postalCode: text("postal_code").notNull(),
    prefectureCode: smallint("prefecture_code")
      .notNull()
      .references(() => prefectures.code),
    areaId: uuid("area_id")
      .notNull()
      .references(() => areas.id),
    stationId: uuid("station_id").references(() => stations.id),
    address: text("address").notNull(),
    access: text("access").notNull().default(""),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    phone: text("phone").notNull().default(""),
    /** Weekdays (0 = Sunday) the salon is regularly closed. */
    regularHolidays: smallint("regular_holidays").array().notNull().default(sql`'{}'::smallint[]`),
    holidayNote: text("holiday_note").notNull().default(""),
    timeZone: text("time_zone").notNull().default("Asia/Tokyo"),
    priceMin: integer("price_min").notNull().default(0),
    priceMax: integer("price_max").notNull().default(0),
    /** Kept in step with reviews so search can sort and filter without aggregating. */
    ratingAverage: real("rating_average").notNull().default(0),
    reviewCount: integer("review_count").notNull().default(0),
    /**
     * The recommended order's score (docs/decisions/0006-recommended-ranking.md),
     * stored and indexed so the default order reads the first page off an
     * index instead of computing and sorting every salon. 3.5 and 10 are
     * PRIOR_MEAN and PRIOR_WEIGHT in server/salons/search.ts.
     */
    recommendedScore: doublePrecision("recommended_score").generatedAlwaysAs(
      sql`(rating_average::double precision * review_count + 3.5 * 10) / (review_count + 10)`,
    ),
    /** Normalized name, kana, area, station and menu names for keyword search (pg_trgm). */
    searchText: text("search_text").notNull().default(""),
    /**
     * The salon's genre, features and the dictionary keywords in its search
     * text as tokens (g:hair, f:private-room, k:カット), tested with `@>` by
     * the search (docs/decisions/0023-search-terms.md). Written by
     * recomputeSalonsDerived; salonSearchTerms in server/search/search-terms.ts.
     */
    searchTerms: text("search_terms").array().notNull().default(sql`'{}'::text[]`),
    status: text("status").$type<SalonStatus>().notNull().default("draft"),
    /**
     * 適格請求書発行事業者登録番号 (T + 13 digits), printed on the 領収書 (decision
     * 0079); null when the salon has none.
     */
    invoiceNumber: text("invoice_number"),
    /**
     * Optimistic concurrency for the admin editor: every edit of the salon,
     * on any tab, sends the version it loaded and bumps it
     * (bumpSalonVersion in server/admin/salon-editor.server.ts).
     */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "salons_genre_valid",
      sql`${t.genre} in ('hair', 'nail', 'eyelash', 'esthetic', 'headspa')`,
    ),
    check("salons_status_valid", sql`${t.status} in ('draft', 'published', 'suspended')`),
    check("salons_invoice_number_format", sql`${t.invoiceNumber} ~ '^T[0-9]{13}$'`),
    check("salons_latitude_range", sql`${t.latitude} between -90 and 90`),
    check("salons_longitude_range", sql`${t.longitude} between -180 and 180`),
    check("salons_price_min_nonnegative", sql`${t.priceMin} >= 0`),
    check("salons_price_range_ordered", sql`${t.priceMax} >= ${t.priceMin}`),
    check("salons_rating_average_range", sql`${t.ratingAverage} between 0 and 5`),
    check("salons_review_count_nonnegative", sql`${t.reviewCount} >= 0`),
    check("salons_postal_code_format", sql`${t.postalCode} ~ '^[0-9]{3}-[0-9]{4}$'`),
    index("salons_area_idx").on(t.status, t.areaId),
    index("salons_prefecture_idx").on(t.status, t.prefectureCode),
    index("salons_station_idx").on(t.stationId),
    index("salons_genre_idx").on(t.status, t.genre),
    // The ordered, capped reads of the search walk these two in order; id and
    // search_terms at the end (Drizzle has no INCLUDE) let the `@>` test and
    // the page's ids come from the index alone (decision 0023).
    index("salons_rating_idx").on(
      t.status,
      t.ratingAverage.desc(),
      t.reviewCount.desc(),
      t.slug,
      t.id,
      t.searchTerms,
    ),
    index("salons_recommended_idx").on(
      t.status,
      t.recommendedScore.desc(),
      t.reviewCount.desc(),
      t.slug,
      t.id,
      t.searchTerms,
    ),
    index("salons_price_idx").on(t.status, t.priceMin),
    // fastupdate off: every search reads these, salons change only by edits.
    // With it on, bulk writes (the seed, a dictionary recompute) wait in a
    // pending list every search scans until a vacuum: a zero-result token
    // search took 6.9 ms instead of 0.2 at 10,000 salons (decision 0023).
    index("salons_search_terms_idx").using("gin", t.searchTerms).with({ fastupdate: false }),
    index("salons_search_text_trgm_idx")
      .using("gin", sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
    // The admin list (docs/decisions/0017): its search by name, kana or slug
    // (adminSearchExpression in server/admin/salon-list.server.ts, the same
    // expression) and its default and name orders stay on indexes at 10,000 salons.
    index("salons_admin_search_trgm_idx").using(
      "gin",
      sql`(${t.name} || ' ' || ${t.nameKana} || ' ' || ${t.slug}) gin_trgm_ops`,
    ),
    index("salons_admin_updated_idx").on(t.updatedAt, t.id),
    index("salons_admin_name_idx").on(t.name, t.id),
    index("salons_admin_created_idx").on(t.createdAt, t.id),
  ],
);

/**
 * One row: the fingerprint (dictionary keyword entries + token code version)
 * the stored salons.search_terms were computed with. When a deploy changes
 * it, ensureSearchTermsCurrent recomputes them at start (decision 0023).
 */
export const searchTermsState = pgTable(
  "search_terms_state",
  {
    id: smallint("id").primaryKey().default(1),
    fingerprint: text("fingerprint").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check("search_terms_state_one_row", sql`${t.id} = 1`)],
);

/** Tags such as 駅近 or 個室あり that visitors filter by. */
export const features = pgTable("features", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const salonFeatures = pgTable(
  "salon_features",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    featureSlug: text("feature_slug")
      .notNull()
      .references(() => features.slug, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.featureSlug] }),
    index("salon_features_feature_idx").on(t.featureSlug, t.salonId),
  ],
);

export const salonPhotos = pgTable(
  "salon_photos",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    alt: text("alt").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    /**
     * The WebP sizes of an uploaded photo (url is the largest); empty for
     * photos that are a single file, such as the seed's SVGs.
     */
    variants: jsonb("variants").$type<PhotoVariant[]>().notNull().default([]),
    /**
     * スタイル (issue 31): the stylist who did the style shown and the menu it
     * was, where known. Only the salon's own (the editors check it); a
     * stylist or menu removed leaves the photo untagged.
     */
    staffId: uuid("staff_id").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    menuId: uuid("menu_id").references((): AnyPgColumn => menus.id, { onDelete: "set null" }),
  },
  (t) => [
    index("salon_photos_salon_idx").on(t.salonId, t.sortOrder),
    // Behind the foreign keys: removing a stylist or a menu finds its photos by index.
    index("salon_photos_staff_idx").on(t.staffId),
    index("salon_photos_menu_idx").on(t.menuId),
    check("salon_photos_size_positive", sql`${t.width} > 0 and ${t.height} > 0`),
  ],
);

/** Which users (role owner) manage which salons. */
export const salonOwners = pgTable(
  "salon_owners",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.userId] }),
    index("salon_owners_user_idx").on(t.userId),
  ],
);
