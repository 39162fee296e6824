import type { SalonGenre } from "../../../../common/genres";

/**
 * Menu catalogue per genre. Prices are typical tax-included yen for a
 * mid-priced salon; each salon scales them by its area's price level.
 */
export type MenuTemplate = {
  category: string;
  name: string;
  description: string;
  price: number;
  durationMinutes: number;
  /** Performed only by senior staff (recorded in menu_staff). */
  seniorOnly?: boolean;
};

export type MenuCatalogue = {
  /** Categories in display order; every salon offers at least one menu from the first few. */
  categories: readonly string[];
  /** Categories every salon of the genre offers. */
  coreCategories: readonly string[];
  menus: readonly MenuTemplate[];
};

const hair: MenuCatalogue = {
  categories: ["カット", "カラー", "パーマ", "トリートメント", "ヘッドスパ", "縮毛矯正"],
  coreCategories: ["カット", "カラー", "トリートメント"],
  menus: [
    {
      category: "カット",
      name: "カット（シャンプー・ブロー込み）",
      description: "骨格と髪質を見極め、再現性の高いスタイルに仕上げます。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "カット",
      name: "ディレクターカット",
      description: "経験豊富なディレクターが担当。似合わせにこだわりたい方に。",
      price: 7700,
      durationMinutes: 60,
      seniorOnly: true,
    },
    {
      category: "カット",
      name: "前髪カット",
      description: "前髪だけ整えたい方に。10分程度で仕上がります。",
      price: 1100,
      durationMinutes: 15,
    },
    {
      category: "カット",
      name: "メンズカット",
      description: "ビジネスにもオフにも馴染む、清潔感のあるメンズスタイル。",
      price: 4950,
      durationMinutes: 45,
    },
    {
      category: "カット",
      name: "学生カット",
      description: "中学生・高校生・専門学生・大学生の方限定。学生証をご提示ください。",
      price: 3850,
      durationMinutes: 45,
    },
    {
      category: "カット",
      name: "キッズカット（小学生以下）",
      description: "お子さまのカットも丁寧に。親子での来店も歓迎です。",
      price: 2750,
      durationMinutes: 30,
    },
    {
      category: "カラー",
      name: "カット＋カラー",
      description: "一番人気のセット。透明感のある旬のカラーをご提案します。",
      price: 11000,
      durationMinutes: 120,
    },
    {
      category: "カラー",
      name: "リタッチカラー（根元3cmまで）",
      description: "伸びてきた根元だけを染めるので、髪への負担を抑えられます。",
      price: 5500,
      durationMinutes: 75,
    },
    {
      category: "カラー",
      name: "イルミナカラー＋カット",
      description: "光に透ける柔らかな発色。ダメージを抑えたツヤ髪に。",
      price: 13200,
      durationMinutes: 120,
    },
    {
      category: "カラー",
      name: "ダブルカラー（ブリーチ1回込み）",
      description: "ハイトーンや透明感カラーに。ケアブリーチで傷みを最小限に。",
      price: 17600,
      durationMinutes: 180,
    },
    {
      category: "カラー",
      name: "グレイカラー（白髪染め）",
      description: "白髪をしっかり染めながら、明るさと透明感も叶えます。",
      price: 6600,
      durationMinutes: 90,
    },
    {
      category: "カラー",
      name: "ハイライト＋カット",
      description: "細く繊細なハイライトで立体感と抜け感をプラス。",
      price: 16500,
      durationMinutes: 150,
    },
    {
      category: "パーマ",
      name: "カット＋デジタルパーマ",
      description: "乾かすだけで形になる、朝のスタイリングが楽な大きめカール。",
      price: 15400,
      durationMinutes: 150,
    },
    {
      category: "パーマ",
      name: "カット＋コスメパーマ",
      description: "ダメージを抑えた化粧品登録の薬剤で、ふんわり柔らかな質感に。",
      price: 12100,
      durationMinutes: 120,
    },
    {
      category: "パーマ",
      name: "ポイントパーマ（前髪・毛先）",
      description: "前髪や毛先だけに動きをつけたい方に。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "パーマ",
      name: "メンズパーマ＋カット",
      description: "ツイストやニュアンスパーマで、スタイリングしやすい髪に。",
      price: 11000,
      durationMinutes: 105,
    },
    {
      category: "トリートメント",
      name: "TOKIOトリートメント",
      description: "髪の内部から補修する人気のトリートメント。手触りの違いを実感できます。",
      price: 5500,
      durationMinutes: 45,
    },
    {
      category: "トリートメント",
      name: "髪質改善トリートメント",
      description: "うねりやパサつきを抑え、ツヤとまとまりのある髪へ。",
      price: 8800,
      durationMinutes: 60,
    },
    {
      category: "トリートメント",
      name: "カット＋トリートメント",
      description: "カットと集中補修トリートメントのセットメニュー。",
      price: 8800,
      durationMinutes: 75,
    },
    {
      category: "トリートメント",
      name: "酸熱トリートメント",
      description: "熱の力で髪の内部を整え、扱いやすいツヤ髪に導きます。",
      price: 11000,
      durationMinutes: 90,
    },
    {
      category: "ヘッドスパ",
      name: "炭酸ヘッドスパ（20分）",
      description: "炭酸の泡で毛穴の汚れをすっきり。どのメニューにも追加できます。",
      price: 3300,
      durationMinutes: 30,
    },
    {
      category: "ヘッドスパ",
      name: "極上ヘッドスパ（40分）",
      description: "頭皮のこりをじっくりほぐす、眠ってしまうほど心地よいスパ。",
      price: 5500,
      durationMinutes: 45,
    },
    {
      category: "縮毛矯正",
      name: "縮毛矯正＋カット",
      description: "自然なストレートに。毛先まで柔らかく、ピンとしすぎない仕上がりです。",
      price: 19800,
      durationMinutes: 180,
    },
    {
      category: "縮毛矯正",
      name: "前髪縮毛矯正",
      description: "うねりやすい前髪だけをまっすぐに。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "縮毛矯正",
      name: "髪質改善ストレート",
      description: "トリートメント成分配合の薬剤で、ダメージレスにくせを伸ばします。",
      price: 22000,
      durationMinutes: 180,
      seniorOnly: true,
    },
  ],
};

