import { useEffect, useState } from "react";

/** SPEC.md §9: how long the start-up overlay stays after the app has mounted. */
export const LOADING_OVERLAY_MS = 3000;

/**
 * Full-screen overlay rendered by the server, hidden LOADING_OVERLAY_MS after
 * the app mounts. It lives in the root layout, which never remounts, so
 * client-side navigations do not bring it back. Fixed positioning means its
 * removal shifts nothing; once hidden it leaves the accessibility tree.
 * Clicks pass through so nobody waits on it to use the page.
 */
export function LoadingOverlay() {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(false), LOADING_OVERLAY_MS);
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
