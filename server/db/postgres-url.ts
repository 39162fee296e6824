/** A PostgreSQL server's URL (anything else in DATABASE_URL is a PGlite directory or `memory://`). */
export function isPostgresUrl(url: string) {
  return url.startsWith("postgres://") || url.startsWith("postgresql://");
}
