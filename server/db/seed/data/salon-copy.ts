import type { SalonGenre } from "../../../../common/genres";

/** Salon name patterns per genre: `{latin}` / `{kana}` are replaced by a brand word. */
export type NamePattern = { name: string; kana: string };

export type GenreCopy = {
  namePatterns: readonly NamePattern[];
  catchCopies: readonly string[];
  /** Opening sentences; `{station}`, `{minutes}` and `{area}` are replaced. */
  intros: readonly string[];
  /** What the salon is good at. */
  strengths: readonly string[];
  /** Atmosphere and service. */
  atmospheres: readonly string[];
  photoAlts: readonly [string, string, string];
};

export const genreCopies: Record<SalonGenre, GenreCopy> = {
  hair: {
    namePatterns: [
      { name: "Hair Salon {latin}", kana: "ヘアサロン {kana}" },
      { name: "{latin} hair", kana: "{kana} ヘアー" },
      { name: "HAIR&MAKE {latin}", kana: "ヘアアンドメイク {kana}" },
      { name: "美容室 {kana}", kana: "ビヨウシツ {kana}" },
      { name: "hair studio {latin}", kana: "ヘアスタジオ {kana}" },
      { name: "{latin}", kana: "{kana}" },
      { name: "{latin} hair design", kana: "{kana} ヘアデザイン" },
    ],
    catchCopies: [
      "朝のスタイリングが楽になる、再現性の高いカットが自慢です",
      "透明感カラーとケアブリーチで、傷みにくいハイトーンを",
      "髪質改善で、触れたくなるツヤ髪へ",
      "骨格から似合わせる、あなただけのショート・ボブ",
      "白髪を活かす大人のためのカラー提案",
      "くせ毛のお悩み、まるごとご相談ください",
      "一人ひとりにじっくり向き合う、少人数の隠れ家サロン",
      "メンズもレディースも、気軽に通える街のヘアサロン",
    ],
    intros: [
      "{station}駅から徒歩{minutes}分、白を基調とした明るい店内のヘアサロンです。",
      "{area}エリアで地元の方に長く愛されている、席数を抑えたプライベートサロンです。",
      "{station}駅から徒歩{minutes}分。大きな窓から光が差し込む、開放感のある空間でお迎えします。",
      "路地裏にたたずむ、木のぬくもりを感じる落ち着いたヘアサロンです。",
    ],
    strengths: [
      "骨格や毛流れを見極めたカットで、ご自宅でも再現しやすいスタイルをご提案します。",
      "ダメージを抑えた薬剤選びにこだわり、カラーを楽しみながら髪の健康も守ります。",
      "髪質改善トリートメントと縮毛矯正を得意とし、うねりやパサつきのお悩みに寄り添います。",
      "トレンドのハイトーンやインナーカラーも、ケアブリーチで傷みを最小限に仕上げます。",
      "白髪ぼかしハイライトなど、年齢を重ねた髪を素敵に見せるカラーが人気です。",
    ],
    atmospheres: [
      "カウンセリングから仕上げまで丁寧に行い、お悩みをじっくり伺います。",
      "ドリンクサービスやブランケットのご用意もあり、ゆったりと過ごしていただけます。",
      "お仕事帰りや休日のご褒美に、気軽にお立ち寄りください。",
      "スタイリング方法やホームケアのアドバイスもお気軽にどうぞ。",
    ],
    photoAlts: [
      "明るく開放感のあるセット面",
      "シャンプー台のある落ち着いた空間",
      "施術に使うハサミとコーム",
    ],
  },
  nail: {
    namePatterns: [
      { name: "nail atelier {latin}", kana: "ネイルアトリエ {kana}" },
      { name: "Nail Salon {latin}", kana: "ネイルサロン {kana}" },
      { name: "ネイルサロン {kana}", kana: "ネイルサロン {kana}" },
      { name: "{latin} nail", kana: "{kana} ネイル" },
      { name: "nail room {latin}", kana: "ネイルルーム {kana}" },
    ],
    catchCopies: [
      "持ちの良さと丁寧なケアにこだわるネイルサロン",
      "季節を先取りする、毎月更新の定額デザイン",
      "大人のためのニュアンスアートが得意です",
      "自爪にやさしいパラジェル取扱店",
      "オフィスでも浮かない、上品な指先に",
      "ネイリストとマンツーマンの心地よい時間を",
    ],
    intros: [
      "{station}駅から徒歩{minutes}分、ネイリストとマンツーマンで過ごせるネイルサロンです。",
      "{area}の静かな通りにある、白とくすみピンクを基調にした可愛らしいサロンです。",
      "{station}駅から徒歩{minutes}分。お仕事帰りにも通いやすい立地のネイルサロンです。",
      "隠れ家のような落ち着いた空間で、指先のおしゃれを楽しんでいただけます。",
    ],
    strengths: [
      "一人ひとりの爪の形や生活スタイルに合わせて、ベースから丁寧に仕上げるので持ちの良さが自慢です。",
      "毎月更新される定額デザインは、季節感のあるトレンドアートを手頃な価格でお楽しみいただけます。",
      "自爪を削らないパラジェルを取り扱い、薄い爪や割れやすい爪のお悩みにも対応しています。",
      "手描きアートやマグネット、ミラーなど多彩な技術で、イメージ通りのデザインを叶えます。",
    ],
    atmospheres: [
      "ブランケットやお飲み物をご用意し、リラックスして過ごせる空間づくりを大切にしています。",
      "デザインに迷ったら、サンプルを見ながら一緒に選びましょう。",
      "動画配信サービスを観ながら施術を受けられる席もございます。",
      "他店で施術したジェルのオフも承りますので、お気軽にご予約ください。",
    ],
    photoAlts: ["ネイルカラーのボトルが並ぶ棚", "明るい施術テーブル", "ネイルデザインのサンプル"],
  },
  eyelash: {
    namePatterns: [
      { name: "まつげサロン {kana}", kana: "マツゲサロン {kana}" },
      { name: "eyelash salon {latin}", kana: "アイラッシュサロン {kana}" },
      { name: "{latin} eye&brow", kana: "{kana} アイアンドブロウ" },
      { name: "まつげエクステ専門店 {kana}", kana: "マツゲエクステセンモンテン {kana}" },
      { name: "Eyelash {latin}", kana: "アイラッシュ {kana}" },
    ],
    catchCopies: [
      "目の形に合わせたオーダーメイドデザイン",
      "話題のパリジェンヌラッシュリフト取扱店",
      "まつげと眉で、すっぴんにも自信を",
      "自まつげにやさしい、持ちの良い装着技術",
      "一重・奥二重さんのまつげパーマが得意です",
      "ナチュラルからボリュームまで、理想の目元に",
    ],
    intros: [
      "{station}駅から徒歩{minutes}分、全席リクライニングチェアのまつげサロンです。",
      "{area}エリアで、目元のデザインに特化したアイラッシュサロンです。",
      "{station}駅から徒歩{minutes}分。完全予約制で、落ち着いた空間をご用意しています。",
      "やわらかな照明の中で、施術中もゆったりお休みいただけるサロンです。",
    ],
    strengths: [
      "目の形や骨格、なりたいイメージを伺い、一人ひとりに似合うデザインをご提案します。",
      "自まつげへの負担を抑えた丁寧な装着で、持ちの良さに定評があります。",
      "まつげパーマと眉毛Waxを組み合わせた、目元のトータルデザインが人気です。",
      "低刺激のグルーや薬剤を使用しているので、初めての方も安心してお任せください。",
    ],
    atmospheres: [
      "施術前のカウンセリングを大切にし、仕上がりのイメージをしっかり共有します。",
      "施術後はホームケアの方法もお伝えしています。",
      "お仕事帰りにも通いやすいよう、夜の時間帯もご予約いただけます。",
      "仕上がりにご満足いただけない場合は、1週間以内のお直しも承ります。",
    ],
    photoAlts: [
      "リクライニングチェアが並ぶ施術スペース",
      "まつげエクステの道具",
      "やわらかな照明の待合スペース",
    ],
  },
  esthetic: {
    namePatterns: [
      { name: "エステサロン {kana}", kana: "エステサロン {kana}" },
      { name: "Beauty Salon {latin}", kana: "ビューティーサロン {kana}" },
      { name: "{latin} esthetic", kana: "{kana} エステティック" },
      { name: "トータルビューティー {kana}", kana: "トータルビューティー {kana}" },
      { name: "Private Esthetic {latin}", kana: "プライベートエステ {kana}" },
    ],
    catchCopies: [
      "完全個室で受ける、ご褒美フェイシャル",
      "むくみ知らずの軽い身体へ",
      "肌診断にもとづくオーダーメイドケア",
      "痛みの少ない美容脱毛で、つるすべ肌に",
      "ブライダル前の集中ケアもお任せください",
      "無理な勧誘なし、通いやすい価格のエステサロン",
    ],
    intros: [
      "{station}駅から徒歩{minutes}分、全室個室のプライベートエステサロンです。",
      "{area}エリアで、フェイシャルとボディケアを専門にしているサロンです。",
      "{station}駅から徒歩{minutes}分。アロマの香りに包まれる癒やしの空間でお迎えします。",
      "マンションの一室を改装した、隠れ家のような落ち着いたエステサロンです。",
    ],
    strengths: [
      "肌診断で今の肌状態を確認し、一人ひとりに合わせたケアをご提案します。",
      "ハンドトリートメントと最新マシンを組み合わせ、効果を実感しやすい施術を行います。",
      "痛みの少ない脱毛マシンを導入しており、肌が弱い方にも安心して通っていただけます。",
      "リンパドレナージュを中心としたボディケアで、むくみや疲れをすっきりさせます。",
    ],
    atmospheres: [
      "無理な勧誘は一切ありませんので、初めての方もお気軽にお越しください。",
      "施術後はハーブティーを飲みながら、ゆっくりお過ごしいただけます。",
      "パウダールームを完備しているので、お出かけ前のご来店にも便利です。",
      "ご自宅でできるケアの方法も丁寧にお伝えします。",
    ],
    photoAlts: [
      "白を基調とした個室の施術ベッド",
      "アロマオイルとタオル",
      "落ち着いたカウンセリングスペース",
    ],
  },
  headspa: {
    namePatterns: [
      { name: "ヘッドスパ専門店 {kana}", kana: "ヘッドスパセンモンテン {kana}" },
      { name: "head spa {latin}", kana: "ヘッドスパ {kana}" },
      { name: "{latin} spa", kana: "{kana} スパ" },
      { name: "頭皮ケアサロン {kana}", kana: "トウヒケアサロン {kana}" },
      { name: "dry head spa {latin}", kana: "ドライヘッドスパ {kana}" },
    ],
    catchCopies: [
      "眠ってしまうほど心地よい、ヘッドスパ専門店",
      "頭のこりをほぐして、目元も気分もすっきり",
      "睡眠の質を変える、極上のリラクゼーション",
      "高濃度炭酸泉で、頭皮から健やかに",
      "パソコン疲れの目と首肩をまとめてケア",
      "仕事帰りに立ち寄れる、都会のオアシス",
    ],
    intros: [
      "{station}駅から徒歩{minutes}分、ヘッドスパに特化した完全個室のサロンです。",
      "{area}エリアで、頭皮と心のケアを専門にしているリラクゼーションサロンです。",
      "{station}駅から徒歩{minutes}分。照明を落とした静かな空間で、深いリラックスへご案内します。",
      "ヒーリング音楽とアロマに包まれる、日常を忘れられる隠れ家サロンです。",
    ],
    strengths: [
      "国家資格を持つセラピストが、頭皮の状態に合わせてじっくりとほぐします。",
      "高濃度炭酸泉を使ったスパで、毛穴の汚れを落としながら血行を促します。",
      "お湯を使わないドライヘッドスパは、メイクや髪型を崩さずに受けられると好評です。",
      "眼精疲労や首肩のこりに特化したコースで、頭も目元も軽くなります。",
    ],
    atmospheres: [
      "施術中に眠ってしまっても大丈夫。起こさずに最後まで丁寧に仕上げます。",
      "パウダールームを完備しているので、施術後もそのままお出かけいただけます。",
      "ホームケアのアドバイスもお気軽にご相談ください。",
      "お仕事帰りの方にも通いやすいよう、夜遅くまで営業しています。",
    ],
    photoAlts: ["照明を落とした個室のスパベッド", "スパに使うタオルとオイル", "静かな待合スペース"],
  },
};

