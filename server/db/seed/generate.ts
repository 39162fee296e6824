import type { SalonGenre } from "../../../common/genres";
import { addDays, weekdayOf } from "../../../common/local-time";
import { japaneseHolidaysBetween } from "../../bookings/holidays";
import type { couponMenus, coupons, menuStaff, menus } from "../schema/menus";
import type { reviews } from "../schema/reviews";
import type { OpeningHours, salonFeatures, salonPhotos, salons } from "../schema/salons";
import type { salonBookingSettings, salonOpeningHours, staffSchedules } from "../schema/schedules";
import type { staff } from "../schema/staff";
import type { BookingMenuRow, BookingRow } from "./bookings";
import type { AreaSeed, StationSeed } from "./data/areas";
import { featureSeeds } from "./data/features";
import { type MenuTemplate, menuCatalogues } from "./data/menus";
import {
  brandWords,
  buildingNames,
  familyNames,
  femaleGivenNames,
  maleGivenNames,
} from "./data/names";
import {
  moodOf,
  reviewClosings,
  reviewMiddles,
  reviewOpenings,
  reviewTitles,
} from "./data/reviews";
import { ageBands, genreCopies, holidayPatterns } from "./data/salon-copy";
import {
  type PersonalNote,
  personalNotes,
  type Skill,
  type StaffCatalogue,
  type StaffRole,
  staffCatalogues,
} from "./data/staff";
import { seedId } from "./ids";
import { tagSeedPhotos } from "./photo-tags";
import { Random } from "./random";
import { withReviewExtras } from "./review-extras";
import { reviewVisits } from "./review-visits";

/**
 * Everything the seed writes for one salon, generated from nothing but the
 * salon's index: the same index always yields the same rows, whatever the
 * total number of salons.
 */

/** All demo dates are derived from this instant, never from the clock. */
export const BASE_DATE = new Date("2026-10-01T00:00:00+09:00");

const DAY_MS = 24 * 60 * 60 * 1000;

export type SalonRow = typeof salons.$inferInsert;
export type SalonFeatureRow = typeof salonFeatures.$inferInsert;
export type SalonPhotoRow = typeof salonPhotos.$inferInsert;
export type StaffRow = typeof staff.$inferInsert;
export type OpeningHoursRow = typeof salonOpeningHours.$inferInsert;
export type StaffScheduleRow = typeof staffSchedules.$inferInsert;
export type BookingSettingsRow = typeof salonBookingSettings.$inferInsert;
export type MenuRow = typeof menus.$inferInsert;
export type MenuStaffRow = typeof menuStaff.$inferInsert;
export type CouponRow = typeof coupons.$inferInsert;
export type CouponMenuRow = typeof couponMenus.$inferInsert;
/** A review as drawn, before review-visits.ts gives it the booking it stands on. */
export type ReviewRow = Omit<typeof reviews.$inferInsert, "bookingId"> & { bookingId?: string };
type StoredReviewRow = typeof reviews.$inferInsert;

export type SalonBundle = {
  salon: SalonRow;
  openingHours: OpeningHoursRow[];
  /** Null: the salon uses the default booking settings. */
  bookingSettings: BookingSettingsRow | null;
  features: SalonFeatureRow[];
  photos: SalonPhotoRow[];
  staff: StaffRow[];
  schedules: StaffScheduleRow[];
  menus: MenuRow[];
  menuStaff: MenuStaffRow[];
  coupons: CouponRow[];
  couponMenus: CouponMenuRow[];
  reviews: StoredReviewRow[];
  /** The completed visits the reviews stand on (review-visits.ts), inserted before them. */
  reviewBookings: BookingRow[];
  reviewBookingMenus: BookingMenuRow[];
};

/** An area as stored, with the ids and prefecture name the generator needs. */
export type ResolvedArea = AreaSeed & {
  id: string;
  prefectureName: string;
  stationIds: ReadonlyMap<string, string>;
};

const genreWeights: Record<SalonGenre, number> = {
  hair: 45,
  nail: 20,
  eyelash: 15,
  esthetic: 12,
  headspa: 8,
};
const genres = Object.keys(genreWeights) as SalonGenre[];

