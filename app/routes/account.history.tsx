import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { privatePageHeaders } from "../../common/page-cache";
import { requireLogin } from "../../server/accounts/guards";
import { cancelBooking } from "../../server/bookings/booking.server";
import { historyDetail, historyList } from "../../server/bookings/pages/history-page.server";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { historyWaitlist } from "../../server/waitlist/history-waitlist.server";
import { Notice } from "../components/accounts/account-frame";
import { BookingCard, BookingDetail } from "../components/bookings/booking-history";
import { useFocusAfterStep } from "../components/bookings/step-focus";
import { WaitlistEntries } from "../components/bookings/waitlist-entries";
import { cancellationPolicy } from "../lib/booking-format";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.history";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "予約履歴",
    description: "ご予約の一覧と詳細、キャンセル",
    path: "/account/history",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

const reviewedNotices: Record<string, string> = {
  "1": "口コミを投稿しました。ありがとうございました。サロンのページに「来店済み」の口コミとして表示されます。",
  edited: "口コミを更新しました。",
};

// Guards (SPEC.md §2): is-login.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const params = new URL(request.url).searchParams;
  const now = new Date();
  const [list, waitlist] = await Promise.all([
    historyList(ctx.db, user.id, now),
    historyWaitlist(ctx.db, user.id, params, now),
  ]);
  const bookingId = params.get("booking");
  const changed = params.get("changed");
  if (bookingId === null) {
    return { list, waitlist, detail: null, error: null, cancelled: false, changed: null };
  }
  try {
    const detail = await historyDetail(ctx.db, user.id, bookingId, now);
    return {
      list,
      waitlist,
      detail: {
        ...detail,
        confirmingCancel: params.get("cancel") === "1",
        testPayments: ctx.payments?.name === "fake",
        // After 口コミを書く: 1 written, edited (decision 0054).
        reviewed: reviewedNotices[params.get("reviewed") ?? ""] ?? null,
      },
      error: null,
      cancelled: params.get("cancelled") === "1",
      // After 予約変更: 1 changed, coupon changed without the coupon, 0 already so.
      changed: changed === "1" || changed === "coupon" || changed === "0" ? changed : null,
    };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data(
      { list, waitlist, detail: null, error: error.message, cancelled: false, changed: null },
      { status: error.status },
    );
  }
}

const cancelSchema = z.object({
  intent: z.literal("cancel", { error: "操作が正しくありません。" }),
  booking: z.string({ error: "予約を指定してください。" }),
  reason: z
    .string()
    .trim()
    .max(200, "キャンセルの理由は200文字以内で入力してください。")
    .optional()
    .transform((reason) => reason ?? ""),
});

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const parsed = cancelSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data(
      { error: parsed.error.issues[0]?.message ?? "入力内容を確認してください。" },
      { status: 400 },
    );
  }
  try {
    const booking = await cancelBooking(ctx.db, {
      bookingId: parsed.data.booking,
      userId: user.id,
      reason: parsed.data.reason,
      now: new Date(),
      money: { provider: ctx.payments, publicUrl: ctx.config.PUBLIC_URL, log: ctx.log },
    });
    return redirect(`/account/history?booking=${booking.id}&cancelled=1`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data({ error: error.message }, { status: error.status });
  }
}

export default function AccountHistory({ loaderData, actionData }: Route.ComponentProps) {
  const { list, waitlist, detail, cancelled, changed } = loaderData;
  const error = actionData?.error ?? loaderData.error;
  useFocusAfterStep(
    error
      ? "history-error"
      : detail?.reviewed
        ? "review-notice"
        : detail?.confirmingCancel
          ? "cancel-confirm"
          : detail
            ? "booking-detail"
            : "history-heading",
    actionData,
  );
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <h1 id="history-heading" className="text-2xl font-bold">
        予約履歴
      </h1>
      <div className="mt-6 flex flex-col gap-8">
        {cancelled ? <Notice>ご予約をキャンセルしました。</Notice> : null}
        {detail?.reviewed ? (
          <div id="review-notice" tabIndex={-1}>
            <Notice>{detail.reviewed}</Notice>
          </div>
        ) : null}
        {changed && detail ? (
          <Notice>
            {changed === "0"
              ? "ご予約はすでにこの内容です。"
              : changed === "coupon"
                ? "ご予約を変更しました（クーポンは変更後の内容では使えないため、通常料金です）。確認メールをお送りしました。"
                : "ご予約を変更しました。確認メールをお送りしました。"}
          </Notice>
        ) : null}
        {error && !detail ? (
          <p id="history-error" tabIndex={-1} role="alert" className="font-bold text-red-700">
            {error}
          </p>
        ) : null}
        {detail ? (
          <BookingDetail
            booking={detail.booking}
            confirmingCancel={detail.confirmingCancel}
            cancelCutoffText={cancellationPolicy(detail.cancellationCutoffHours)}
            error={error}
            testPayments={detail.testPayments}
          />
        ) : null}
        <section aria-labelledby="upcoming-heading">
          <h2 id="upcoming-heading" className="text-xl font-bold">
            これからのご予約
          </h2>
          {list.upcoming.length === 0 ? (
            <p className="mt-3">
              これからのご予約はありません。
              <Link to="/salons/search" className="ml-2 underline">
                サロンを探す
              </Link>
            </p>
          ) : (
            <ul className="mt-3 flex flex-col gap-3">
              {list.upcoming.map((booking) => (
                <li key={booking.id}>
                  <BookingCard booking={booking} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <WaitlistEntries waitlist={waitlist} />
        <section aria-labelledby="past-heading">
          <h2 id="past-heading" className="text-xl font-bold">
            過去・キャンセルしたご予約
          </h2>
          {list.past.length === 0 ? (
            <p className="mt-3">まだありません。</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-3">
              {list.past.map((booking) => (
                <li key={booking.id}>
                  <BookingCard booking={booking} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
