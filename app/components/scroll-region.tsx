import type { HTMLAttributes, ReactNode } from "react";

/**
 * A named region that scrolls sideways inside itself (a wide table or grid
 * on a phone), focusable so a keyboard can scroll it (axe
 * scrollable-region-focusable). Name it with aria-label or aria-labelledby.
 */
export function ScrollRegion({
  className = "",
  children,
  ...named
}: Pick<HTMLAttributes<HTMLElement>, "aria-label" | "aria-labelledby"> & {
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      {...named}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must be reachable by keyboard
      tabIndex={0}
      // relative: an absolutely positioned child (an sr-only label) takes this as its containing
      // block, so it scrolls inside instead of widening the page (issue 38, §1.10).
      className={`relative overflow-x-auto rounded-lg focus-visible:outline-2 focus-visible:outline-brand-700 ${className}`}
    >
      {children}
    </section>
  );
}
