import type { SalonGenre } from "../../../../common/genres";

/**
 * Staff roles per genre, from the most senior. `senior` roles may perform
 * the menus marked `seniorOnly`; `years` is the range of experience.
 */
export type StaffRole = {
  name: string;
  senior: boolean;
  years: readonly [number, number];
  /** Still training (アシスタント, ジュニア…): does not yet take clients on their own. */
  trainee?: boolean;
};

export type StaffCatalogue = {
  /** The first staff member of a salon takes one of these. */
  leads: readonly StaffRole[];
  /** Everyone else. */
  members: readonly StaffRole[];
  /** Share of female staff. */
  femaleShare: number;
  specialties: readonly string[];
  /**
   * First sentence of a profile: what they are good at. A skill claiming
   * experience ("数多く担当してきました") has `minYears`, so a first-year
   * member never says it.
   */
  skills: readonly Skill[];
  /** What a member in training (`StaffRole.trainee`) says instead. */
  traineeSkills?: readonly string[];
};

export type Skill = string | { text: string; minYears: number };

const owner: StaffRole = { name: "オーナー", senior: true, years: [12, 25] };
const manager: StaffRole = { name: "店長", senior: true, years: [8, 16] };

export const staffCatalogues: Record<SalonGenre, StaffCatalogue> = {
  hair: {
    leads: [owner, manager],
    members: [
      { name: "トップスタイリスト", senior: true, years: [7, 15] },
      { name: "スタイリスト", senior: false, years: [3, 9] },
      { name: "スタイリスト", senior: false, years: [3, 9] },
      { name: "アシスタント", senior: false, years: [0, 2], trainee: true },
    ],
    femaleShare: 0.6,
    specialties: [
      "ショートカット",
      "ボブ",
      "透明感カラー",
      "ハイトーンカラー",
      "白髪ぼかし",
      "髪質改善",
      "縮毛矯正",
      "デジタルパーマ",
      "メンズカット",
      "ヘアアレンジ",
      "インナーカラー",
      "レイヤーカット",
    ],
    skills: [
      "骨格や髪質を見極めた、扱いやすいショートボブが得意です。",
      "透明感のあるカラーと、ダメージを抑えたブリーチワークにこだわっています。",
      "くせ毛を活かしたカットで、朝のスタイリングを楽にするご提案をしています。",
      {
        text: "白髪を活かしながら明るく見せるカラーで、大人の女性から好評をいただいています。",
        minYears: 3,
      },
      {
        text: "メンズのフェードカットから女性のレイヤースタイルまで幅広く担当しています。",
        minYears: 3,
      },
      "髪質改善と縮毛矯正を専門に学び、自然なストレートを大切にしています。",
      "ライフスタイルを伺い、ご自宅で再現しやすいスタイルを一緒に考えます。",
      "結婚式やイベント前のヘアアレンジもお任せください。",
    ],
    traineeSkills: [
      "シャンプーとヘッドスパを担当しています。スタイリストデビューに向けて練習中です。",
      "カラーの塗布とブローを担当しています。丁寧なシャンプーが自慢です。",
    ],
  },
  nail: {
    leads: [owner, manager],
    members: [
      { name: "トップネイリスト", senior: true, years: [7, 14] },
      { name: "ネイリスト", senior: false, years: [2, 8] },
      { name: "ネイリスト", senior: false, years: [2, 8] },
      { name: "ジュニアネイリスト", senior: false, years: [0, 2], trainee: true },
    ],
    femaleShare: 0.96,
    specialties: [
      "ニュアンスアート",
      "ワンカラー",
      "フレンチ",
      "手描きアート",
      "マグネットネイル",
      "フットネイル",
      "自爪ケア",
      "長さ出し",
      "ブライダルネイル",
    ],
    skills: [
      "持ちの良さにこだわった丁寧なベースづくりが得意です。",
      { text: "くすみカラーを使った大人のニュアンスアートを多数手がけています。", minYears: 3 },
      "手描きのフラワーアートやキャラクターアートもお任せください。",
      "自爪を傷めないケアを大切にし、薄い爪のお悩みにも対応しています。",
      "オフィスでも浮かない上品なデザインのご提案が得意です。",
      {
        text: "ブライダルネイルの経験が豊富で、当日の装いに合わせたデザインを考えます。",
        minYears: 5,
      },
    ],
    traineeSkills: [
      "ケアとオフを担当しています。ワンカラーのデビューに向けて練習中です。",
      "丁寧なハンドケアを心がけています。アートの勉強も続けています。",
    ],
  },
  eyelash: {
    leads: [owner, manager],
    members: [
      { name: "トップアイリスト", senior: true, years: [6, 12] },
      { name: "アイリスト", senior: false, years: [2, 7] },
      { name: "アイリスト", senior: false, years: [2, 7] },
      { name: "ジュニアアイリスト", senior: false, years: [0, 2], trainee: true },
    ],
    femaleShare: 0.97,
    specialties: [
      "ナチュラルデザイン",
      "ボリュームラッシュ",
      "まつげパーマ",
      "眉毛Wax",
      "ブロウリフト",
      "カラーエクステ",
      "一重・奥二重デザイン",
    ],
    skills: [
      "目の形や骨格に合わせた、自然で持ちの良いデザインが得意です。",
      "一重や奥二重の方でもぱっちり見える、まつげパーマのデザインを研究しています。",
      "ボリュームラッシュの技術で、軽くて華やかな目元をつくります。",
      "眉とまつげのトータルバランスでお顔の印象を整えるご提案をしています。",
      "自まつげへの負担を第一に考え、丁寧な装着を心がけています。",
    ],
    traineeSkills: [
      "まつげパーマを担当しています。エクステのデビューに向けて練習中です。",
      "先輩アイリストのもとで、丁寧な施術を学んでいます。",
    ],
  },
  esthetic: {
    leads: [owner, manager],
    members: [
      { name: "チーフエステティシャン", senior: true, years: [6, 14] },
      { name: "エステティシャン", senior: false, years: [2, 9] },
      { name: "エステティシャン", senior: false, years: [2, 9] },
      { name: "エステティシャン", senior: false, years: [0, 3] },
    ],
    femaleShare: 0.95,
    specialties: [
      "毛穴ケア",
      "小顔ケア",
      "リンパドレナージュ",
      "痩身",
      "ニキビケア",
      "ブライダルエステ",
      "美容脱毛",
      "エイジングケア",
    ],
    skills: [
      "肌診断にもとづいた、一人ひとりに合わせたフェイシャルケアが得意です。",
      "リンパの流れを意識したハンドトリートメントで、むくみをすっきりさせます。",
      { text: "ブライダル前の集中ケアを数多く担当してきました。", minYears: 5 },
      "大人の肌のハリとツヤを取り戻すエイジングケアに力を入れています。",
      "ニキビや肌荒れのお悩みに寄り添い、ホームケアまでご提案します。",
    ],
  },
  headspa: {
    leads: [owner, manager],
    members: [
      { name: "トップセラピスト", senior: true, years: [6, 14] },
      { name: "セラピスト", senior: false, years: [2, 8] },
      { name: "セラピスト", senior: false, years: [2, 8] },
      { name: "セラピスト", senior: false, years: [0, 2] },
    ],
    femaleShare: 0.7,
    specialties: [
      "ドライヘッドスパ",
      "炭酸スパ",
      "眼精疲労ケア",
      "睡眠改善",
      "頭皮ケア",
      "首・肩こりケア",
      "育毛ケア",
    ],
    skills: [
      "頭の奥のこりをじんわりほぐす、深い圧のハンドテクニックが得意です。",
      "睡眠に悩む方が思わず眠ってしまう、リズムの心地よい施術を心がけています。",
      "パソコン作業で疲れた目元とこめかみのケアには自信があります。",
      "マイクロスコープで頭皮を確認しながら、最適なケアをご提案します。",
      "頭皮環境を整え、健やかな髪が育つお手伝いをしています。",
    ],
  },
};

/**
 * Second sentence of a profile: something personal. A note only a woman or
 * only a man would write says so (`female`), so no male assistant is
 * 二児の母.
 */
export type PersonalNote = string | { text: string; female: boolean };

export const personalNotes: readonly PersonalNote[] = [
  "休日はカフェ巡りをしています。おすすめのお店があれば教えてください。",
  "愛犬と散歩するのが日課です。",
  "最近はキャンプにはまっています。",
  "お客さまとのおしゃべりが何よりの楽しみです。",
  "美味しいパン屋さんを探すのが趣味です。",
  "旅行が好きで、年に一度は海外に行っています。",
  "映画とドラマ鑑賞が好きなので、おすすめを教えてください。",
  "ヨガを続けていて、体のケアにも詳しいです。",
  "音楽が好きで、休日はライブに行くことが多いです。",
  "緊張しがちな方も、リラックスして過ごせるよう心がけています。",
  { text: "二児の母です。子育て中の方のお悩みにも共感できます。", female: true },
  { text: "一児の父です。休日は子どもと公園で過ごしています。", female: false },
  "サウナで整うのが最近の楽しみです。",
  "気になることは何でもお気軽にご相談ください。",
  "一人ひとりのお悩みに丁寧に向き合います。",
];
