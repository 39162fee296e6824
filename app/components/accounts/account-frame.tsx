import { type ReactNode, useRef } from "react";

/** The narrow, centred frame of the account screens: one h1 and the form. */
export function AccountFrame({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <h1 className="text-2xl font-bold">{title}</h1>
      {lead ? <p className="mt-3 text-neutral-700">{lead}</p> : null}
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}

export function SubmitButton({ children, busy }: { children: ReactNode; busy?: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 disabled:opacity-60"
    >
      {children}
    </button>
  );
}

/** A notice after a step (mail sent, password changed …). */
export function Notice({
  children,
  tone = "info",
}: {
  children: ReactNode;
  tone?: "info" | "error";
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-lg p-4 ${tone === "error" ? "border-2 border-red-700 bg-red-50 font-bold text-red-700" : "bg-brand-50"}`}
    >
      {children}
    </div>
  );
}

export const linkClass = "font-bold text-brand-700 underline underline-offset-4";

/**
 * A key that changes with every new action result: password inputs keyed
 * with it are emptied after a failed submit, as they are without JavaScript
 * (the server never sends a password back).
 */
export function useClearOnResult(result: unknown) {
  const ref = useRef({ result, count: 0 });
  if (ref.current.result !== result) ref.current = { result, count: ref.current.count + 1 };
  return `password-${ref.current.count}`;
}
