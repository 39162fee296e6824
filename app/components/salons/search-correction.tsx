import { Link } from "react-router";
import { formatResultCount } from "../../../common/format";
import { searchQueryToParams } from "../../../common/search-query";
import type { SearchCorrection } from "../../../server/salons/search-correction";

/**
 * 「もしかして：『表参道』で検索しますか？（12件）」 above the results of a
 * search that found nothing (decision 0060). A plain link to that search:
 * without JavaScript a page load, with it a navigation after which the
 * results heading takes focus like every other search (search-results.tsx).
 */
export function SearchCorrectionNotice({ correction }: { correction: SearchCorrection | null }) {
  if (!correction) return null;
  const params = searchQueryToParams(correction.query).toString();
  return (
    <p className="mb-3 rounded border border-brand-700 bg-white px-3 py-2">
      <span className="font-bold">もしかして：</span>
      <Link to={`/salons/search?${params}`} className="text-brand-700 underline">
        「{correction.suggested}」で検索しますか？（
        {formatResultCount(correction.total, correction.totalIsLowerBound)}）
      </Link>
    </p>
  );
}
