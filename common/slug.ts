/** A slug as the site writes it in URLs (salons, stylists, areas): checked before it reaches a query. */
export const SLUG_PATTERN = /^[a-z0-9-]{1,80}$/;