const nail: MenuCatalogue = {
  categories: ["ハンドジェル", "フット", "ケア"],
  coreCategories: ["ハンドジェル", "ケア"],
  menus: [
    {
      category: "ハンドジェル",
      name: "ワンカラー",
      description: "お好きなカラーを1色で。シンプルでオフィスにもぴったり。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "ハンドジェル",
      name: "グラデーション",
      description: "指先に向けて色づく、上品で飽きのこないデザイン。",
      price: 6600,
      durationMinutes: 75,
    },
    {
      category: "ハンドジェル",
      name: "フレンチ",
      description: "定番のフレンチも、ラインの太さや色の組み合わせで今っぽく。",
      price: 6600,
      durationMinutes: 75,
    },
    {
      category: "ハンドジェル",
      name: "今月の定額デザインコース",
      description: "毎月更新される季節のデザインから選べる定額コース。",
      price: 7700,
      durationMinutes: 90,
    },
    {
      category: "ハンドジェル",
      name: "ニュアンスアート",
      description: "ミラーやマグネット、天然石風など、手描きを組み合わせたアート。",
      price: 8800,
      durationMinutes: 105,
    },
    {
      category: "ハンドジェル",
      name: "持ち込みデザイン",
      description: "画像をお持ちいただければ、爪の形に合わせて再現します。",
      price: 9900,
      durationMinutes: 120,
      seniorOnly: true,
    },
    {
      category: "フット",
      name: "フットワンカラー",
      description: "サンダルの季節に。角質ケアも追加できます。",
      price: 6600,
      durationMinutes: 75,
    },
    {
      category: "フット",
      name: "フットグラデーション",
      description: "足元を明るく見せる、さりげないグラデーション。",
      price: 7150,
      durationMinutes: 75,
    },
    {
      category: "フット",
      name: "フット定額アート",
      description: "親指アートとカラーの組み合わせが選べる定額コース。",
      price: 8250,
      durationMinutes: 90,
    },
    {
      category: "ケア",
      name: "ハンドケア（甘皮処理・保湿）",
      description: "甘皮と爪の形を整え、自爪を健やかに保ちます。",
      price: 3300,
      durationMinutes: 45,
    },
    {
      category: "ケア",
      name: "フットケア（角質ケア）",
      description: "かかとの角質を丁寧に取り除き、つるんとした足元に。",
      price: 4950,
      durationMinutes: 60,
    },
    {
      category: "ケア",
      name: "ジェルオフのみ",
      description: "他店で施術したジェルのオフも承ります。",
      price: 2200,
      durationMinutes: 30,
    },
    {
      category: "ケア",
      name: "パラジェル自爪補強",
      description: "自爪を削らないジェルで、薄い爪や割れやすい爪を補強します。",
      price: 5500,
      durationMinutes: 60,
    },
  ],
};

