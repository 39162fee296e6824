import { redirect } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { UUID_PATTERN } from "../../common/uuid";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import { listReviewsForSalon, saveReply } from "./review-replies.server";
import {
  type OwnerReviewQuery,
  ownerReviewQuerySchema,
  reviewReplySchema,
} from "./review-reply.schema";

/**
 * /owner/salons/{id}/reviews (issue 30, point 2; decision 0056): the page's
 * data and its one form (a reply, new or edited). A bad query falls back
 * to the first page of every review rather than an error screen.
 */

export const replyNotices = {
  replied: "返信を公開しました。口コミの下に「サロンからの返信」として表示されます。",
  updated: "返信を更新しました。",
} as const;
export type ReplyNotice = keyof typeof replyNotices;

export function readReviewQuery(url: URL): OwnerReviewQuery {
  const parsed = ownerReviewQuerySchema.safeParse({
    filter: url.searchParams.get("filter") || undefined,
    page: url.searchParams.get("page") || undefined,
  });
  return parsed.success ? parsed.data : { filter: "all", page: 1 };
}

/**
 * A page past the last (the last review of it just answered under 未返信のみ,
 * or an old link) goes to the last page that has reviews: the page's own
 * path (`base`; a client navigation's request is for `….data`) with the
 * query's `keys` kept.
 */
export function pastTheLast(
  base: string,
  url: URL,
  keys: readonly string[],
  list: { page: number; total: number; perPage: number },
) {
  const last = Math.max(1, Math.ceil(list.total / list.perPage));
  if (list.page <= last) return;
  const query = new URLSearchParams();
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value.slice(0, 100));
  }
  if (last > 1) query.set("page", String(last));
  const text = query.toString();
  throw redirect(text ? `${base}?${text}` : base);
}

export async function reviewReplyPage(db: Database, access: SalonAccess, url: URL) {
  const query = readReviewQuery(url);
  const list = await listReviewsForSalon(db, access.salon.id, query);
  pastTheLast(`/owner/salons/${access.salon.id}/reviews`, url, ["filter"], list);
  const done = url.searchParams.get("done");
  const answered = url.searchParams.get("answered") ?? "";
  return {
    salon: ownerPageSalon(access),
    list,
    notice: done && done in replyNotices ? replyNotices[done as ReplyNotice] : null,
    /** The review just answered: its card shows the notice, so focus stays where the form was. */
    answered: UUID_PATTERN.test(answered) ? answered.toLowerCase() : null,
  };
}
export type ReviewReplyPageData = Awaited<ReturnType<typeof reviewReplyPage>>;

/** A refused reply: which review's form, what was typed, and why. */
export type ReplyFormResult = {
  reviewId: string;
  body: string;
  errors: Record<string, string | undefined>;
};

export type ReplyFormOutcome =
  | { kind: "done"; notice: ReplyNotice; reviewId: string }
  | { kind: "form"; status: number; result: ReplyFormResult };

export async function submitReplyForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<ReplyFormOutcome> {
  const typed = {
    reviewId: String(form.get("reviewId") ?? "").slice(0, 100),
    body: String(form.get("body") ?? ""),
  };
  const parsed = reviewReplySchema.safeParse({ ...typed, version: form.get("version") ?? "" });
  if (!parsed.success) {
    return {
      kind: "form",
      status: 400,
      result: { ...typed, errors: fieldErrors(parsed.error) },
    };
  }
  try {
    const saved = await saveReply(db, access, parsed.data, now);
    return {
      kind: "done",
      notice: saved.first ? "replied" : "updated",
      reviewId: saved.reviewId,
    };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return {
      kind: "form",
      status: error.status,
      result: { ...typed, errors: { form: error.message } },
    };
  }
}

/**
 * Where a saved reply goes: the page's own path (a fetcher's POST arrives at
 * `….data`) with the same filter and page, the notice, and the review.
 */
export function afterReply(
  salonId: string,
  url: URL,
  outcome: { notice: ReplyNotice; reviewId: string },
) {
  const query = new URLSearchParams();
  for (const key of ["filter", "page"]) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value.slice(0, 100));
  }
  query.set("done", outcome.notice);
  query.set("answered", outcome.reviewId);
  return `/owner/salons/${salonId}/reviews?${query}#review-${outcome.reviewId}`;
}
