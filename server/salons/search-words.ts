import { SITE_TIME_ZONE } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import { parseSearch } from "../../common/search.schema";
import type { Database } from "../db/client";
import { withQueryWords } from "../search/query-words";
import { countSalons } from "./search";

/**
 * The search the keyword's dates, times and prices ask for (decision 0059),
 * as the search page redirects to it and its phone dialog counts it; null
 * when the keyword has none. A weekday typed on that weekday (土曜 on a
 * Saturday evening) means today while today still finds salons, else the
 * same weekday next week when that finds them: a visitor who types 土曜
 * after the day's last free time wants the next Saturday, never an empty list.
 */
export async function wordedSearchParams(
  db: Database,
  params: URLSearchParams,
  now: Date,
): Promise<URLSearchParams | null> {
  const worded = withQueryWords(params, now, SITE_TIME_ZONE);
  if (!worded) return null;
  const nextWeek = withQueryWords(params, now, SITE_TIME_ZONE, true);
  if (!nextWeek || nextWeek.get("date") === worded.get("date")) return worded;
  const today = calendarDay(now, SITE_TIME_ZONE);
  const finds = async (search: URLSearchParams) =>
    (await countSalons(db, parseSearch(search, today).query, now, 1)) > 0;
  if (await finds(worded)) return worded;
  return (await finds(nextWeek)) ? nextWeek : worded;
}
