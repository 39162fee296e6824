/**
 * ヶ or ケ between kanji is read が in place names and written all three ways
 * (自由が丘, 自由ヶ丘, 自由ケ丘; 霞ヶ関, 市ヶ谷): one form on both sides.
 */
const KE_BETWEEN_KANJI = /(?<=\p{Script=Han})[ヶケ](?=\p{Script=Han})/gu;

/** A minus or dash typed after kana for the long vowel mark: カラ－ (full-width minus) is カラー. */
const DASH_AFTER_KANA = /(?<=[\p{Script=Hiragana}\p{Script=Katakana}])[-‐‑–—−]/gu;

/**
 * Japanese search normalization, applied both to the indexed text and to the
 * visitor's keyword so that "ｼﾌﾞﾔ", "シブヤ", "しぶや" and "ＳＨＩＢＵＹＡ"
 * meet: NFKC folds full-width/half-width forms, katakana become hiragana,
 * Latin letters are lower-cased and runs of white space collapse to one.
 */
export function normalizeForSearch(text: string): string {
  return katakanaToHiragana(
    text.normalize("NFKC").replace(KE_BETWEEN_KANJI, "が").replace(DASH_AFTER_KANA, "ー"),
  )
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

const KATAKANA_START = 0x30a1; // ァ
const KATAKANA_END = 0x30f6; // ヶ
const KANA_OFFSET = 0x60;

export function katakanaToHiragana(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      code >= KATAKANA_START && code <= KATAKANA_END
        ? String.fromCodePoint(code - KANA_OFFSET)
        : char;
  }
  return out;
}
