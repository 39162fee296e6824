import { useEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

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

/** The ids of the booking page's steps, headings and messages, which focus moves to. */
export const stepIds = {
  page: "booking-heading",
  errors: "flow-errors",
  menus: "step-menus",
  staff: "step-staff",
  day: "step-day",
  time: "step-time",
  notice: "flow-notice",
  pickForm: "booking-pick-form",
  confirm: "step-confirm",
  contactErrors: "contact-errors",
  contactForm: "contact-form",
} as const;

/**
 * Focus after each step: the next step's heading, or the messages when
 * something was refused. On arriving from another page or step of the app
 * (the salon page, a picked time), `arrival`: focus left on a link that is
 * gone would fall to <body>. Not on the document's own load, nor back and
 * forward (POP): there the browser starts where it does.
 */
export function useStepFocus(target: string | null, arrival: string | null = target) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the URL changes
  useEffect(() => {
    const arriving = first.current;
    first.current = false;
    if (arriving && navigationType === "POP") return;
    const id = arriving ? arrival : target;
    const element = id ? document.getElementById(id) : null;
    if (!element) return;
    if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus();
  }, [location.key]);
}
