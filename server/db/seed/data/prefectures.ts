/** The 47 prefectures with their JIS X 0401 codes. */
export type PrefectureSeed = {
  code: number;
  slug: string;
  name: string;
  kana: string;
  region: string;
};

export const prefectureSeeds: readonly PrefectureSeed[] = [
  { code: 1, slug: "hokkaido", name: "北海道", kana: "ほっかいどう", region: "北海道" },
  { code: 2, slug: "aomori", name: "青森県", kana: "あおもりけん", region: "東北" },
  { code: 3, slug: "iwate", name: "岩手県", kana: "いわてけん", region: "東北" },
  { code: 4, slug: "miyagi", name: "宮城県", kana: "みやぎけん", region: "東北" },
  { code: 5, slug: "akita", name: "秋田県", kana: "あきたけん", region: "東北" },
  { code: 6, slug: "yamagata", name: "山形県", kana: "やまがたけん", region: "東北" },
  { code: 7, slug: "fukushima", name: "福島県", kana: "ふくしまけん", region: "東北" },
  { code: 8, slug: "ibaraki", name: "茨城県", kana: "いばらきけん", region: "関東" },
  { code: 9, slug: "tochigi", name: "栃木県", kana: "とちぎけん", region: "関東" },
  { code: 10, slug: "gunma", name: "群馬県", kana: "ぐんまけん", region: "関東" },
  { code: 11, slug: "saitama", name: "埼玉県", kana: "さいたまけん", region: "関東" },
  { code: 12, slug: "chiba", name: "千葉県", kana: "ちばけん", region: "関東" },
  { code: 13, slug: "tokyo", name: "東京都", kana: "とうきょうと", region: "関東" },
  { code: 14, slug: "kanagawa", name: "神奈川県", kana: "かながわけん", region: "関東" },
  { code: 15, slug: "niigata", name: "新潟県", kana: "にいがたけん", region: "中部" },
  { code: 16, slug: "toyama", name: "富山県", kana: "とやまけん", region: "中部" },
  { code: 17, slug: "ishikawa", name: "石川県", kana: "いしかわけん", region: "中部" },
  { code: 18, slug: "fukui", name: "福井県", kana: "ふくいけん", region: "中部" },
  { code: 19, slug: "yamanashi", name: "山梨県", kana: "やまなしけん", region: "中部" },
  { code: 20, slug: "nagano", name: "長野県", kana: "ながのけん", region: "中部" },
  { code: 21, slug: "gifu", name: "岐阜県", kana: "ぎふけん", region: "中部" },
  { code: 22, slug: "shizuoka", name: "静岡県", kana: "しずおかけん", region: "中部" },
  { code: 23, slug: "aichi", name: "愛知県", kana: "あいちけん", region: "中部" },
  { code: 24, slug: "mie", name: "三重県", kana: "みえけん", region: "近畿" },
  { code: 25, slug: "shiga", name: "滋賀県", kana: "しがけん", region: "近畿" },
  { code: 26, slug: "kyoto", name: "京都府", kana: "きょうとふ", region: "近畿" },
  { code: 27, slug: "osaka", name: "大阪府", kana: "おおさかふ", region: "近畿" },
  { code: 28, slug: "hyogo", name: "兵庫県", kana: "ひょうごけん", region: "近畿" },
  { code: 29, slug: "nara", name: "奈良県", kana: "ならけん", region: "近畿" },
  { code: 30, slug: "wakayama", name: "和歌山県", kana: "わかやまけん", region: "近畿" },
  { code: 31, slug: "tottori", name: "鳥取県", kana: "とっとりけん", region: "中国" },
  { code: 32, slug: "shimane", name: "島根県", kana: "しまねけん", region: "中国" },
  { code: 33, slug: "okayama", name: "岡山県", kana: "おかやまけん", region: "中国" },
  { code: 34, slug: "hiroshima", name: "広島県", kana: "ひろしまけん", region: "中国" },
  { code: 35, slug: "yamaguchi", name: "山口県", kana: "やまぐちけん", region: "中国" },
  { code: 36, slug: "tokushima", name: "徳島県", kana: "とくしまけん", region: "四国" },
  { code: 37, slug: "kagawa", name: "香川県", kana: "かがわけん", region: "四国" },
  { code: 38, slug: "ehime", name: "愛媛県", kana: "えひめけん", region: "四国" },
  { code: 39, slug: "kochi", name: "高知県", kana: "こうちけん", region: "四国" },
  { code: 40, slug: "fukuoka", name: "福岡県", kana: "ふくおかけん", region: "九州・沖縄" },
  { code: 41, slug: "saga", name: "佐賀県", kana: "さがけん", region: "九州・沖縄" },
  { code: 42, slug: "nagasaki", name: "長崎県", kana: "ながさきけん", region: "九州・沖縄" },
  { code: 43, slug: "kumamoto", name: "熊本県", kana: "くまもとけん", region: "九州・沖縄" },
  { code: 44, slug: "oita", name: "大分県", kana: "おおいたけん", region: "九州・沖縄" },
  { code: 45, slug: "miyazaki", name: "宮崎県", kana: "みやざきけん", region: "九州・沖縄" },
  { code: 46, slug: "kagoshima", name: "鹿児島県", kana: "かごしまけん", region: "九州・沖縄" },
  { code: 47, slug: "okinawa", name: "沖縄県", kana: "おきなわけん", region: "九州・沖縄" },
];
