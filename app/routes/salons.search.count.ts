import { SITE_TIME_ZONE } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import { parseSearch } from "../../common/search.schema";
import { appContext } from "../../server/context";
import { countSearchAsShown, readSpelling } from "../../server/salons/search-correction";
import { wordedSearchParams } from "../../server/salons/search-words";
import type { Route } from "./+types/salons.search.count";

/**
 * How many salons the search page would list for these conditions, as
 * `{ total }`: the phone filter dialog shows it while the visitor changes
 * the filters, before applying them. The same parse and count as the page
 * (countSalons; a typo respelled as the page respells it), without the page
 * of cards, its options or suggestions.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { readDb: db } = context.get(appContext);
  const now = new Date();
  const { searchParams } = new URL(request.url);
  // The keyword's dates, times and prices read as the page reads them before its redirect (decision 0059).
  const { query } = parseSearch(
    (await wordedSearchParams(db, searchParams, now)) ?? searchParams,
    calendarDay(now, SITE_TIME_ZONE),
  );
  // A typo the page would respell (表参堂 → 表参道) is counted as the page shows it (decision 0060).
  const total = await countSearchAsShown(db, query, now, readSpelling(searchParams));
  // Public data, the same for everyone; a few seconds of browser cache absorbs back-and-forth toggling.
  return Response.json({ total }, { headers: { "Cache-Control": "public, max-age=10" } });
}
