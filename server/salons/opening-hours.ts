import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { type OpeningHours, salonOpeningHours } from "../db/schema";

/** A salon's weekly opening intervals, by weekday then opening time. */
export function openingHoursOf(db: Database, salonId: string): Promise<OpeningHours[]> {
  return db
    .select({
      weekday: salonOpeningHours.weekday,
      opens: localTime(salonOpeningHours.opens),
      closes: localTime(salonOpeningHours.closes),
    })
    .from(salonOpeningHours)
    .where(eq(salonOpeningHours.salonId, salonId))
    .orderBy(asc(salonOpeningHours.weekday), asc(salonOpeningHours.opens));
}
