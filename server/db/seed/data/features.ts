/** The filterable salon features (table `features`). */
export type FeatureSeed = { slug: string; name: string; description: string };

export const featureSeeds: readonly FeatureSeed[] = [
  {
    slug: "near-station",
    name: "駅から徒歩5分以内",
    description: "最寄り駅から歩いて5分以内のサロンです。",
  },
  {
    slug: "open-late",
    name: "夜20時以降も受付",
    description: "20時以降の来店予約を受け付けています。お仕事帰りにも。",
  },
  {
    slug: "weekend",
    name: "土日営業",
    description: "土曜日・日曜日も営業しています。",
  },
  {
    slug: "private-room",
    name: "個室あり",
    description: "周りを気にせず過ごせる個室・半個室があります。",
  },
  {
    slug: "card-ok",
    name: "カード支払OK",
    description: "クレジットカードでのお支払いに対応しています。",
  },
  {
    slug: "parking",
    name: "駐車場あり",
    description: "専用駐車場または提携駐車場があります。",
  },
  {
    slug: "kids-welcome",
    name: "子連れ歓迎",
    description: "お子さま連れでのご来店を歓迎しています。キッズスペースのあるサロンも。",
  },
  {
    slug: "mens-welcome",
    name: "メンズ歓迎",
    description: "男性のお客さまも気軽に通えるサロンです。",
  },
  {
    slug: "same-day",
    name: "当日予約OK",
    description: "空きがあれば当日のご予約も承ります。",
  },
  {
    slug: "one-stylist",
    name: "完全マンツーマン",
    description: "カウンセリングから仕上げまで、同じスタッフが担当します。",
  },
  {
    slug: "organic",
    name: "オーガニック商材",
    description: "オーガニックや低刺激の薬剤・商材を使用しています。",
  },
  {
    slug: "english-ok",
    name: "英語対応可",
    description: "英語で対応できるスタッフが在籍しています。English available.",
  },
  {
    slug: "morning",
    name: "朝10時前から営業",
    description: "10時より前から営業しているので、朝の時間を有効に使えます。",
  },
  {
    slug: "qr-pay",
    name: "QRコード決済OK",
    description: "PayPayなどのQRコード決済に対応しています。",
  },
];
