import type { SalonGenre } from "../../common/genres";

/**
 * The words visitors type for salons, their abbreviations and variants, in
 * one place (docs/decisions/0015-search-vocabulary.md). Variants are written
 * as people type them; matching normalizes them first (server/search/
 * normalize.ts), so katakana/hiragana and full-/half-width forms need no
 * entry of their own. Each entry has a test in vocabulary.test.ts.
 *
 * - `genre` entries name a genre: the word becomes a genre filter.
 * - `feature` entries name a salon feature (table `features`): a feature filter.
 * - the others are keywords, found in the salon's search text by their
 *   canonical form and `searchFor`; `about` ranks salons of that genre first.
 */
export type VocabularyEntry =
  | { kind: "genre"; canonical: string; variants: readonly string[]; genre: SalonGenre }
  | { kind: "feature"; canonical: string; variants: readonly string[]; feature: string }
  | {
      kind: "keyword";
      canonical: string;
      /** What visitors type. */
      variants: readonly string[];
      /**
       * What is looked for in the salon's text besides the canonical form:
       * the spellings salons use in menu names. Kept short, because every
       * spelling is one more pass over each salon's text.
       */
      searchFor: readonly string[];
      about?: SalonGenre;
    };

/**
 * Other spellings of places the data names one way, keyed by the area's or
 * station's name as stored (server/db/seed/data/areas.ts): visitors type the
 * district's kanji (難波) where the station sign says なんば, or the
 * railway's own station name (大阪梅田). Readings need no entry: every
 * place's kana and romaji are words already (understand.ts).
 */
export const placeSpellings: Readonly<Record<string, readonly string[]>> = {
  なんば: ["難波", "大阪難波"],
  梅田: ["大阪梅田"],
  すすきの: ["薄野"],
  大通: ["大通り"],
  三条京阪: ["京阪三条"],
  // The three stations of one place (JR 三ノ宮, 神戸三宮, 三宮) mean its area.
  "三宮・元町": ["三ノ宮", "神戸三宮", "神戸", "こうべ", "kobe", "神戸市"],
  // A city is the areas in it: its main station alone is too narrow.
  名駅: ["名古屋", "なごや", "nagoya", "名古屋市", "名古屋駅"],
  "栄・矢場町": ["名古屋", "なごや", "nagoya", "名古屋市"],
  "札幌駅・大通": ["札幌", "さっぽろ", "sapporo", "札幌市"],
};

/**
 * Words that add no condition to a search: 新宿 安い カット means 新宿 カット,
 * not salons whose text says 安い. Dropped from the keyword box's words.
 */
export const unconditionalWords: readonly string[] = [
  "安い",
  "やすい",
  "格安",
  "激安",
  "リーズナブル",
  "おすすめ",
  "オススメ",
  "お勧め",
  "人気",
  "近く",
  "周辺",
  "付近",
  "近辺",
  "サロン",
  "お店",
  "予約",
  "口コミ",
];

