import { useEffect } from "react";
import { preferenceCookie } from "../../lib/cookies";
import {
  VIEWPORT_COOKIE,
  VIEWPORT_COOKIE_MAX_AGE,
  type Viewport,
  viewportBreakpoints,
  viewportFor,
} from "../../lib/viewport";

/**
 * Follows the breakpoint media queries and stores the current name in the
 * viewport cookie, so the next server render picks the right layout.
 */
export function useViewportCookie(serverViewport: Viewport) {
  useEffect(() => {
    const queries = viewportBreakpoints.map(([, minWidth]) => ({
      minWidth,
      query: window.matchMedia(`(min-width: ${minWidth}px)`),
    }));
    const store = () => {
      const current = viewportFor(
        (minWidth) => queries.find((q) => q.minWidth === minWidth)?.query.matches ?? false,
      );
      document.documentElement.dataset.viewport = current;
      if (current !== serverViewport || !document.cookie.includes(`${VIEWPORT_COOKIE}=`)) {
        // biome-ignore lint/suspicious/noDocumentCookie: Cookie Store API is not in every browser we support
        document.cookie = preferenceCookie(VIEWPORT_COOKIE, current, VIEWPORT_COOKIE_MAX_AGE);
      }
    };
    store();
    for (const { query } of queries) query.addEventListener("change", store);
    return () => {
      for (const { query } of queries) query.removeEventListener("change", store);
    };
  }, [serverViewport]);
}
