import { calendarDay, SITE_TIME_ZONE } from "../../common/format";
import { parseSearch } from "../../common/search.schema";
import { appContext } from "../../server/context";
import { countSalons } from "../../server/salons/search";
import { withQueryWords } from "../../server/search/query-words";
import type { Route } from "./+types/salons.search.count";

/**
 * How many salons the search page would list for these conditions, as
 * `{ total }`: the phone filter dialog shows it while the visitor changes
 * the filters, before applying them. The same parse and count as the page
 * (countSalons), without the page of cards, its options or suggestions.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const now = new Date();
  const { searchParams } = new URL(request.url);
  // The keyword's dates, times and prices read as the page reads them before its redirect (decision 0059).
  const { query } = parseSearch(
    withQueryWords(searchParams, now) ?? searchParams,
    calendarDay(now, SITE_TIME_ZONE),
  );
  const total = await countSalons(db, query, now);
  // Public data, the same for everyone; a few seconds of browser cache absorbs back-and-forth toggling.
  return Response.json({ total }, { headers: { "Cache-Control": "public, max-age=10" } });
}