const eyelash: MenuCatalogue = {
  categories: ["まつげエクステ", "まつげパーマ", "アイブロウ"],
  coreCategories: ["まつげエクステ", "まつげパーマ"],
  menus: [
    {
      category: "まつげエクステ",
      name: "シングルラッシュ 100本",
      description: "ナチュラルに目元を強調したい方に。初めての方にもおすすめ。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "まつげエクステ",
      name: "シングルラッシュ 120本",
      description: "程よいボリュームで、すっぴんでもぱっちりした目元に。",
      price: 6600,
      durationMinutes: 75,
    },
    {
      category: "まつげエクステ",
      name: "フラットラッシュ 120本",
      description: "軽くて持ちの良いフラット毛。自まつげへの負担も少なめです。",
      price: 7150,
      durationMinutes: 75,
    },
    {
      category: "まつげエクステ",
      name: "ボリュームラッシュ 300束",
      description: "極細の毛を束にして装着。ふんわり華やかな目元をつくります。",
      price: 8800,
      durationMinutes: 90,
      seniorOnly: true,
    },
    {
      category: "まつげエクステ",
      name: "カラーエクステ 120本",
      description: "ブラウンやボルドーなど、目元にさりげない彩りを。",
      price: 7700,
      durationMinutes: 75,
    },
    {
      category: "まつげエクステ",
      name: "リペア 60分付け放題",
      description: "前回から3週間以内のご来店で。取れた部分を補充します。",
      price: 4950,
      durationMinutes: 60,
    },
    {
      category: "まつげパーマ",
      name: "パリジェンヌラッシュリフト",
      description: "根元から立ち上げ、自まつげを長く見せる人気メニュー。",
      price: 6600,
      durationMinutes: 60,
    },
    {
      category: "まつげパーマ",
      name: "次世代まつげパーマ",
      description: "ダメージを抑えた薬剤で、くるんと自然なカールが続きます。",
      price: 5500,
      durationMinutes: 60,
    },
    {
      category: "まつげパーマ",
      name: "まつげパーマ（上下）",
      description: "下まつげも一緒にカールして、目元の印象をアップ。",
      price: 7700,
      durationMinutes: 75,
    },
    {
      category: "アイブロウ",
      name: "眉毛Waxスタイリング",
      description: "お顔立ちに合わせて眉をデザイン。毛抜きよりきれいに長持ちします。",
      price: 5500,
      durationMinutes: 45,
    },
    {
      category: "アイブロウ",
      name: "ハリウッドブロウリフト",
      description: "眉毛の流れを整え、立体的で垢抜けた眉に。",
      price: 7700,
      durationMinutes: 60,
    },
    {
      category: "アイブロウ",
      name: "眉カット＆デザイン",
      description: "カットとシェービングで形を整える、気軽なお手入れメニュー。",
      price: 3850,
      durationMinutes: 30,
    },
  ],
};

const esthetic: MenuCatalogue = {
  categories: ["フェイシャル", "ボディ", "脱毛"],
  coreCategories: ["フェイシャル", "ボディ"],
  menus: [
    {
      category: "フェイシャル",
      name: "ベーシックフェイシャル",
      description: "クレンジングから保湿まで、肌状態に合わせた基本のお手入れ。",
      price: 7700,
      durationMinutes: 60,
    },
    {
      category: "フェイシャル",
      name: "毛穴洗浄ハイドラフェイシャル",
      description: "水流で毛穴の汚れや角栓を吸引し、透明感のある肌へ。",
      price: 9900,
      durationMinutes: 75,
    },
    {
      category: "フェイシャル",
      name: "小顔リフトアップフェイシャル",
      description: "表情筋とリンパにアプローチし、すっきりとしたフェイスラインに。",
      price: 13200,
      durationMinutes: 90,
      seniorOnly: true,
    },
    {
      category: "フェイシャル",
      name: "ハーブピーリング",
      description: "天然ハーブの力で肌のターンオーバーを促します。",
      price: 16500,
      durationMinutes: 90,
    },
    {
      category: "フェイシャル",
      name: "【初回】お試しフェイシャル",
      description: "カウンセリングと肌診断付き。初めての方におすすめです。",
      price: 4400,
      durationMinutes: 60,
    },
    {
      category: "ボディ",
      name: "痩身キャビテーション",
      description: "気になる部分を集中的にケアし、引き締まったボディラインへ。",
      price: 11000,
      durationMinutes: 60,
    },
    {
      category: "ボディ",
      name: "全身リンパドレナージュ",
      description: "オイルを使ったハンドトリートメントで、むくみと疲れをリセット。",
      price: 13200,
      durationMinutes: 90,
    },
    {
      category: "ボディ",
      name: "背中ニキビケア",
      description: "自分では見えない背中を、ピーリングと保湿で集中ケア。",
      price: 8800,
      durationMinutes: 60,
    },
    {
      category: "ボディ",
      name: "脚やせ集中コース",
      description: "脚のむくみを流し、すっきりとしたラインを目指します。",
      price: 9900,
      durationMinutes: 60,
    },
    {
      category: "脱毛",
      name: "全身脱毛（顔・VIO除く）",
      description: "痛みの少ない最新マシンで、全身をスピーディーに。",
      price: 16500,
      durationMinutes: 90,
    },
    {
      category: "脱毛",
      name: "VIO脱毛",
      description: "デリケートゾーンも経験豊富なスタッフが丁寧に対応します。",
      price: 7700,
      durationMinutes: 45,
    },
    {
      category: "脱毛",
      name: "ワキ脱毛",
      description: "短時間で終わるので、お昼休みにも通えます。",
      price: 2200,
      durationMinutes: 15,
    },
    {
      category: "脱毛",
      name: "顔脱毛",
      description: "産毛がなくなり、化粧ノリやトーンアップを実感できます。",
      price: 5500,
      durationMinutes: 30,
    },
    {
      category: "脱毛",
      name: "メンズヒゲ脱毛",
      description: "毎朝の髭剃りの手間と肌荒れを軽減します。",
      price: 6600,
      durationMinutes: 30,
    },
  ],
};

