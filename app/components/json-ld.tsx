import { serializeJsonLd } from "../lib/json-ld";

/** Structured data for crawlers; a data block, so the CSP nonce is not needed. */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script
      type="application/ld+json"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serialized with <, > and & escaped
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
