import { type ReactNode, useEffect, useRef } from "react";

const toneClass = {
  /** The back office's 保存しました and its kin. */
  success:
    "rounded-lg border-2 border-green-700 bg-green-50 p-3 font-bold text-green-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-green-700",
  /** The administrator's pages. */
  brand:
    "rounded-lg bg-brand-50 p-4 font-bold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-700",
} as const;

/**
 * The message after a saved form (保存しました, 返信しました…): a status that
 * takes focus when it appears, so a keyboard or screen-reader user lands on
 * the outcome of what they just did rather than at the top of the page.
 */
export function FocusedNotice({
  children,
  tone = "success",
}: {
  children: ReactNode;
  tone?: keyof typeof toneClass;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <p ref={ref} role="status" tabIndex={-1} className={toneClass[tone]}>
      {children}
    </p>
  );
}
