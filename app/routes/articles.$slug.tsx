import { Link } from "react-router";
import { formatDate } from "../../common/format";
import { publicPageHeaders } from "../../common/page-cache";
import { getPublishedArticle } from "../../server/content/articles";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/articles.$slug";

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? pageMeta({
        title: loaderData.article.title,
        description: loaderData.article.summary,
        path: `/articles/${loaderData.article.slug}`,
        origin: originFromMatches(matches),
        image: loaderData.article.coverUrl,
        type: "article",
      })
    : [];

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const article = /^[a-z0-9-]{1,80}$/.test(params.slug)
    ? await getPublishedArticle(db, params.slug, new Date())
    : null;
  if (!article) throw notFound(request);
  return { article };
}

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <nav aria-label="パンくずリスト" className="text-sm">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/" className="underline">
              トップ
            </Link>
            <span aria-hidden="true"> ›</span>
          </li>
          <li>
            <Link to="/articles" className="underline">
              特集・記事
            </Link>
            <span aria-hidden="true"> ›</span>
          </li>
          <li aria-current="page">{article.title}</li>
        </ol>
      </nav>
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{article.title}</h1>
      {article.publishedAt ? (
        <p className="mt-2 text-sm text-neutral-700">
          <time dateTime={new Date(article.publishedAt).toISOString()}>
            {formatDate(article.publishedAt)}
          </time>
        </p>
      ) : null}
      <img
        src={article.coverUrl}
        alt={article.coverAlt}
        width={1200}
        height={630}
        className="mt-6 aspect-[40/21] h-auto w-full rounded-lg object-cover"
      />
      <div
        className="prose-article mt-6"
        // Rendered from our own Markdown with raw HTML escaped (server/content/articles.ts).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized at render time
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
    </article>
  );
}
