import { getTableName } from "drizzle-orm";
import { createAccountServices } from "../server/accounts/account-services";
import {
  demoOwnerSalonSummary,
  describeDemoAccounts,
  describeDemoOwnerSalons,
  seedDemoAccounts,
} from "../server/accounts/demo-accounts";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { areas, prefectures, stations } from "../server/db/schema/areas";
import { bookingMenus, bookings } from "../server/db/schema/bookings";
import { articles } from "../server/db/schema/content";
import { couponMenus, coupons, menuStaff, menus } from "../server/db/schema/menus";
import { reviews } from "../server/db/schema/reviews";
import { features, salonFeatures, salonPhotos, salons } from "../server/db/schema/salons";
import {
  salonBookingSettings,
  salonOpeningHours,
  scheduleExceptions,
  staffSchedules,
} from "../server/db/schema/schedules";
import { staff } from "../server/db/schema/staff";
import { isSeeded, seedDatabase } from "../server/db/seed/seed";
import { prepareDatabase } from "../server/prepare-database.server";

/**
 * `npm run db:seed [-- --if-empty]`: applies migrations, then writes the
 * deterministic demo data set (SEED_SALONS salons, default 300). With
 * --if-empty it does nothing when salons already exist. Outside production
 * it then adds the demo accounts that are missing (a user, an owner of the
 * first three salons, an administrator) and prints their addresses and
 * password, and the owner's salons with their back-office addresses.
 */
const started = performance.now();
const ifEmpty = process.argv.slice(2).includes("--if-empty");
const salonCount = Number(process.env.SEED_SALONS ?? 300);
if (!Number.isInteger(salonCount) || salonCount < 0) {
  console.error(`SEED_SALONS must be a whole number of salons, got "${process.env.SEED_SALONS}"`);
  process.exit(1);
}

const config = loadConfig();
const handle = await openDatabase(config.DATABASE_URL);
try {
  // Before seeding: on an empty database the search-terms step only records
  // the dictionary's fingerprint, so the server does not recompute what the seed writes.
  await prepareDatabase(handle);
  if (ifEmpty && (await isSeeded(handle.db))) {
    console.log("demo data already present");
  } else {
    console.log(`seeding ${salonCount} salons (${handle.engine})`);
    await seedDatabase(handle.db, { salonCount, log: (message) => console.log(`  ${message}`) });
    const tables = [
      prefectures,
      areas,
      stations,
      features,
      articles,
      salons,
      salonOpeningHours,
      salonBookingSettings,
      salonFeatures,
      salonPhotos,
      staff,
      staffSchedules,
      scheduleExceptions,
      menus,
      menuStaff,
      coupons,
      couponMenus,
      reviews,
      bookings,
      bookingMenus,
    ];
    for (const table of tables) {
      const count = await handle.db.$count(table);
      console.log(`  ${getTableName(table).padEnd(24)} ${count}`);
    }
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  }
  const accounts = createAccountServices(handle.db, config);
  try {
    const demo = await seedDemoAccounts(handle.db, accounts, config);
    if (demo.skipped) console.log("demo accounts: not created in production");
    else {
      console.log("demo accounts (email / password):");
      for (const line of describeDemoAccounts()) console.log(`  ${line}`);
      console.log("demo owner's salons (back office, today's bookings):");
      const ownerSalons = await demoOwnerSalonSummary(handle.db, new Date());
      for (const line of describeDemoOwnerSalons(ownerSalons, config.PUBLIC_URL)) {
        console.log(`  ${line}`);
      }
    }
  } finally {
    await accounts.close();
  }
} finally {
  await handle.close();
}
