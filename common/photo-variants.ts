/**
 * One stored size of an uploaded photo (WebP). The salon_photos row keeps
 * them all so pages can offer the browser a `srcset` and set width and
 * height (nothing shifts while the image loads).
 */
export type PhotoVariant = { url: string; width: number; height: number };

/** `srcset` for the variants, narrowest first; undefined for a photo with none (seed SVGs). */
export function photoSrcSet(variants: readonly PhotoVariant[] | null | undefined) {
  if (!variants || variants.length === 0) return undefined;
  return [...variants]
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(", ");
}
