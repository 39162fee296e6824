import type { ListedReview, ReviewSummary } from "../../server/reviews/review-list.server";
import type { SalonDetail } from "../../server/salons/salon-detail";

const schemaTypes = {
  hair: "HairSalon",
  nail: "NailSalon",
  eyelash: "BeautySalon",
  esthetic: "BeautySalon",
  headspa: "BeautySalon",
} as const;

const dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** schema.org LocalBusiness data for a salon page (rich results in search engines). */
export function salonJsonLd(detail: SalonDetail, url: string, origin: string) {
  const { salon } = detail;
  return {
    "@context": "https://schema.org",
    "@type": schemaTypes[salon.genre],
    "@id": url,
    url,
    name: salon.name,
    alternateName: salon.nameKana,
    description: salon.description,
    image: detail.photos.map((photo) => new URL(photo.url, origin).toString()),
    telephone: salon.phone || undefined,
    priceRange: `¥${salon.priceMin}〜¥${salon.priceMax}`,
    address: {
      "@type": "PostalAddress",
      postalCode: salon.postalCode,
      addressRegion: detail.prefecture.name,
      streetAddress: salon.address.replace(detail.prefecture.name, ""),
      addressCountry: "JP",
    },
    geo: { "@type": "GeoCoordinates", latitude: salon.latitude, longitude: salon.longitude },
    openingHoursSpecification: salon.openingHours.map((hours) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: `https://schema.org/${dayNames[hours.weekday]}`,
      opens: hours.opens,
      closes: hours.closes,
    })),
    ...reviewsJsonLd(detail.reviews.summary, detail.reviews.latest),
  };
}

/**
 * The rating and the reviews a page shows, for its LocalBusiness: shown
 * reviews only (hidden ones are never read for a page), nothing at all
 * without a review (no rating is not a rating of 0).
 */
export function reviewsJsonLd(summary: ReviewSummary, shown: readonly ListedReview[]) {
  if (summary.count === 0) return {};
  return {
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: summary.average,
      reviewCount: summary.count,
      bestRating: 5,
      worstRating: 1,
    },
    review: shown.map((review) => ({
      "@type": "Review",
      author: { "@type": "Person", name: review.authorLabel },
      datePublished: review.publishedOn,
      ...(review.title ? { name: review.title } : {}),
      reviewBody: review.body,
      reviewRating: {
        "@type": "Rating",
        ratingValue: review.rating,
        bestRating: 5,
        worstRating: 1,
      },
    })),
  };
}

/** The salon as the reviews page names it: the same entity (@id) as on the salon page. */
export function salonReviewsJsonLd(
  salon: { name: string; genre: keyof typeof schemaTypes },
  url: string,
  summary: ReviewSummary,
  shown: readonly ListedReview[],
) {
  return {
    "@context": "https://schema.org",
    "@type": schemaTypes[salon.genre],
    "@id": url,
    url,
    name: salon.name,
    ...reviewsJsonLd(summary, shown),
  };
}

/** schema.org BreadcrumbList from (name, path) pairs. */
export function breadcrumbJsonLd(items: { name: string; path: string }[], origin: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: new URL(item.path, origin).toString(),
    })),
  };
}

/** JSON for a <script type="application/ld+json">, safe against "</script>" in the data. */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
}
