export const SITE_NAME = "Salon Navi";

type PageMetaInput = {
  title: string;
  description: string;
  /** Path of the page; made absolute with the public origin for canonical and og:url. */
  path: string;
  origin: string;
  image?: string;
  type?: "website" | "article";
};

/** Title, description, canonical URL and Open Graph tags for one page. */
export function pageMeta({
  title,
  description,
  path,
  origin,
  image,
  type = "website",
}: PageMetaInput) {
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const url = new URL(path, origin).toString();
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:url", content: url },
    {
      property: "og:image",
      content: new URL(image ?? "/images/og-default.svg", origin).toString(),
    },
    { property: "og:locale", content: "ja_JP" },
  ];
}

/** The public origin the root loader exposes, read from a meta function's matches. */
export function originFromMatches(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData as
    | { origin?: string }
    | undefined;
  return root?.origin ?? "http://localhost:3000";
}
