import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After each step of the booking flow (a client-side navigation or a form
 * result), moves focus to the element with `targetId`: the next step's
 * heading, or the error summary. Not on the first render, so a page opened
 * from a link starts at the top as usual. Without JavaScript every step is
 * a new page and the browser starts at the top anyway.
 */
export function useFocusAfterStep(targetId: string | null, resultKey?: unknown) {
  const location = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the URL or the result changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!targetId) return;
    const target = document.getElementById(targetId);
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }, [location.key, resultKey]);
}
