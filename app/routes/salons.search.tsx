import { appContext } from "../../server/context";
import { parseSearchQuery, searchQueryToParams } from "../../server/salons/search.schema";
import { loadSearchPage } from "../../server/salons/search-page";
import { SearchForm } from "../components/salons/search-form";
import { activeConditions, SearchResults } from "../components/salons/search-results";
import { originFromMatches, pageMeta } from "../lib/meta";
import { publicPageHeaders } from "../lib/page-cache";
import type { Route } from "./+types/salons.search";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { query, result, options } = loaderData;
  const conditions = activeConditions(query, options).map((condition) => condition.label);
  const subject = conditions.length > 0 ? conditions.join("・") : "すべてのサロン";
  const params = searchQueryToParams({ ...query, lat: undefined, lng: undefined }).toString();
  return pageMeta({
    title: `${subject}の検索結果${query.page > 1 ? `（${query.page}ページ目）` : ""}`,
    description: `${subject}の条件に合うサロン${result.total}件。口コミ評価・価格・エリアから比較して、そのままネット予約できます。`,
    path: params ? `/salons/search?${params}` : "/salons/search",
    origin: originFromMatches(matches),
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const query = parseSearchQuery(new URL(request.url).searchParams);
  const { result, options } = await loadSearchPage(db, query, new Date());
  return { query, result, options };
}

export default function SalonSearch({ loaderData }: Route.ComponentProps) {
  const { query, result, options } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">サロンを探す</h1>
      <div className="mt-6 grid grid-cols-1 gap-8 lg:grid-cols-[18rem_1fr]">
        <div>
          {/* Keyed by the URL so the controls show the conditions after back/forward. */}
          <SearchForm key={searchQueryToParams(query).toString()} query={query} options={options} />
        </div>
        <SearchResults query={query} result={result} options={options} />
      </div>
    </div>
  );
}
