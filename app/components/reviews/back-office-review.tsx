import type { ReactNode } from "react";

/** What the back office shows of one review (the salon's list and the moderation queue). */
export type BackOfficeReviewFacts = {
  id: string;
  rating: number;
  aspects: { key: string; label: string; value: number }[];
  title: string;
  body: string;
  authorLabel: string;
  visitedLabel: string;
  writtenLabel: string;
  staffName: string | null;
  menus: string[];
  hidden: boolean;
  reply: { body: string; repliedLabel: string; updatedLabel: string | null } | null;
};

/**
 * One review as the salon and the administrator read it. Text is shown as
 * text (React escapes it; URLs stay plain, never links) with its line
 * breaks kept; long words wrap at 320 px.
 */
export function BackOfficeReview({
  review,
  headingLevel = 2,
  children,
}: {
  review: BackOfficeReviewFacts;
  headingLevel?: 2 | 3;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      id={`review-${review.id}`}
      aria-labelledby={`review-${review.id}-heading`}
      className={`flex min-w-0 flex-col gap-2 rounded-lg border p-4 ${
        review.hidden ? "border-neutral-500 bg-neutral-100" : "border-neutral-300"
      }`}
    >
      <Heading id={`review-${review.id}-heading`} className="text-lg font-bold break-words">
        <span aria-hidden="true">{"★".repeat(review.rating)}</span>
        <span className="sr-only">評価{review.rating}</span>
        <span aria-hidden="true">{review.rating}</span>
        <span className="ml-2">{review.title || `${review.authorLabel}さんの口コミ`}</span>
      </Heading>
      <p className="flex flex-wrap gap-2 text-sm">
        <span className="rounded bg-green-100 px-2 py-0.5 font-bold text-green-900">来店済み</span>
        {review.hidden ? (
          <span className="rounded bg-neutral-700 px-2 py-0.5 font-bold text-white">非表示</span>
        ) : null}
        <span>{review.authorLabel}</span>
        <span>来店日 {review.visitedLabel}</span>
        <span>投稿 {review.writtenLabel}</span>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <div className="contents">
          <dt className="font-bold">スタイリスト</dt>
          <dd className="break-words">{review.staffName ?? "—"}</dd>
        </div>
        <div className="contents">
          <dt className="font-bold">メニュー</dt>
          <dd className="break-words">{review.menus.length > 0 ? review.menus.join("、") : "—"}</dd>
        </div>
        {review.aspects.map((aspect) => (
          <div key={aspect.key} className="contents">
            <dt className="font-bold">{aspect.label}</dt>
            <dd>{aspect.value}/5</dd>
          </div>
        ))}
      </dl>
      <p className="whitespace-pre-line break-words">{review.body}</p>
      {review.reply ? (
        <div className="rounded-lg border-l-4 border-brand-700 bg-brand-50 p-3">
          <p className="font-bold">サロンからの返信</p>
          <p className="whitespace-pre-line break-words">{review.reply.body}</p>
          <p className="mt-1 text-sm text-neutral-700">
            {review.reply.repliedLabel}
            {review.reply.updatedLabel ? `（${review.reply.updatedLabel} 更新）` : ""}
          </p>
        </div>
      ) : null}
      {children}
    </article>
  );
}
