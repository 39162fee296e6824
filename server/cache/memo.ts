/**
 * A value loaded on first use and kept for `ttlMs`, for small reference data
 * read on every request (route rules, the search form's choices). Callers
 * that change the data call `invalidate()`; the TTL bounds how stale another
 * app server's copy can be. A failed load is not kept.
 */
export type Memo<T> = { get(): Promise<T>; invalidate(): void };

export function memoize<T>(
  load: () => Promise<T>,
  { ttlMs, now = Date.now }: { ttlMs: number; now?: () => number },
): Memo<T> {
  let value: Promise<T> | null = null;
  let loadedAt = 0;
  return {
    get() {
      if (!value || now() - loadedAt > ttlMs) {
        loadedAt = now();
        const loading = load().catch((error) => {
          if (value === loading) value = null;
          throw error;
        });
        value = loading;
      }
      return value;
    },
    invalidate() {
      value = null;
    },
  };
}
