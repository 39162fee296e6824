import { data, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { privatePageHeaders } from "../../common/page-cache";
import { formValues } from "../../server/accounts/form-result";
import { requireLogin } from "../../server/accounts/guards";
import { clientIp } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { reviewInputSchema } from "../../server/reviews/review.schema";
import { reviewFormPage } from "../../server/reviews/review-form-page.server";
import { saveReview } from "../../server/reviews/reviews.server";
import { type ReviewFormResult, ReviewWriteForm } from "../components/reviews/review-write-form";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.reviews.$bookingId";

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta({
    title: "口コミを書く",
    description: "ご来店いただいたサロンの口コミ",
    path: `/account/reviews/${params.bookingId}`,
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

const fields = [
  "rating",
  "ratingAtmosphere",
  "ratingService",
  "ratingTechnique",
  "ratingFinish",
  "title",
  "body",
  "version",
] as const;

// Guards (SPEC.md §2): is-login. Someone else's booking is 404 (reviewFormPage).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  return reviewFormPage(ctx.db, { userId: user.id, bookingId: params.bookingId, now: new Date() });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const values = formValues(await request.formData(), fields);
  const parsed = reviewInputSchema.safeParse(values);
  if (!parsed.success) {
    const result: ReviewFormResult = { errors: fieldErrors(parsed.error), values };
    return data(result, { status: 400 });
  }
  try {
    const { created } = await saveReview(ctx.db, {
      userId: user.id,
      bookingId: params.bookingId,
      input: parsed.data,
      now: new Date(),
      limits: ctx.accounts.limits,
      ip: clientIp(request),
    });
    return redirect(
      `/account/history?booking=${params.bookingId}&reviewed=${created ? "1" : "edited"}`,
    );
  } catch (error) {
    // A missing visit is the 404 screen; a refusal (window, version, limit) is the form again.
    if (!(error instanceof DomainError) || error.status === 404) throw error;
    const result: ReviewFormResult = { errors: { form: error.message }, values };
    return data(result, { status: error.status });
  }
}

export default function AccountReview({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return <ReviewWriteForm page={loaderData} result={actionData} busy={busy} />;
}
