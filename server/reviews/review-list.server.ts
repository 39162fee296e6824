import { and, asc, count, desc, eq, inArray, isNull, min, type SQL, sql } from "drizzle-orm";
import { SITE_TIME_ZONE } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import type { ReviewListQuery } from "../../common/review-list-query";
import {
  formatRating,
  REVIEWS_PER_PAGE,
  type ReviewAspectKey,
  type ReviewSort,
  reviewAspects,
} from "../../common/reviews";
import type { Database } from "../db/client";
import { bookingMenus, menus, reviews, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";

/**
 * The public side of a salon's reviews (issue 30, point 3): the summary, one
 * page of shown reviews with their visit, and the choices of the list's
 * filters. Hidden reviews are never read here. Every shown review stands on
 * a completed booking (reviews.booking_id is required), hence 来店済み.
 */

const shown = (salonId: string) => and(eq(reviews.salonId, salonId), isNull(reviews.hiddenAt));

/** An average as the pages and the API give it: one decimal, as salons.rating_average is. */
const oneDecimal = (average: number) => Number(formatRating(average));

export type ReviewSummary = {
  /** One decimal; 0 with no review (no rating, not a bad one). */
  average: number;
  count: number;
  /** Counts by star, 5 first. */
  distribution: { rating: number; count: number }[];
  /** Each aspect's average over the reviews that rated it (null: none did). */
  aspects: { key: ReviewAspectKey; label: string; average: number | null; count: number }[];
};

/** The salon's shown reviews in one read: average, count, stars, aspects. */
export async function reviewSummary(db: Database, salonId: string): Promise<ReviewSummary> {
  const byStar = (star: number) =>
    sql<number>`count(*) filter (where ${reviews.rating} = ${star})`.mapWith(Number);
  const aspectAverage = (column: (typeof reviews)[ReviewAspectKey]) =>
    sql<string | null>`avg(${column})`;
  const [row] = await db
    .select({
      count: count(),
      average: sql<string | null>`avg(${reviews.rating})`,
      star5: byStar(5),
      star4: byStar(4),
      star3: byStar(3),
      star2: byStar(2),
      star1: byStar(1),
      ratingAtmosphere: aspectAverage(reviews.ratingAtmosphere),
      ratingAtmosphereCount: count(reviews.ratingAtmosphere),
      ratingService: aspectAverage(reviews.ratingService),
      ratingServiceCount: count(reviews.ratingService),
      ratingTechnique: aspectAverage(reviews.ratingTechnique),
      ratingTechniqueCount: count(reviews.ratingTechnique),
      ratingFinish: aspectAverage(reviews.ratingFinish),
      ratingFinishCount: count(reviews.ratingFinish),
    })
    .from(reviews)
    .where(shown(salonId));
  const total = Number(row?.count ?? 0);
  const star = (n: 1 | 2 | 3 | 4 | 5) => row?.[`star${n}`] ?? 0;
  return {
    average: row?.average == null ? 0 : oneDecimal(Number(row.average)),
    count: total,
    distribution: ([5, 4, 3, 2, 1] as const).map((rating) => ({ rating, count: star(rating) })),
    aspects: reviewAspects.map(({ key, label }) => {
      const average = row?.[key];
      return {
        key,
        label,
        average: average == null ? null : oneDecimal(Number(average)),
        count: Number(row?.[`${key}Count`] ?? 0),
      };
    }),
  };
}

export type ReviewFilterChoices = {
  /** The salon's stylists with a shown review, in the salon's order. */
  stylists: { id: string; slug: string; name: string }[];
  /** The menu genres (menus.category) of the reviewed visits, in the menu's order. */
  genres: string[];
};

/** What the list can be narrowed to: only choices that find something. */
export async function reviewFilterChoices(
  db: Database,
  salonId: string,
): Promise<ReviewFilterChoices> {
  const [stylists, genres] = await Promise.all([
    db
      .selectDistinct({ id: staff.id, slug: staff.slug, name: staff.name, order: staff.sortOrder })
      .from(reviews)
      .innerJoin(staff, eq(staff.id, reviews.staffId))
      .where(shown(salonId))
      .orderBy(asc(staff.sortOrder), asc(staff.slug)),
    db
      .select({ genre: menus.category, order: min(menus.sortOrder) })
      .from(reviews)
      .innerJoin(
        bookingMenus,
        and(eq(bookingMenus.bookingId, reviews.bookingId), eq(bookingMenus.salonId, salonId)),
      )
      .innerJoin(menus, and(eq(menus.id, bookingMenus.menuId), eq(menus.salonId, salonId)))
      .where(shown(salonId))
      .groupBy(menus.category)
      .orderBy(asc(min(menus.sortOrder)), asc(menus.category)),
  ]);
  return {
    stylists: stylists.map(({ id, slug, name }) => ({ id, slug, name })),
    genres: genres.map((row) => row.genre),
  };
}

export type ReviewListOptions = {
  sort: ReviewSort;
  /** Only the visits of this stylist. */
  staffId?: string | null;
  /** Only visits with a menu of this genre (menus.category). */
  genre?: string | null;
  /** 1-based. */
  page: number;
  pageSize?: number;
};

const orders: Record<ReviewSort, SQL[]> = {
  // reviews_salon_idx (salon_id, created_at desc)
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  // reviews_salon_rating_idx (salon_id, rating desc, created_at desc) where not hidden
  rating_high: [desc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
  rating_low: [asc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
};

/** A shown review as the salon's pages and the API list it. */
export type ListedReview = Awaited<ReturnType<typeof listReviews>>["items"][number];

/** One page of the salon's shown reviews, each with its visit and the salon's reply. */
export async function listReviews(db: Database, salonId: string, options: ReviewListOptions) {
  const pageSize = options.pageSize ?? REVIEWS_PER_PAGE;
  const conditions = [shown(salonId)];
  if (options.staffId) conditions.push(eq(reviews.staffId, options.staffId));
  if (options.genre) {
    conditions.push(sql`exists (
      select 1 from ${bookingMenus}
      join ${menus} on ${menus.id} = ${bookingMenus.menuId} and ${menus.salonId} = ${bookingMenus.salonId}
      where ${bookingMenus.salonId} = ${reviews.salonId} and ${bookingMenus.bookingId} = ${reviews.bookingId}
        and ${menus.category} = ${options.genre})`);
  }
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        id: reviews.id,
        bookingId: reviews.bookingId,
        rating: reviews.rating,
        ratingAtmosphere: reviews.ratingAtmosphere,
        ratingService: reviews.ratingService,
        ratingTechnique: reviews.ratingTechnique,
        ratingFinish: reviews.ratingFinish,
        title: reviews.title,
        body: reviews.body,
        authorLabel: reviews.authorLabel,
        visitedOn: reviews.visitedOn,
        createdAt: reviews.createdAt,
        stylistSlug: staff.slug,
        stylistName: staff.name,
        replyBody: reviews.replyBody,
        repliedAt: reviews.repliedAt,
        replyUpdatedAt: reviews.replyUpdatedAt,
      })
      .from(reviews)
      .leftJoin(staff, eq(staff.id, reviews.staffId))
      .where(where)
      .orderBy(...orders[options.sort])
      .limit(pageSize)
      .offset((options.page - 1) * pageSize),
    db.select({ total: count() }).from(reviews).where(where),
  ]);
  const visitMenus = await visitMenusOf(
    db,
    rows.map((row) => ({ salonId, bookingId: row.bookingId })),
  );
  const total = Number(totalRow?.total ?? 0);
  return {
    items: rows.map(({ bookingId, stylistSlug, stylistName, replyBody, ...row }) => ({
      ...row,
      // The day it was posted, in Japan (the JSON-LD's datePublished): worked out here, so the
      // browser's bundle of the salon pages needs no time-zone code (issue 42).
      publishedOn: calendarDay(row.createdAt, SITE_TIME_ZONE),
      stylist: stylistSlug && stylistName ? { slug: stylistSlug, name: stylistName } : null,
      menus: visitMenus.get(bookingId) ?? [],
      // Every review stands on a completed booking (booking_id is required): 来店済み.
      verified: true as const,
      reply:
        replyBody && row.repliedAt
          ? { body: replyBody, repliedAt: row.repliedAt, updatedAt: row.replyUpdatedAt }
          : null,
    })),
    total,
    page: options.page,
    pageSize,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/**
 * The menus of visits, as booked (booking_menus keeps the name of the day)
 * with their genre: booking id → menus in the booking's order. Visits may
 * be of several salons (the administrator's moderation lists any salon's).
 */
export async function visitMenusOf(
  db: Database,
  visits: readonly { salonId: string; bookingId: string }[],
): Promise<Map<string, { name: string; genre: string }[]>> {
  const byBooking = new Map<string, { name: string; genre: string }[]>();
  if (visits.length === 0) return byBooking;
  const salonIds = [...new Set(visits.map((visit) => visit.salonId))];
  const rows = await db
    .select({ bookingId: bookingMenus.bookingId, name: bookingMenus.name, genre: menus.category })
    .from(bookingMenus)
    .innerJoin(
      menus,
      and(eq(menus.id, bookingMenus.menuId), eq(menus.salonId, bookingMenus.salonId)),
    )
    .where(
      and(
        inArray(bookingMenus.salonId, salonIds),
        inArray(
          bookingMenus.bookingId,
          visits.map((visit) => visit.bookingId),
        ),
      ),
    )
    .orderBy(asc(bookingMenus.bookingId), asc(bookingMenus.position));
  for (const row of rows) {
    const list = byBooking.get(row.bookingId) ?? [];
    list.push({ name: row.name, genre: row.genre });
    byBooking.set(row.bookingId, list);
  }
  return byBooking;
}

/** A filter naming nothing on this salon's list (a stale or hand-edited link). */
export class UnknownReviewFilterError extends DomainError {
  constructor(readonly param: "staff" | "genre") {
    super(
      "unknown_filter",
      param === "staff"
        ? "staff: このサロンに、指定したスタイリストの口コミはありません。"
        : "genre: このサロンに、指定したメニュージャンルの口コミはありません。",
      400,
      { param },
    );
  }
}

/**
 * The salon's review list as its page and GET /api/salons/{id}/reviews give
 * it: the summary, the filters' choices, the chosen filters and one page.
 * `staff` names a stylist by slug or UUID.
 * A stylist or genre that is not among the choices is UnknownReviewFilterError.
 */
export async function salonReviewList(db: Database, salonId: string, query: ReviewListQuery) {
  const [summary, choices] = await Promise.all([
    reviewSummary(db, salonId),
    reviewFilterChoices(db, salonId),
  ]);
  const ref = query.staff?.toLowerCase();
  const stylist = ref
    ? choices.stylists.find((choice) => choice.slug === query.staff || choice.id === ref)
    : undefined;
  if (query.staff && !stylist) throw new UnknownReviewFilterError("staff");
  if (query.genre && !choices.genres.includes(query.genre)) {
    throw new UnknownReviewFilterError("genre");
  }
  const list = await listReviews(db, salonId, {
    sort: query.sort,
    staffId: stylist?.id ?? null,
    genre: query.genre || null,
    page: query.page,
  });
  return {
    summary,
    choices,
    filters: { sort: query.sort, staff: stylist?.slug ?? null, genre: query.genre || null },
    ...list,
  };
}

export type SalonReviewList = Awaited<ReturnType<typeof salonReviewList>>;
