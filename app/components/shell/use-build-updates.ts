import { useEffect } from "react";
import {
  BUILD_POLL_MS,
  claimChunkReload,
  fetchLatestBuild,
  isChunkLoadError,
} from "../../lib/build-updates";

declare const __BUILD_ID__: string;

/**
 * Reloads the tab when a newer build is deployed (polled, and checked when
 * the tab comes back into view), and once when a code chunk fails to load,
 * which usually means the old build's files are gone.
 */
export function useBuildUpdates() {
  useEffect(() => {
    const check = async () => {
      const latest = await fetchLatestBuild();
      if (latest && latest.buildId !== __BUILD_ID__) window.location.reload();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    const reloadForChunk = (reason: unknown) => {
      if (isChunkLoadError(reason) && claimChunkReload(Date.now(), window.sessionStorage)) {
        window.location.reload();
      }
    };
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      reloadForChunk((event as Event & { payload?: unknown }).payload);
    };
    const onRejection = (event: PromiseRejectionEvent) => reloadForChunk(event.reason);
    const timer = window.setInterval(check, BUILD_POLL_MS);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", check);
    window.addEventListener("vite:preloadError", onPreloadError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", check);
      window.removeEventListener("vite:preloadError", onPreloadError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
}
