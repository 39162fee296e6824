import { and, asc, eq, inArray } from "drizzle-orm";
import type { Config } from "../config";
import type { Database } from "../db/client";
import {
  type SalonMemberRole,
  salonMembers,
  salonOwners,
  salons,
  staff,
  users,
} from "../db/schema";
import { bookingsToday, demoOwnerSalons } from "../db/seed/demo-week";
import type { AccountServices } from "./account-services";
import type { Role } from "./current-user";
import { createReadyAccount } from "./ready-account";

const DEMO_OWNER_EMAIL = "demo-owner@example.jp";

/** One password for every demo account, printed by the seed, the start-up log and the README. */
export const DEMO_PASSWORD = "demo-pass-123";

/**
 * The development seed's accounts, one per side of the site, so a newcomer
 * can try each in a minute. Their own addresses: the e2e admin
 * (admin@example.jp) is made separately by `npm run admin:create`.
 */
export const demoAccounts = [
  {
    role: "user",
    label: "会員",
    email: "demo-user@example.jp",
    member: null,
    profile: {
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      gender: "female",
    },
  },
  {
    role: "owner",
    label: "サロンオーナー",
    email: DEMO_OWNER_EMAIL,
    member: null,
    profile: {
      name: "佐藤 美咲",
      nameKana: "サトウ ミサキ",
      phone: "09023456789",
      gender: "female",
    },
  },
  {
    role: "admin",
    label: "管理者",
    email: "demo-admin@example.jp",
    member: null,
    profile: {
      name: "鈴木 一郎",
      nameKana: "スズキ イチロウ",
      phone: "09034567890",
      gender: "male",
    },
  },
  // The first demo salon's staff (decision 0045): plain accounts with a role at that salon.
  {
    role: "user",
    label: "マネージャー（最初のデモサロン）",
    email: "demo-manager@example.jp",
    member: "manager",
    profile: {
      name: "高橋 真理",
      nameKana: "タカハシ マリ",
      phone: "09045678901",
      gender: "female",
    },
  },
  {
    role: "user",
    label: "受付（最初のデモサロン）",
    email: "demo-reception@example.jp",
    member: "reception",
    profile: {
      name: "田中 優子",
      nameKana: "タナカ ユウコ",
      phone: "09056789012",
      gender: "female",
    },
  },
  {
    role: "user",
    label: "スタイリスト（最初のデモサロン、最初のスタイリスト）",
    email: "demo-stylist@example.jp",
    member: "stylist",
    profile: { name: "伊藤 健太", nameKana: "イトウ ケンタ", phone: "09067890123", gender: "male" },
  },
] as const satisfies readonly {
  role: Role;
  label: string;
  email: string;
  /** A staff role at the first demo salon (salon_members), or null. */
  member: SalonMemberRole | null;
  profile: object;
}[];

/**
 * Creates the demo accounts that do not exist yet (safe to re-run) and links
 * the owner to the first three published salons by slug (the seed's busy
 * week). Never in production: fixed passwords printed in a README must not
 * open a real site.
 */
export async function seedDemoAccounts(
  db: Database,
  accounts: AccountServices,
  config: Pick<Config, "isProduction">,
): Promise<{ created: string[]; skipped: boolean }> {
  if (config.isProduction) return { created: [], skipped: true };
  const existing = new Set((await presentDemoAccounts(db)).map((account) => account.email));
  const created: string[] = [];
  for (const account of demoAccounts) {
    if (existing.has(account.email)) continue;
    await createReadyAccount(db, accounts, {
      email: account.email,
      password: DEMO_PASSWORD,
      role: account.role,
      profile: { ...account.profile, birthDate: null },
    });
    created.push(account.email);
  }
  await linkDemoOwner(db);
  await linkDemoStaff(db);
  return { created, skipped: false };
}

/** The demo owner runs the first published salons by slug, the ones the seed gives a busy week. */
async function linkDemoOwner(db: Database) {
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_OWNER_EMAIL));
  const list = await demoOwnerSalons(db);
  if (!owner || list.length === 0) return;
  await db
    .insert(salonOwners)
    .values(list.map((salon) => ({ salonId: salon.id, userId: owner.id })))
    .onConflictDoNothing();
}

/**
 * The demo staff work at the first demo salon (decision 0045); the stylist
 * account is its first active stylist, whose column the seed's week fills.
 */
async function linkDemoStaff(db: Database) {
  const [salon] = await demoOwnerSalons(db);
  if (!salon) return;
  const [stylist] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salon.id), eq(staff.active, true)))
    .orderBy(asc(staff.sortOrder), asc(staff.id))
    .limit(1);
  const members = demoAccounts.filter((account) => account.member !== null);
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        members.map((account) => account.email),
      ),
    );
  const values = rows.flatMap((row) => {
    const role = members.find((account) => account.email === row.email)?.member;
    if (!role || (role === "stylist" && !stylist)) return [];
    return [
      {
        salonId: salon.id,
        userId: row.id,
        role,
        staffId: role === "stylist" ? (stylist?.id ?? null) : null,
      },
    ];
  });
  if (values.length > 0) await db.insert(salonMembers).values(values).onConflictDoNothing();
}

/** The demo owner's salons with their 今日 page and today's bookings: printed at start-up. */
export async function demoOwnerSalonSummary(db: Database, now: Date) {
  const list = await db
    .select({ id: salons.id, name: salons.name, timeZone: salons.timeZone })
    .from(salonOwners)
    .innerJoin(users, eq(users.id, salonOwners.userId))
    .innerJoin(salons, eq(salons.id, salonOwners.salonId))
    .where(eq(users.email, DEMO_OWNER_EMAIL))
    .orderBy(asc(salons.slug));
  const counts = await bookingsToday(db, list, now);
  return list.map((salon) => ({
    name: salon.name,
    path: `/owner/salons/${salon.id}`,
    bookingsToday: counts.get(salon.id) ?? 0,
  }));
}

/** One line per demo owner's salon: its 今日 address and today's bookings. */
export function describeDemoOwnerSalons(
  list: Awaited<ReturnType<typeof demoOwnerSalonSummary>>,
  origin = "",
) {
  return list.map(
    (salon) => `${origin}${salon.path}  ${salon.name}（本日の予約 ${salon.bookingsToday}件）`,
  );
}

/** The demo accounts in this database, for the start-up log. */
export async function presentDemoAccounts(db: Database) {
  const emails = demoAccounts.map((account) => account.email);
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(inArray(users.email, emails));
  const present = new Set(rows.map((row) => row.email));
  return demoAccounts.filter((account) => present.has(account.email));
}

/** One line per demo account present: what the seed and the start-up log print. */
export function describeDemoAccounts(
  list: readonly (typeof demoAccounts)[number][] = demoAccounts,
) {
  return list.map(
    (account) =>
      `${(account.member ?? account.role).padEnd(9)}  ${account.email.padEnd(25)}  ${DEMO_PASSWORD}  (${account.label})`,
  );
}
