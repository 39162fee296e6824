import { fieldErrors } from "../../common/field-rules";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import {
  type ModerationQuery,
  moderationQuerySchema,
  moderationSchema,
} from "../reviews/review-reply.schema";
import { pastTheLast } from "../reviews/review-reply-page.server";
import { listModeration, moderate } from "./review-moderation.server";

/**
 * /admin/reviews (issue 30, point 2; decision 0056): the list of the view
 * the query asks for and the three decisions' form. A bad query shows the
 * reported queue rather than an error screen.
 */

export const moderationNotices = {
  hide: "口コミを非表示にしました。サロンのページと評価の平均から外れました。",
  restore: "口コミを再表示しました。サロンのページと評価の平均に戻りました。",
  keep: "通報を「問題なし」として解決しました。口コミはそのまま表示されます。",
} as const;

export function readModerationQuery(url: URL): ModerationQuery {
  const read = (key: string) => url.searchParams.get(key) || undefined;
  const parsed = moderationQuerySchema.safeParse({
    view: read("view"),
    q: read("q"),
    review: read("review"),
    page: read("page"),
  });
  return parsed.success ? parsed.data : { view: "reported", q: "", page: 1 };
}

export async function moderationPage(db: Database, url: URL) {
  const list = await listModeration(db, readModerationQuery(url));
  pastTheLast("/admin/reviews", url, ["view", "q", "review"], list);
  const done = url.searchParams.get("done");
  return {
    list,
    notice:
      done && done in moderationNotices
        ? moderationNotices[done as keyof typeof moderationNotices]
        : null,
  };
}
export type ModerationPageData = Awaited<ReturnType<typeof moderationPage>>;

/** A refused decision: which review's form, what was typed, and why. */
export type ModerationFormResult = {
  reviewId: string;
  intent: string;
  note: string;
  errors: Record<string, string | undefined>;
};

export type ModerationFormOutcome =
  | { kind: "done"; intent: keyof typeof moderationNotices; reviewId: string }
  | { kind: "form"; status: number; result: ModerationFormResult };

export async function submitModerationForm(
  db: Database,
  actor: { id: string },
  form: FormData,
  now: Date,
): Promise<ModerationFormOutcome> {
  const typed = {
    reviewId: String(form.get("reviewId") ?? "").slice(0, 100),
    intent: String(form.get("intent") ?? "").slice(0, 20),
    note: String(form.get("note") ?? ""),
  };
  const parsed = moderationSchema.safeParse({ ...typed, version: form.get("version") ?? "" });
  if (!parsed.success) {
    return { kind: "form", status: 400, result: { ...typed, errors: fieldErrors(parsed.error) } };
  }
  const { intent, reviewId, note, version } = parsed.data;
  try {
    await moderate(db, intent, { reviewId, note, version, actor, now });
    return { kind: "done", intent, reviewId };
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
 * Where a decision goes: the page's own path (a fetcher's POST arrives at
 * `/admin/reviews.data`) with the same view, search and page, and the notice.
 */
export function afterModeration(url: URL, intent: keyof typeof moderationNotices) {
  const query = new URLSearchParams();
  for (const key of ["view", "q", "page", "review"]) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value.slice(0, 100));
  }
  query.set("done", intent);
  return `/admin/reviews?${query}`;
}