const headspa: MenuCatalogue = {
  categories: ["ヘッドスパ", "炭酸スパ", "オプション"],
  coreCategories: ["ヘッドスパ", "炭酸スパ"],
  menus: [
    {
      category: "ヘッドスパ",
      name: "スタンダードヘッドスパ 60分",
      description: "頭皮と首肩をしっかりほぐす、当店の基本コース。",
      price: 7700,
      durationMinutes: 60,
    },
    {
      category: "ヘッドスパ",
      name: "極上ヘッドスパ 90分",
      description: "デコルテまで含めた全身がゆるむロングコース。",
      price: 11000,
      durationMinutes: 90,
      seniorOnly: true,
    },
    {
      category: "ヘッドスパ",
      name: "睡眠導入ヘッドスパ",
      description: "眠れない、眠りが浅いという方に。深いリラックスへ導きます。",
      price: 9900,
      durationMinutes: 75,
    },
    {
      category: "ヘッドスパ",
      name: "眼精疲労ケアヘッドスパ",
      description: "パソコンやスマホで疲れた目元とこめかみを重点的にケア。",
      price: 8800,
      durationMinutes: 60,
    },
    {
      category: "ヘッドスパ",
      name: "ドライヘッドスパ 45分",
      description: "お湯を使わないので、仕事の合間やメイク後でも気軽に。",
      price: 5500,
      durationMinutes: 45,
    },
    {
      category: "炭酸スパ",
      name: "高濃度炭酸スパ 30分",
      description: "高濃度炭酸泉で頭皮の皮脂汚れをすっきり洗い流します。",
      price: 4400,
      durationMinutes: 30,
    },
    {
      category: "炭酸スパ",
      name: "炭酸スパ＋髪質改善トリートメント",
      description: "頭皮ケアと髪の補修を同時に。ツヤと軽さが続きます。",
      price: 8250,
      durationMinutes: 60,
    },
    {
      category: "炭酸スパ",
      name: "頭皮クレンジング炭酸スパ",
      description: "クレンジングジェルと炭酸泉で、毛穴の奥までリフレッシュ。",
      price: 6050,
      durationMinutes: 45,
    },
    {
      category: "オプション",
      name: "デコルテマッサージ",
      description: "首からデコルテのリンパを流すオプションです。",
      price: 2200,
      durationMinutes: 15,
    },
    {
      category: "オプション",
      name: "肩・首ほぐし 15分",
      description: "凝り固まった肩と首を集中的にほぐします。",
      price: 2200,
      durationMinutes: 15,
    },
    {
      category: "オプション",
      name: "マイクロスコープ頭皮診断",
      description: "頭皮の状態を画面で一緒に確認し、ホームケアをご提案します。",
      price: 1100,
      durationMinutes: 15,
    },
  ],
};

export const menuCatalogues: Record<SalonGenre, MenuCatalogue> = {
  hair,
  nail,
  eyelash,
  esthetic,
  headspa,
};
