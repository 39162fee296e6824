import { Link } from "react-router";
import { formatDate } from "../../common/format";
import { publicPageHeaders } from "../../common/page-cache";
import { listPublishedArticles } from "../../server/content/articles";
import { appContext } from "../../server/context";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/articles";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "特集・記事",
    description:
      "サロン選びのヒント、オーナーインタビュー、インターン・リワードプログラムのご案内。",
    path: "/articles",
    origin: originFromMatches(matches),
  });

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  return { articles: await listPublishedArticles(db, new Date()) };
}

const kindLabels = { article: "特集", interview: "インタビュー", programme: "プログラム" } as const;

export default function Articles({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-2xl font-bold sm:text-3xl">特集・記事</h1>
      <ul className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.articles.map((article) => (
          <li key={article.slug}>
            <article>
              <img
                src={article.coverUrl}
                alt={article.coverAlt}
                width={1200}
                height={630}
                loading="lazy"
                className="aspect-[40/21] h-auto w-full rounded-lg object-cover"
              />
              <p className="mt-2 text-xs text-neutral-700">
                {kindLabels[article.kind]}
                {article.publishedAt ? `・${formatDate(article.publishedAt)}` : ""}
              </p>
              <h2 className="mt-1 text-lg font-bold">
                <Link to={`/articles/${article.slug}`} className="hover:underline">
                  {article.title}
                </Link>
              </h2>
              <p className="mt-1 text-sm text-neutral-700">{article.summary}</p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
