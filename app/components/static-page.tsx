import type { ReactNode } from "react";

/** Frame for the information pages: one h1, readable line length. */
export function StaticPage({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: string;
  children: ReactNode;
}) {
  return (
    <article className="prose-article mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
      {lead ? <p className="text-neutral-700">{lead}</p> : null}
      {children}
    </article>
  );
}
