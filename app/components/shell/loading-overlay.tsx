import { useEffect, useState } from "react";

/** SPEC.md §9: how long the start-up overlay stays after the app has mounted. */
export const LOADING_OVERLAY_MS = 3000;

/**
 * When this page load's overlay first mounted in the browser. Module state
 * lives as long as the document, so it is reset only by a full page load.
 * The root layout is not one element for good: React Router renders it once
 * around the app and once around the error boundary, so going from the 404
 * screen to a page (or back) mounts a new overlay. Those later mounts keep
 * the first one's deadline instead of starting 3 s again. Set in an effect
 * only, so the server (which renders every request) never sees it.
 */
let firstMountedAt: number | undefined;

const remainingMs = () =>
  firstMountedAt === undefined
    ? LOADING_OVERLAY_MS
    : Math.max(0, firstMountedAt + LOADING_OVERLAY_MS - Date.now());

/**
 * Full-screen overlay rendered by the server, hidden LOADING_OVERLAY_MS after
 * the app first mounts and never shown again until the next full page load.
 * Fixed positioning means its removal shifts nothing; once hidden it leaves
 * the accessibility tree. Clicks pass through so nobody waits on it to use
 * the page.
 */
export function LoadingOverlay() {
  const [visible, setVisible] = useState(() => remainingMs() > 0);
  useEffect(() => {
    firstMountedAt ??= Date.now();
    const timer = window.setTimeout(() => setVisible(false), remainingMs());
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div
      id="loading-overlay"
      role="status"
      aria-live="polite"
      aria-busy="true"
      className="loading-overlay pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-white/80"
    >
      <span className="flex flex-col items-center gap-3 text-brand-700">
        <span
          aria-hidden="true"
          className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700"
        />
        <span className="text-sm font-bold">読み込み中…</span>
      </span>
    </div>
  );
}
