/** How often an open tab asks whether a newer build was deployed. */
export const BUILD_POLL_MS = 5 * 60 * 1000;
/** A chunk-load failure reloads at most once per this window (SPEC.md §4). */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = "chunk-reload-at";

export type BuildInfo = { buildId: string };

export async function fetchLatestBuild(): Promise<BuildInfo | null> {
  try {
    const response = await fetch("/builds/latest.json", { cache: "no-store" });
    if (!response.ok) return null;
    const body = (await response.json()) as Partial<BuildInfo>;
    return typeof body.buildId === "string" ? { buildId: body.buildId } : null;
  } catch {
    return null;
  }
}

/** True when the reload may happen now; records it so a loop cannot start. */
export function claimChunkReload(now: number, storage: Pick<Storage, "getItem" | "setItem">) {
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0);
  if (now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(RELOAD_KEY, String(now));
  return true;
}

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? "");
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    message,
  );
}
