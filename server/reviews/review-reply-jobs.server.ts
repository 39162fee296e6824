import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { reviews, salons, users } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import { createMailer } from "../mail/mailer";
import { renderReviewReplyMail } from "../mail/review-reply-templates";

/**
 * The reviewer's notice of the salon's reply (decision 0056): one job per
 * review (its dedupe key), enqueued by the first reply's transaction, so
 * editing the reply, or saving it again, never mails twice. The handler
 * reads the review in the job's transaction and sends nothing if it was
 * hidden or deleted meanwhile, or has no account to write to (demo data).
 */

export const reviewReplyKind = "review_reply";

/** Inside the transaction of the first reply. */
export async function enqueueReviewReplyNotice(
  tx: Pick<Database, "insert">,
  review: { id: string; salonId: string },
  now: Date,
) {
  await enqueue(tx, {
    kind: reviewReplyKind,
    payload: { reviewId: review.id },
    runAt: now,
    dedupeKey: `review-reply:${review.id}`,
    salonId: review.salonId,
  });
}

export function reviewReplyJobHandlers(options: {
  mailFrom: string;
  publicUrl: string;
}): Record<string, JobHandler> {
  return {
    async [reviewReplyKind]({ tx, job }) {
      const reviewId = typeof job.payload.reviewId === "string" ? job.payload.reviewId : null;
      if (!reviewId) return;
      const [row] = await tx
        .select({
          title: reviews.title,
          replyBody: reviews.replyBody,
          email: users.email,
          salonName: salons.name,
          salonSlug: salons.slug,
        })
        .from(reviews)
        .innerJoin(salons, eq(salons.id, reviews.salonId))
        .innerJoin(users, eq(users.id, reviews.userId))
        .where(
          and(eq(reviews.id, reviewId), isNull(reviews.hiddenAt), isNotNull(reviews.replyBody)),
        );
      const to = row?.email.trim();
      if (!row?.replyBody || !to) return;
      await createMailer(tx, { from: options.mailFrom }).send(
        renderReviewReplyMail({
          to,
          salonName: row.salonName,
          reviewTitle: row.title,
          replyBody: row.replyBody,
          reviewUrl: `${options.publicUrl}/salons/${row.salonSlug}/reviews`,
        }),
      );
    },
  };
}