/** Regular holiday patterns: weekday numbers (0 = Sunday) and how they are described. */
export type HolidayPattern = { weekdays: readonly number[]; note: string; weight: number };

export const holidayPatterns: readonly HolidayPattern[] = [
  { weekdays: [2], note: "毎週火曜日", weight: 22 },
  { weekdays: [1], note: "毎週月曜日", weight: 22 },
  { weekdays: [3], note: "毎週水曜日", weight: 8 },
  { weekdays: [1, 2], note: "毎週月曜日・火曜日", weight: 5 },
  { weekdays: [], note: "年中無休（年末年始を除く）", weight: 20 },
  { weekdays: [], note: "不定休", weight: 13 },
  { weekdays: [0], note: "毎週日曜日", weight: 5 },
  { weekdays: [4], note: "毎週木曜日", weight: 5 },
];

/** Who reviews: "20代後半・女性". */
export const ageBands: readonly { label: string; weight: number }[] = [
  { label: "10代", weight: 3 },
  { label: "20代前半", weight: 14 },
  { label: "20代後半", weight: 18 },
  { label: "30代前半", weight: 18 },
  { label: "30代後半", weight: 15 },
  { label: "40代", weight: 17 },
  { label: "50代", weight: 10 },
  { label: "60代以上", weight: 5 },
];
