import { toRomaji } from "wanakana";

/**
 * The romaji a visitor may type for a hiragana reading: wanakana's Hepburn
 * ("しんじゅく" → "shinjuku", "おもてさんどう" → "omotesandou") and the
 * spellings signs and people use beside it: long vowels without the extra
 * vowel ("omotesando", "jiyugaoka", "tokyo") and m before b/m/p ("shimbashi",
 * "namba").
 */
export function romajiReadings(hiragana: string): string[] {
  const hepburn = toRomaji(hiragana)
    .toLowerCase()
    .replace(/[^a-z]/g, "");
  if (!hepburn) return [];
  const short = hepburn.replace(/ou/g, "o").replace(/uu/g, "u").replace(/oo/g, "o");
  const out = new Set([hepburn, short]);
  for (const form of [hepburn, short]) out.add(form.replace(/n(?=[bmp])/g, "m"));
  return [...out];
}

/** ひらがな → カタカナ, for comparing with names stored in katakana. */
export function hiraganaToKatakana(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += code >= 0x3041 && code <= 0x3096 ? String.fromCodePoint(code + 0x60) : char;
  }
  return out;
}