/**
 * The first salons go one of each genre to each area in turn, so every area
 * has every genre (表参道 ネイル finds nail salons) whatever the weights
 * draw; the rest follow the weights. Null past those first salons.
 */
export function coveringPlacement<A>(
  index: number,
  areas: readonly A[],
): { area: A; genre: SalonGenre } | null {
  const slot = index - 1;
  const area = areas[Math.floor(slot / genres.length)];
  const genre = genres[slot % genres.length];
  return area && genre && slot >= 0 ? { area, genre } : null;
}

export function areaId(slug: string): string {
  return seedId(`area:${slug}`);
}

export function stationId(slug: string): string {
  return seedId(`station:${slug}`);
}

export function salonId(index: number): string {
  return seedId(`salon:${index}`);
}

/** ひらがな → カタカナ (readings of stations are stored in hiragana). */
function toKatakana(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += code >= 0x3041 && code <= 0x3096 ? String.fromCodePoint(code + 0x60) : char;
  }
  return out;
}

/** 8800 → "8,800" without depending on the runtime's locale data. */
function groupThousands(value: number): string {
  return value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Rounds to prices salons actually charge: ¥110 steps below ¥3,300, ¥550 steps above. */
function roundPrice(value: number): number {
  const step = value < 3300 ? 110 : 550;
  return Math.max(step, Math.round(value / step) * step);
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The weekdays a stylist works (their shifts), or the salon's open days for no stylist. */
function workDaysOf(
  schedules: readonly StaffScheduleRow[],
  staffId: string | null,
  openDays: readonly number[],
): ReadonlySet<number> {
  if (staffId === null) return new Set(openDays);
  return new Set(schedules.filter((row) => row.staffId === staffId).map((row) => row.weekday));
}

/**
 * A review's visit moved back to the nearest earlier day the salon was open
 * and its stylist worked (not a public holiday when the salon closes on
 * them): a demo review dated on the salon's closed weekday reads as made up.
 * The review was written as long after the visit as before.
 */
function moveToWorkingDay(
  review: ReviewRow,
  workDays: ReadonlySet<number>,
  closedOnPublicHolidays: boolean,
) {
  if (workDays.size === 0 || !review.visitedOn) return;
  const visited = review.visitedOn;
  const holidays = closedOnPublicHolidays
    ? japaneseHolidaysBetween(addDays(visited, -21), visited)
    : new Map<string, string>();
  let day = visited;
  let back = 0;
  while (back < 21 && (!workDays.has(weekdayOf(day)) || holidays.has(day))) {
    day = addDays(day, -1);
    back += 1;
  }
  if (back === 0 || back === 21) return;
  review.visitedOn = day;
  if (review.createdAt) review.createdAt = new Date(review.createdAt.getTime() - back * DAY_MS);
}

function daysBefore(days: number, base: Date = BASE_DATE): Date {
  return new Date(base.getTime() - days * DAY_MS);
}

function minutesOf(time: string): number {
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  return hours * 60 + minutes;
}

function timeOf(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h.toString().padStart(2, "0")}:${m.toString().padStart(2, "0")}`;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

function phoneNumber(rng: Random, areaCode: string): string {
  const localDigits = 10 - areaCode.length;
  const exchangeDigits = localDigits - 4;
  let exchange = String(rng.int(2, 9));
  while (exchange.length < exchangeDigits) exchange += String(rng.int(0, 9));
  const line = String(rng.int(0, 9999)).padStart(4, "0");
  return `${areaCode}-${exchange}-${line}`;
}

function streetNumber(rng: Random, numbering: "chome" | "banchi" | undefined): string {
  if (numbering === "banchi") {
    const lot = rng.int(1, 680);
    return rng.chance(0.5) ? `${lot}-${rng.int(1, 6)}` : String(lot);
  }
  return `${rng.int(1, 5)}-${rng.int(1, 28)}-${rng.int(1, 18)}`;
}

function accessText(station: StationSeed, line: string, exit: string, minutes: number): string {
  if (exit === "電停") return `${line} ${station.name}電停より徒歩${minutes}分`;
  return `${line} ${station.name}駅 ${exit}より徒歩${minutes}分`;
}

/** Moves a point `metres` away from (lat, lng) in direction `angle` (radians). */
function offset(lat: number, lng: number, metres: number, angle: number) {
  const dLat = (metres * Math.cos(angle)) / 111_320;
  const dLng = (metres * Math.sin(angle)) / (111_320 * Math.cos((lat * Math.PI) / 180));
  return {
    latitude: Math.round((lat + dLat) * 1e6) / 1e6,
    longitude: Math.round((lng + dLng) * 1e6) / 1e6,
  };
}

type Person = { name: string; kana: string; familyName: string; female: boolean };

function personName(rng: Random, femaleShare: number, taken: Set<string>): Person {
  for (;;) {
    const female = rng.chance(femaleShare);
    const family = rng.pick(familyNames);
    const given = rng.pick(female ? femaleGivenNames : maleGivenNames);
    const name = `${family.name} ${given.name}`;
    if (taken.has(name)) continue;
    taken.add(name);
    return { name, kana: `${family.kana} ${given.kana}`, familyName: family.name, female };
  }
}

const textOf = (line: Skill | PersonalNote) => (typeof line === "string" ? line : line.text);

/**
 * A staff member's profile that fits them: a trainee says what they do
 * while training, a claim of experience needs the years, and a personal
 * note written by a mother or a father goes to a woman or a man.
 */
export function staffProfile(
  rng: Random,
  catalogue: StaffCatalogue,
  role: StaffRole,
  person: { female: boolean; yearsOfExperience: number },
): string {
  const skills =
    role.trainee && catalogue.traineeSkills
      ? catalogue.traineeSkills
      : catalogue.skills.filter(
          (skill) => typeof skill === "string" || skill.minYears <= person.yearsOfExperience,
        );
  const notes = personalNotes.filter(
    (note) => typeof note === "string" || note.female === person.female,
  );
  return `${textOf(rng.pick(skills))}${textOf(rng.pick(notes))}`;
}

function pickMenus(rng: Random, genre: SalonGenre): MenuTemplate[] {
  const catalogue = menuCatalogues[genre];
  const all = catalogue.menus;
  const count = rng.int(8, Math.min(20, all.length));
  const chosen = new Set<MenuTemplate>();
  for (const category of catalogue.coreCategories) {
    chosen.add(rng.pick(all.filter((m) => m.category === category)));
  }
  for (const menu of rng.shuffle(all)) {
    if (chosen.size >= count) break;
    chosen.add(menu);
  }
  return all.filter((m) => chosen.has(m));
}

type CouponDraft = Omit<CouponRow, "id" | "salonId" | "validFrom" | "validUntil" | "createdAt"> & {
  menuId?: string;
};

function couponDrafts(rng: Random, menuRows: readonly MenuRow[]): CouponDraft[] {
  const mainMenus = menuRows.filter((m) => m.price >= 4400);
  const percent = rng.pick([10, 15, 20]);
  const weekdayAmount = rng.pick([500, 1000, 1500]);
  const drafts: CouponDraft[] = [
    {
      title: `【新規限定】全メニュー${percent}%OFF`,
      description: "初めての方に、すべてのメニューでご利用いただけるクーポンです。",
      discountKind: "percent",
      discountValue: percent,
      conditions: "初めてご来店の方限定。他のクーポンとの併用はできません。",
      target: "new",
    },
    {
      title: `【平日限定】¥${groupThousands(weekdayAmount)}OFF`,
      description: "月曜日から金曜日のご来店でお得になるクーポンです。",
      discountKind: "amount",
      discountValue: weekdayAmount,
      conditions: "平日（祝日を除く）のご来店に限ります。",
      // 月〜金 (bit 1 … bit 5).
      weekdays: 0b0111110,
    },
    {
      title: "【再来店】2か月以内のご来店で10%OFF",
      description: "前回のご来店から2か月以内にご予約の方が対象です。",
      discountKind: "percent",
      discountValue: 10,
      conditions: "前回来店日から2か月以内のご来店に限ります。",
      target: "returning",
    },
  ];
  const fixedMenu = mainMenus.length > 0 ? rng.pick(mainMenus) : undefined;
  if (fixedMenu?.id) {
    const price = roundPrice(fixedMenu.price * rng.pick([0.75, 0.8, 0.85]));
    drafts.push({
      title: `【新規】${fixedMenu.name} ¥${groupThousands(price)}`,
      description: `通常¥${groupThousands(fixedMenu.price)}の${fixedMenu.name}を特別価格でご提供します。`,
      discountKind: "fixed_price",
      discountValue: price,
      conditions: "初めてご来店の方限定。",
      target: "new",
      menuId: fixedMenu.id,
    });
    drafts.push({
      title: `${fixedMenu.name} ¥1,100OFF`,
      description: `${fixedMenu.name}をご予約の方は、どなたでもご利用いただけます。`,
      discountKind: "amount",
      discountValue: 1100,
      conditions: "ご予約時にクーポンを選択してください。",
      menuId: fixedMenu.id,
    });
  }
  const picked = rng.sample(drafts, rng.int(1, 3));
  // A salon offers at most one coupon per menu.
  const seenMenus = new Set<string>();
  return picked.filter((d) => {
    if (!d.menuId) return true;
    if (seenMenus.has(d.menuId)) return false;
    seenMenus.add(d.menuId);
    return true;
  });
}

/** Generates salon number `index` (1-based) and everything that belongs to it. */
export function generateSalon(index: number, areas: readonly ResolvedArea[]): SalonBundle {
  const rng = new Random(`salon:${index}`);
  const id = salonId(index);
  const covering = coveringPlacement(index, areas);
  const weightedArea = rng.weighted(areas, (a) => a.weight);
  const area = covering?.area ?? weightedArea;
  const station = rng.pick(area.stations);
  const stationRowId = area.stationIds.get(station.slug) ?? stationId(station.slug);
  const weightedGenre = rng.weighted(genres, (g) => genreWeights[g]);
  const genre = covering?.genre ?? weightedGenre;
  const copy = genreCopies[genre];

  // Name and slug
  const brand = rng.pick(brandWords);
  const pattern = rng.pick(copy.namePatterns);
  const branch = station.branch ?? { name: station.name, kana: station.kana };
  const withBranch = rng.chance(0.55);
  const name =
    fill(pattern.name, { latin: brand.latin, kana: brand.kana }) +
    (withBranch ? ` ${branch.name}店` : "");
  const nameKana =
    fill(pattern.kana, { latin: brand.kana, kana: brand.kana }) +
    (withBranch ? ` ${toKatakana(branch.kana)}テン` : "");
  const slug = `${brand.slug}-${station.slug}-${String(index).padStart(4, "0")}`;

  // Location
  const minutes = Math.min(15, 1 + Math.floor(rng.next() ** 1.4 * 12));
  const position = offset(
    station.latitude,
    station.longitude,
    minutes * 80 * (0.55 + rng.next() * 0.35),
    rng.next() * 2 * Math.PI,
  );
  const locality = rng.pick(area.localities);
  const floor = rng.weighted([1, 2, 3, 4, 5, 6, 7, 8], (f) => (f === 1 ? 3 : f <= 4 ? 4 : 1));
  const building = rng.chance(0.85) ? ` ${rng.pick(buildingNames)}${floor}F` : "";
  const address = `${area.prefectureName}${locality.locality}${streetNumber(rng, locality.numbering)}${building}`;
  const access = accessText(station, rng.pick(station.lines), rng.pick(station.exits), minutes);

  // Hours
  const opens = rng.weighted(
    [
      ["09:00", 1],
      ["09:30", 1],
      ["10:00", 6],
      ["10:30", 1],
      ["11:00", 2],
    ] as const,
    ([, w]) => w,
  )[0];
  const lateBias = genre === "headspa" || genre === "esthetic" || genre === "eyelash" ? 2 : 1;
  const closes = rng.weighted(
    [
      ["19:00", 2],
      ["19:30", 1],
      ["20:00", 4],
      ["21:00", 2 * lateBias],
      ["22:00", lateBias],
    ] as const,
    ([, w]) => w,
  )[0];
  const weekendCloses =
    rng.chance(0.35) && minutesOf(closes) > minutesOf("19:00") ? "19:00" : closes;
  const holiday = rng.weighted(holidayPatterns, (p) => p.weight);
  const openDays = [0, 1, 2, 3, 4, 5, 6].filter((d) => !holiday.weekdays.includes(d));
  const openingHours: OpeningHours[] = openDays.map((weekday) => ({
    weekday,
    opens,
    closes: weekday === 0 || weekday === 6 ? weekendCloses : closes,
  }));
  const closesAt = (weekday: number) =>
    openingHours.find((h) => h.weekday === weekday)?.closes ?? closes;

  // Staff and their weekly shifts
  const staffCatalogue = staffCatalogues[genre];
  const staffCount = rng.int(3, 8);
  const taken = new Set<string>();
  const staffRows: StaffRow[] = [];
  const scheduleRows: StaffScheduleRow[] = [];
  // Breaks and booking settings draw from their own stream, so adding them
  // left every earlier value of the salon's stream (names, menus …) as it was.
  const scheduleRng = new Random(`schedule:${index}`);
  const staffFamilyNames: string[] = [];
  const seniorStaffIds: string[] = [];
  const ageInDays = rng.int(60, 1800);
  const createdAt = daysBefore(ageInDays);
  for (let i = 0; i < staffCount; i++) {
    let role: StaffRole;
    if (i === 0) role = rng.pick(staffCatalogue.leads);
    else if (i === 1 && staffCount >= 5 && staffRows[0]?.role === "オーナー")
      role = staffCatalogue.leads[1] ?? rng.pick(staffCatalogue.members);
    else role = rng.pick(staffCatalogue.members);
    const person = personName(rng, staffCatalogue.femaleShare, taken);
    const staffRowId = seedId(`staff:${index}:${i}`);
    const avatar = person.female ? rng.int(1, 5) : rng.int(6, 8);
    const yearsOfExperience = rng.int(role.years[0], role.years[1]);
    staffRows.push({
      id: staffRowId,
      slug: `${slug}-staff-${i + 1}`,
      salonId: id,
      name: person.name,
      kana: person.kana,
      role: role.name,
      photoUrl: `/images/staff/avatar-${avatar}.svg`,
      profile: staffProfile(rng, staffCatalogue, role, {
        female: person.female,
        yearsOfExperience,
      }),
      yearsOfExperience,
      specialties: rng.sample(staffCatalogue.specialties, rng.int(2, 3)),
      sortOrder: i,
      active: true,
      createdAt,
    });
    staffFamilyNames.push(person.familyName);
    if (role.senior) seniorStaffIds.push(staffRowId);

    const workDays = rng.sample(openDays, Math.min(openDays.length, rng.int(4, 6)));
    workDays.sort((a, b) => a - b);
    const shape = rng.next();
    // Most stylists take a lunch break (13:00–14:00), which splits the day in two.
    const takesBreak = scheduleRng.chance(0.7);
    for (const weekday of workDays) {
      let start = minutesOf(opens);
      let end = minutesOf(closesAt(weekday));
      if (shape < 0.2 && end - start > 360) start += 60;
      else if (shape < 0.4 && end - start > 360) end -= 60;
      const intervals =
        takesBreak && start < 13 * 60 - 60 && end > 14 * 60 + 60
          ? [
              [start, 13 * 60],
              [14 * 60, end],
            ]
          : [[start, end]];
      intervals.forEach(([from, to], k) => {
        scheduleRows.push({
          id: seedId(`schedule:${index}:${i}:${weekday}:${k}`),
          salonId: id,
          staffId: staffRowId,
          weekday,
          startsAt: timeOf(from ?? start),
          endsAt: timeOf(to ?? end),
        });
      });
    }
  }

  // Menus
  const priceFactor = area.priceLevel * (0.9 + rng.next() * 0.25);
  const menuRows: MenuRow[] = [];
  const menuStaffRows: MenuStaffRow[] = [];
  pickMenus(rng, genre).forEach((template, k) => {
    const menuRowId = seedId(`menu:${index}:${k}`);
    menuRows.push({
      id: menuRowId,
      salonId: id,
      category: template.category,
      name: template.name,
      description: template.description,
      price: roundPrice(template.price * priceFactor),
      durationMinutes: template.durationMinutes,
      sortOrder: k,
      published: true,
      createdAt,
    });
    if (template.seniorOnly) {
      for (const staffRowId of seniorStaffIds)
        menuStaffRows.push({ menuId: menuRowId, staffId: staffRowId });
    }
  });

  // Coupons
  const couponRows: CouponRow[] = [];
  const couponMenuRows: CouponMenuRow[] = [];
  couponDrafts(rng, menuRows).forEach((draft, k) => {
    const { menuId, ...coupon } = draft;
    const couponRowId = seedId(`coupon:${index}:${k}`);
    const validFrom = rng.pick(["2026-04-01", "2026-06-01", "2026-08-01", "2026-09-01"]);
    couponRows.push({
      ...coupon,
      id: couponRowId,
      salonId: id,
      validFrom,
      validUntil: rng.chance(0.6) ? null : "2027-03-31",
      createdAt: new Date(`${validFrom}T00:00:00+09:00`),
    });
    if (menuId) couponMenuRows.push({ couponId: couponRowId, menuId });
  });
  // Every demo salon keeps its customers with a 再来 coupon (issue 41, §4), added
  // without drawing from rng so that everything generated after it stays as it was.
  if (!couponRows.some((coupon) => coupon.target === "returning")) {
    couponRows.push({
      id: seedId(`coupon:${index}:returning`),
      salonId: id,
      title: "【再来】全メニュー10%OFF",
      description: "ご来店いただいたことのある方へ、感謝をこめて。",
      discountKind: "percent",
      discountValue: 10,
      conditions: "当店にご来店いただいたことのある方限定です。",
      target: "returning",
      validFrom: "2026-04-01",
      validUntil: null,
      createdAt: new Date("2026-04-01T00:00:00+09:00"),
    });
  }

  // Photos: the cover rotates so neighbouring salons of a genre look different.
  const firstPhoto = index % 3;
  const photoRows: SalonPhotoRow[] = [0, 1, 2].map((k) => {
    const n = ((firstPhoto + k) % 3) + 1;
    return {
      id: seedId(`photo:${index}:${k}`),
      salonId: id,
      url: `/images/salons/${genre}-${n}.svg`,
      alt: `${name}の${copy.photoAlts[n - 1]}`,
      width: 800,
      height: 600,
      sortOrder: k,
    };
  });
  tagSeedPhotos(photoRows, staffRows, menuRows, menuStaffRows, new Random(`photo-tag:${index}`));

  // Reviews
  const reviewRows: ReviewRow[] = [];
  const reviewStaffNames: string[] = [];
  const reviewCount = rng.int(3, 12);
  const femaleVisitors = genre === "hair" ? 0.75 : genre === "headspa" ? 0.7 : 0.93;
  for (let k = 0; k < reviewCount; k++) {
    const rating = rng.weighted([5, 4, 3, 2, 1], (r) => [0, 2, 5, 11, 32, 50][r] ?? 0);
    const mood = moodOf(rating);
    const staffIndex = rng.int(0, staffRows.length - 1);
    const staffName = staffFamilyNames[staffIndex] ?? "";
    reviewStaffNames.push(staffName);
    const middles = rng.sample(reviewMiddles[genre][mood], mood === "positive" ? rng.int(1, 2) : 1);
    const body = [rng.pick(reviewOpenings[mood]), ...middles, rng.pick(reviewClosings[mood])]
      .join("")
      .replaceAll("{staff}", staffName);
    const visited = daysBefore(rng.int(2, Math.min(420, ageInDays - 7)));
    const age = rng.weighted(ageBands, (a) => a.weight).label;
    reviewRows.push({
      id: seedId(`review:${index}:${k}`),
      salonId: id,
      staffId: staffRows[staffIndex]?.id ?? null,
      authorLabel: `${age}・${rng.chance(femaleVisitors) ? "女性" : "男性"}`,
      rating,
      title: rng.pick(reviewTitles[mood]),
      body,
      visitedOn: isoDate(visited),
      createdAt: new Date(visited.getTime() + rng.int(1, 72) * 60 * 60 * 1000),
    });
  }

  // Features: some follow from the data, the rest are the salon's own choice.
  const featureSlugs = new Set<string>();
  if (minutes <= 5) featureSlugs.add("near-station");
  if (minutesOf(closes) >= minutesOf("21:00")) featureSlugs.add("open-late");
  if (minutesOf(opens) < minutesOf("10:00")) featureSlugs.add("morning");
  const derived = [...featureSlugs];
  const optional = featureSeeds
    .map((f) => f.slug)
    .filter(
      (s) =>
        !["near-station", "open-late", "morning"].includes(s) &&
        (s !== "weekend" || (openDays.includes(0) && openDays.includes(6))) &&
        (s !== "parking" || area.prefectureCode !== 13 || rng.chance(0.3)) &&
        (s !== "mens-welcome" || genre === "hair" || genre === "headspa" || rng.chance(0.2)),
    );
  const target = rng.int(2, 6);
  const chosenFeatures = [...derived, ...rng.shuffle(optional)].slice(
    0,
    Math.max(target, derived.length),
  );

  const salon: SalonRow = {
    id,
    slug,
    name,
    nameKana,
    genre,
    catchCopy: rng.pick(copy.catchCopies),
    description: [
      fill(rng.pick(copy.intros), {
        station: station.name,
        minutes: String(minutes),
        area: area.name,
      }),
      ...rng.sample(copy.strengths, rng.int(1, 2)),
      rng.pick(copy.atmospheres),
    ].join(""),
    postalCode: locality.postalCode,
    prefectureCode: area.prefectureCode,
    areaId: area.id,
    stationId: stationRowId,
    address,
    access,
    latitude: position.latitude,
    longitude: position.longitude,
    phone: phoneNumber(rng, area.phoneAreaCode),
    regularHolidays: [...holiday.weekdays],
    holidayNote: holiday.note,
    timeZone: "Asia/Tokyo",
    // search_text, price range and rating are derived after insert, the one
    // way every salon gets them (recomputeSalonsDerived in seed.ts).
    status: index > 300 && index % 50 === 0 ? "draft" : "published",
    createdAt,
    updatedAt: daysBefore(rng.int(0, 45)),
  };

  // About a third of the salons set their own booking rules; the rest use the defaults.
  const bookingSettings: BookingSettingsRow | null = scheduleRng.chance(0.35)
    ? {
        salonId: id,
        slotStepMinutes: scheduleRng.pick([15, 30] as const),
        leadTimeMinutes: scheduleRng.pick([60, 120, 180] as const),
        bookingWindowDays: scheduleRng.pick([30, 60, 90] as const),
        cancellationCutoffHours: scheduleRng.pick([24, 48] as const),
        bufferAfterMinutes: scheduleRng.pick([0, 0, 10, 15] as const),
        dailyLimitPerStaff: scheduleRng.chance(0.3) ? scheduleRng.int(4, 8) : null,
        sameDayCutoff: scheduleRng.chance(0.3) ? "17:00" : null,
        closedOnPublicHolidays: scheduleRng.chance(0.5),
      }
    : null;

  for (const review of reviewRows) {
    moveToWorkingDay(
      review,
      workDaysOf(scheduleRows, review.staffId ?? null, openDays),
      bookingSettings?.closedOnPublicHolidays ?? false,
    );
  }

  // Aspect ratings and replies from each review's own generator: a draw from
  // `rng` here would change every later value (search's tests read them).
  reviewRows.forEach((review, k) => {
    withReviewExtras(review, new Random(`review-extra:${index}:${k}`), reviewStaffNames[k] ?? "");
  });

  const visits = reviewVisits({
    salonId: id,
    index,
    opens,
    reviews: reviewRows,
    menus: menuRows,
    menuStaff: menuStaffRows,
  });

  return {
    salon,
    openingHours: openingHours.map((hours) => ({ salonId: id, ...hours })),
    bookingSettings,
    features: chosenFeatures.map((featureSlug) => ({ salonId: id, featureSlug })),
    photos: photoRows,
    staff: staffRows,
    schedules: scheduleRows,
    menus: menuRows,
    menuStaff: menuStaffRows,
    coupons: couponRows,
    couponMenus: couponMenuRows,
    reviews: reviewRows.filter((review): review is StoredReviewRow => Boolean(review.bookingId)),
    reviewBookings: visits.bookings,
    reviewBookingMenus: visits.bookingMenus,
  };
}
