import { data, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { privatePageHeaders } from "../../common/page-cache";
import { formValues } from "../../server/accounts/form-result";
import { requireLogin } from "../../server/accounts/guards";
import { clientIp } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { reviewReportSchema } from "../../server/reviews/review.schema";
import { reportReview, reviewToReport } from "../../server/reviews/reviews.server";
import { useFocusAfterStep } from "../components/bookings/step-focus";
import {
  ReviewReportForm,
  type ReviewReportResult,
} from "../components/reviews/review-report-form";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/reviews.$reviewId.report";

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta({
    title: "口コミを通報する",
    description: "不適切な口コミの通報",
    path: `/reviews/${params.reviewId}/report`,
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2): is-login. A hidden or missing review is 404 (reviewToReport).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const review = await reviewToReport(ctx.db, { reviewId: params.reviewId, userId: user.id });
  return { review, sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const values = formValues(await request.formData(), ["reason", "note"] as const);
  const parsed = reviewReportSchema.safeParse(values);
  if (!parsed.success) {
    const result: ReviewReportResult = { errors: fieldErrors(parsed.error), values };
    return data(result, { status: 400 });
  }
  try {
    await reportReview(ctx.db, {
      userId: user.id,
      reviewId: params.reviewId,
      report: parsed.data,
      now: new Date(),
      limits: ctx.accounts.limits,
      ip: clientIp(request),
    });
  } catch (error) {
    if (!(error instanceof DomainError) || error.status === 404) throw error;
    const result: ReviewReportResult = { errors: { form: error.message }, values };
    return data(result, { status: error.status });
  }
  // Post/Redirect/Get: a reload of the thanks does not send the report twice.
  return redirect(`/reviews/${params.reviewId}/report?sent=1`);
}

export default function ReviewReport({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  useFocusAfterStep(loaderData.sent ? "report-sent" : null, actionData);
  return (
    <ReviewReportForm
      review={loaderData.review}
      sent={loaderData.sent}
      result={actionData}
      busy={busy}
    />
  );
}