export const vocabulary: readonly VocabularyEntry[] = [
  // Genres
  {
    kind: "genre",
    canonical: "ヘアサロン",
    variants: [
      "ヘアサロン",
      "美容院",
      "美容室",
      "びよういん",
      "びようしつ",
      "ヘア",
      "ヘアー",
      "ヘアーサロン",
      "hair",
      "hair salon",
      "サロン美容室",
    ],
    genre: "hair",
  },
  {
    kind: "genre",
    canonical: "ネイルサロン",
    variants: ["ネイルサロン", "ネイル", "nail", "nails", "nail salon"],
    genre: "nail",
  },
  {
    kind: "genre",
    canonical: "まつげサロン",
    variants: [
      "まつげサロン",
      "まつ毛サロン",
      "睫毛サロン",
      "まつげ",
      "まつ毛",
      "睫毛",
      "アイラッシュサロン",
      "アイラッシュ",
      "eyelash",
      "lash",
    ],
    genre: "eyelash",
  },
  {
    kind: "genre",
    canonical: "エステサロン",
    variants: ["エステサロン", "エステ", "esthetic", "aesthetic", "beauty salon"],
    genre: "esthetic",
  },
  {
    kind: "genre",
    canonical: "ヘッドスパ",
    variants: ["ヘッドスパ", "ヘッドスパ専門店", "head spa", "headspa"],
    genre: "headspa",
  },
  // Services (keywords)
  {
    kind: "keyword",
    canonical: "まつげエクステ",
    variants: [
      "まつげエクステ",
      "マツエク",
      "まつエク",
      "まつ毛エクステ",
      "睫毛エクステ",
      "まつげエクステンション",
      "まつエクス",
      "エクステ",
      "ラッシュ",
      "eyelash extension",
    ],
    searchFor: ["ラッシュ", "エクステ", "マツエク"],
    about: "eyelash",
  },
  {
    kind: "keyword",
    canonical: "まつげパーマ",
    variants: ["まつげパーマ", "まつ毛パーマ", "まつパ", "ラッシュリフト", "パリジェンヌ"],
    searchFor: ["ラッシュリフト", "まつパ"],
    about: "eyelash",
  },
  {
    kind: "keyword",
    canonical: "眉毛",
    variants: ["眉毛", "眉", "まゆげ", "アイブロウ", "アイブロー", "ブロウ", "eyebrow", "brow"],
    searchFor: ["眉", "ブロウ"],
    about: "eyelash",
  },
  {
    kind: "keyword",
    canonical: "ジェルネイル",
    variants: ["ジェルネイル", "ジェル", "gel nail", "gel"],
    searchFor: ["ジェル"],
    about: "nail",
  },
  {
    kind: "keyword",
    canonical: "フットネイル",
    variants: ["フットネイル", "フットジェル", "ペディキュア", "foot nail"],
    searchFor: ["フット", "ペディキュア"],
    about: "nail",
  },
  {
    kind: "keyword",
    canonical: "カット",
    variants: ["カット", "散髪", "cut", "haircut"],
    searchFor: [],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "カラー",
    variants: [
      "カラー",
      // Not ヘアカラー: it is cut into ヘア (the hair genre) and カラー, as nail salons offer カラー too.
      "髪染め",
      "インナーカラー",
      "ダブルカラー",
      "color",
      "colour",
    ],
    searchFor: [],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "白髪染め",
    variants: [
      "白髪染め",
      "白髪染",
      "白髪",
      "しらが",
      "グレイカラー",
      "グレーカラー",
      "白髪ぼかし",
    ],
    searchFor: ["白髪", "グレイカラー"],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "縮毛矯正",
    variants: [
      "縮毛矯正",
      "しゅくもうきょうせい",
      "縮毛",
      "しゅくもう",
      // The IME's first conversion of しゅくもうきょうせい.
      "縮毛強制",
      "ストレートパーマ",
      "矯正",
      "ストパー",
    ],
    searchFor: ["ストレート"],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "パーマ",
    variants: ["パーマ", "デジタルパーマ", "デジパ", "perm"],
    searchFor: [],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "トリートメント",
    variants: ["トリートメント", "髪質改善", "treatment"],
    searchFor: ["髪質改善"],
    about: "hair",
  },
  {
    kind: "keyword",
    canonical: "脱毛",
    variants: ["脱毛", "だつもう", "ワックス脱毛", "hair removal"],
    searchFor: [],
    about: "esthetic",
  },
  {
    kind: "keyword",
    canonical: "フェイシャル",
    variants: ["フェイシャル", "facial", "小顔", "毛穴"],
    searchFor: ["小顔", "毛穴"],
    about: "esthetic",
  },
  {
    kind: "keyword",
    canonical: "痩身",
    variants: ["痩身", "ボディ", "ダイエット", "slimming"],
    searchFor: ["やせ", "ボディ"],
    about: "esthetic",
  },
  {
    kind: "keyword",
    canonical: "炭酸スパ",
    variants: ["炭酸スパ", "炭酸ヘッドスパ", "スパ", "spa"],
    searchFor: ["スパ"],
    about: "headspa",
  },
  // Features
  {
    kind: "feature",
    canonical: "個室",
    variants: ["個室", "こしつ", "個室あり", "半個室", "完全個室", "プライベートサロン"],
    feature: "private-room",
  },
  {
    kind: "feature",
    canonical: "駅近",
    variants: ["駅近", "駅チカ", "駅から近い", "駅から徒歩5分以内", "徒歩5分以内"],
    feature: "near-station",
  },
  {
    kind: "feature",
    canonical: "子連れ歓迎",
    variants: [
      "子連れ歓迎",
      "子連れ",
      "子連れok",
      "キッズスペース",
      "キッズ",
      "子供連れ",
      "子ども連れ",
      "こづれ",
      "子供",
      "子ども",
      "こども",
    ],
    feature: "kids-welcome",
  },
  {
    kind: "feature",
    canonical: "メンズ歓迎",
    variants: ["メンズ歓迎", "メンズ", "メンズok", "男性", "男性ok", "mens", "men's", "men"],
    feature: "mens-welcome",
  },
  {
    kind: "feature",
    canonical: "夜20時以降も受付",
    variants: [
      "夜20時以降も受付",
      "夜",
      "夜遅く",
      "夜間",
      "深夜",
      "遅くまで",
      "仕事帰り",
      "20時",
      "21時",
    ],
    feature: "open-late",
  },
  {
    kind: "feature",
    canonical: "土日営業",
    variants: ["土日営業", "土日", "土日祝", "週末", "土曜", "土曜日", "日曜", "日曜日", "祝日"],
    feature: "weekend",
  },
  {
    kind: "feature",
    canonical: "カード支払OK",
    variants: ["カード支払ok", "カード", "カード払い", "クレジットカード", "クレカ"],
    feature: "card-ok",
  },
  {
    kind: "feature",
    canonical: "駐車場あり",
    variants: ["駐車場あり", "駐車場", "パーキング"],
    feature: "parking",
  },
  {
    kind: "feature",
    canonical: "当日予約OK",
    variants: ["当日予約ok", "当日予約", "当日", "今日"],
    feature: "same-day",
  },
  {
    kind: "feature",
    canonical: "完全マンツーマン",
    variants: ["完全マンツーマン", "マンツーマン"],
    feature: "one-stylist",
  },
  {
    kind: "feature",
    canonical: "オーガニック商材",
    variants: ["オーガニック商材", "オーガニック", "organic"],
    feature: "organic",
  },
  {
    kind: "feature",
    canonical: "英語対応可",
    variants: ["英語対応可", "英語", "英語対応", "english", "english ok"],
    feature: "english-ok",
  },
  {
    kind: "feature",
    canonical: "朝10時前から営業",
    variants: ["朝10時前から営業", "朝", "早朝", "朝営業"],
    feature: "morning",
  },
  {
    kind: "feature",
    canonical: "QRコード決済OK",
    variants: ["qrコード決済ok", "qr決済", "qrコード", "qr", "paypay", "ペイペイ"],
    feature: "qr-pay",
  },
];
