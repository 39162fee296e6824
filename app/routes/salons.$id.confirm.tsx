import { useEffect, useRef, useState } from "react";
import { data, Link, redirect, useLocation, useNavigationType } from "react-router";
import { bookingFlowHref, sameMenus } from "../../common/booking-flow-href";
import { formatYen } from "../../common/format";
import { privatePageHeaders } from "../../common/page-cache";
import { getCurrentUser } from "../../server/accounts/current-user";
import { requireLogin } from "../../server/accounts/guards";
import { clientIp } from "../../server/accounts/request-info";
import { findFlowSalon, parseFlowParams } from "../../server/bookings/booking-flow.server";
import { bookingLimitsFrom } from "../../server/bookings/booking-rate-limit";
import { submitConfirmForm } from "../../server/bookings/confirm-form.server";
import {
  type HoldView,
  loadConfirmView,
  type PickView,
} from "../../server/bookings/confirm-page.server";
import { flowAvailability } from "../../server/bookings/flow-availability.server";
import {
  holdBrowserCookie,
  holdBrowserKey,
  holdBrowserKeyOrNew,
} from "../../server/bookings/hold-browser.server";
import { appContext } from "../../server/context";
import { notFound } from "../../server/routing/not-found";
import { linkClass } from "../components/accounts/account-frame";
import { BookingSummary, HoldCountdown } from "../components/bookings/booking-summary";
import { ContactForm } from "../components/bookings/contact-form";
import { DayPicker } from "../components/bookings/day-picker";
import { draftFromState, HoldExpiredNotice } from "../components/bookings/hold-expired-notice";
import { MenuPicker } from "../components/bookings/menu-picker";
import { StylistPicker } from "../components/bookings/stylist-picker";
import { TimeGrid } from "../components/bookings/time-grid";
import {
  liveRangeOf,
  useLiveAvailability,
  useSlotChangeMessage,
  withLiveDays,
  withLiveTimes,
} from "../components/bookings/use-live-availability";
import { formatLocalDate } from "../lib/booking-format";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.$id.confirm";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageMeta({
    title: loaderData ? `ご予約（${loaderData.salon.name}）` : "ご予約",
    description: "メニュー・スタッフ・日時を選んでネット予約",
    path: loaderData ? `/salons/${loaderData.salon.slug}/confirm` : "/",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

export const headers = privatePageHeaders;

// Guards (SPEC.md §2): none. Confirming needs a signed-in visitor (the action checks).
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  const query = parseFlowParams(new URL(request.url).searchParams);
  const user = await getCurrentUser(request, ctx);
  const view = await loadConfirmView(
    ctx.db,
    { salon, query, user, browserKey: holdBrowserKey(request), now: new Date() },
    flowAvailability,
  );
  if (view.kind === "redirect") throw redirect(view.to);
  return data({ salon, view }, { status: view.problems.length > 0 ? 400 : 200 });
}

// After a refused hold or confirm (4xx), the times must be fetched again: they changed.
export function shouldRevalidate() {
  return true;
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const salon = await findFlowSalon(ctx.db, params.id);
  if (!salon) throw notFound(request);
  const form = await request.formData();
  // Only a signed-in visitor confirms; a guest signs in and comes back to this hold.
  const user =
    form.get("intent") === "confirm"
      ? await requireLogin(request, ctx)
      : await getCurrentUser(request, ctx);
  const outcome = await submitConfirmForm(ctx.db, {
    salon,
    form,
    user,
    now: new Date(),
    // The same per-address and per-account limits as the booking API (and the same counters).
    limits: bookingLimitsFrom(ctx.config, ctx.accounts.limits.store),
    ip: clientIp(request),
    browserKey: holdBrowserKeyOrNew(request),
  });
  if (outcome.kind === "redirect") {
    const secure = ctx.config.PUBLIC_URL.startsWith("https:");
    return redirect(
      outcome.to,
      outcome.holdBrowserKey
        ? { headers: { "Set-Cookie": holdBrowserCookie(outcome.holdBrowserKey, secure) } }
        : undefined,
    );
  }
  if (outcome.kind === "refused") {
    return data({ error: outcome.error, draft: outcome.draft }, { status: outcome.status });
  }
  return data({ errors: outcome.errors, values: outcome.values }, { status: outcome.status });
}

/** The URL of the flow with this selection (the flow is driven by the URL). */
function flowHref(
  slug: string,
  selection: { menuIds: string[]; staffSlug: string | null; couponId: string | null },
  date?: string | null,
) {
  return bookingFlowHref(slug, { ...selection, date });
}

const stepIds = {
  page: "booking-heading",
  errors: "flow-errors",
  menus: "step-menus",
  staff: "step-staff",
  day: "step-day",
  time: "step-time",
  notice: "flow-notice",
  pickForm: "booking-pick-form",
  confirm: "step-confirm",
  contactErrors: "contact-errors",
  contactForm: "contact-form",
} as const;

/**
 * Focus after each step: the next step's heading, or the messages when
 * something was refused. On arriving from another page or step of the app
 * (the salon page, a picked time), `arrival`: focus left on a link that is
 * gone would fall to <body>. Not on the document's own load, nor back and
 * forward (POP): there the browser starts where it does.
 */
function useStepFocus(target: string | null, arrival: string | null = target) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the URL changes
  useEffect(() => {
    const arriving = first.current;
    first.current = false;
    if (arriving && navigationType === "POP") return;
    const id = arriving ? arrival : target;
    const element = id ? document.getElementById(id) : null;
    if (!element) return;
    if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus();
  }, [location.key]);
}

function Problems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <div
      id={stepIds.errors}
      tabIndex={-1}
      role="alert"
      className="mt-4 rounded-lg border-2 border-red-700 bg-red-50 p-4"
    >
      <ul className="list-disc pl-5 font-bold text-red-700">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

function PickSteps({
  slug,
  view,
  actionError,
  draft,
  repicking,
}: {
  slug: string;
  view: PickView;
  actionError: string | null;
  draft: Record<string, string> | null;
  /** Back from an expired hold: focus starts at the time step. */
  repicking: boolean;
}) {
  const { selection } = view;
  const current = {
    menuIds: selection.menus.map((menu) => menu.id),
    staffSlug: selection.stylist?.slug ?? null,
    couponId: selection.coupon?.id ?? null,
  };
  const problems = actionError ? [actionError, ...view.problems] : view.problems;
  const location = useLocation();
  const previous = useRef(location.search);
  // The step just completed decides where focus goes next.
  const before = new URLSearchParams(previous.current);
  const now = new URLSearchParams(location.search);
  let target: string | null = null;
  if (problems.length > 0) target = stepIds.errors;
  else if (view.notice) target = stepIds.notice;
  else if (before.getAll("menu").join() !== now.getAll("menu").join()) target = stepIds.staff;
  else if ((before.get("staff") ?? "") !== (now.get("staff") ?? "")) target = stepIds.day;
  else if (view.date) target = stepIds.time;
  useEffect(() => {
    previous.current = location.search;
  }, [location.search]);
  useStepFocus(
    target ?? stepIds.page,
    problems.length > 0
      ? stepIds.errors
      : view.notice
        ? stepIds.notice
        : repicking && view.date
          ? stepIds.time
          : stepIds.page,
  );
  // What is ticked now (before it is sent): the day links follow it, and the
  // times, computed for the URL's menus, are not offered for other menus.
  const urlMenus = current.menuIds.join();
  const [ticked, setTicked] = useState({ for: urlMenus, ids: current.menuIds });
  const tickedIds = ticked.for === urlMenus ? ticked.ids : current.menuIds;
  const stale = !sameMenus(tickedIds, current.menuIds);
  // Live slots (issue 15, point 8): after hydration the days and times follow the stream.
  const range = current.menuIds.length > 0 ? liveRangeOf(view.days, view.date) : null;
  const live = useLiveAvailability(
    range ? { salon: slug, menuIds: current.menuIds, staff: current.staffSlug, ...range } : null,
  );
  const days = withLiveDays(view.days, live);
  const times = withLiveTimes(view.date, view.times, live);
  const slotMessage = useSlotChangeMessage(view.date, times);
  const keep = (fields: ("menu" | "staff" | "coupon" | "date")[]): [string, string][] => [
    ...(fields.includes("menu") ? current.menuIds.map((id): [string, string] => ["menu", id]) : []),
    ...(fields.includes("staff") && current.staffSlug
      ? [["staff", current.staffSlug] as [string, string]]
      : []),
    ...(fields.includes("coupon") && current.couponId
      ? [["coupon", current.couponId] as [string, string]]
      : []),
    ...(fields.includes("date") && view.date ? [["date", view.date] as [string, string]] : []),
  ];
  return (
    <>
      <Problems problems={problems} />
      {view.notice ? (
        <p
          id={stepIds.notice}
          tabIndex={-1}
          role="status"
          className="mt-4 rounded-lg border-2 border-brand-700 bg-brand-50 p-4 font-bold"
        >
          {view.notice}
        </p>
      ) : null}
      {selection.coupon ? (
        <p className="mt-4 rounded-lg border border-dashed border-brand-700 p-3 text-sm">
          クーポン「{selection.coupon.title}」を使って予約します。
          {selection.menus.length > 0 && selection.discount > 0 ? (
            <>
              合計 <s>{formatYen(selection.subtotal)}</s> →{" "}
              <strong>{formatYen(selection.subtotal - selection.discount)}</strong>
            </>
          ) : null}
          <Link
            to={flowHref(slug, { ...current, couponId: null }, view.date)}
            className="ml-2 underline"
          >
            クーポンを使わない
          </Link>
        </p>
      ) : null}
      <MenuPicker
        key={urlMenus}
        groups={selection.menuGroups}
        selected={current.menuIds}
        hidden={[
          ...keep(["staff", "coupon", "date"]),
          // The menus the times below were computed for: a time picked with
          // other menus ticked is not held (the server shows their times).
          ...current.menuIds.map((id): [string, string] => ["shown", id]),
          // What was typed before the hold was lost comes along to the next hold.
          ...Object.entries(draft ?? {}).map(([key, value]): [string, string] => [
            `draft.${key}`,
            value,
          ]),
        ]}
        headingId={stepIds.menus}
        formId={stepIds.pickForm}
        onTickedChange={(ids) => setTicked({ for: urlMenus, ids })}
        coupon={selection.coupon}
      />
      {selection.menus.length > 0 ? (
        <>
          <StylistPicker
            stylists={selection.stylists}
            selected={current.staffSlug}
            hidden={keep(["menu", "coupon", "date"])}
            headingId={stepIds.staff}
          />
          <section aria-labelledby={stepIds.day} className="mt-8">
            <h2 id={stepIds.day} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
              3. 日にちを選ぶ
            </h2>
            {days.some((day) => day.available) ? (
              <DayPicker
                days={days}
                selected={view.date}
                hrefFor={(date) => flowHref(slug, { ...current, menuIds: tickedIds }, date)}
                headingId={stepIds.day}
              />
            ) : (
              <p className="mt-3">
                予約を受け付けている空き枠がありません。メニューやスタッフを変えてお試しください。
              </p>
            )}
          </section>
          {view.date && stale ? (
            <section aria-labelledby={stepIds.time} className="mt-8">
              <h2 id={stepIds.time} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
                4. 時間を選ぶ（{formatLocalDate(view.date, false)}）
              </h2>
              <p className="mt-3">
                メニューが変わりました。選択中のメニューで空いている時間を見るには、ボタンを押すか日にちを選んでください。
              </p>
              <button
                type="submit"
                form={stepIds.pickForm}
                name="intent"
                value="menus"
                className="mt-3 rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
              >
                選択中のメニューで時間を見る
              </button>
            </section>
          ) : view.date ? (
            <TimeGrid
              dateLabel={formatLocalDate(view.date, false)}
              times={times}
              formId={stepIds.pickForm}
              headingId={stepIds.time}
            />
          ) : null}
          {/* Always present, so that screen readers notice when a time is taken or freed. */}
          <p role="status" className="mt-2 text-sm font-bold text-brand-700">
            {slotMessage}
          </p>
        </>
      ) : null}
    </>
  );
}

export default function SalonConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { salon, view } = loaderData;
  // Back to exactly this page (the hold is kept) after signing in.
  const location = useLocation();
  const signInHref = `/signin?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  const actionError = actionData && "error" in actionData ? actionData.error : null;
  const contactResult = actionData && "errors" in actionData ? actionData : null;
  const heldDraft =
    actionData && "draft" in actionData ? (actionData.draft as Record<string, string>) : null;
  // Back from an expired hold's notice: what was typed comes along (history
  // state), and stays while the visitor changes the day or the menus.
  const arrivedWithDraft = draftFromState(location.state);
  const [repickDraft, setRepickDraft] = useState(arrivedWithDraft);
  useEffect(() => {
    if (arrivedWithDraft) setRepickDraft(arrivedWithDraft);
  }, [arrivedWithDraft]);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={`/salons/${salon.slug}`} className={linkClass}>
          {salon.name}のページへ戻る
        </Link>
      </p>
      <h1 id={stepIds.page} className="mt-2 text-2xl font-bold">
        {view.kind === "hold" ? "ご予約内容の確認" : "ご予約"}
        <span className="block text-base font-normal text-neutral-700">{salon.name}</span>
      </h1>
      {view.kind === "pick" ? (
        <PickSteps
          slug={salon.slug}
          view={view}
          actionError={actionError}
          draft={contactResult?.values ?? heldDraft ?? repickDraft}
          repicking={arrivedWithDraft !== null}
        />
      ) : (
        <HoldStep view={view} signInHref={signInHref} result={contactResult} />
      )}
    </div>
  );
}

function HoldStep({
  view,
  signInHref,
  result,
}: {
  view: HoldView;
  signInHref: string;
  result: { errors: Record<string, string | undefined>; values: Record<string, string> } | null;
}) {
  useStepFocus(result ? stepIds.contactErrors : stepIds.confirm);
  const [expired, setExpired] = useState(false);
  return (
    <section aria-labelledby={stepIds.confirm} className="mt-6 flex flex-col gap-6">
      <h2 id={stepIds.confirm} tabIndex={-1} className="text-xl font-bold">
        5. 内容を確認して予約を確定する
      </h2>
      <HoldCountdown expiresAt={view.expiresAt} now={view.now} onExpire={() => setExpired(true)} />
      {expired ? (
        <HoldExpiredNotice repickHref={view.repickHref} formId={stepIds.contactForm} />
      ) : null}
      <BookingSummary summary={view.summary} />
      <p className="text-sm">
        <Link to={view.repickHref} className={linkClass}>
          日時やメニューを選び直す
        </Link>
      </p>
      {view.contact ? (
        <>
          {view.verifyHref ? (
            <div className="rounded-lg border-2 border-brand-700 p-4">
              <p className="font-bold">予約の確定には、メールアドレスの確認が必要です。</p>
              <p className="mt-1 text-sm text-neutral-700">
                お送りした確認メールのリンクを開いてから、予約を確定してください。お時間の確保はそのままです。
              </p>
              <p className="mt-2 text-sm">
                <Link to={view.verifyHref} className={linkClass}>
                  確認メールを再送する
                </Link>
              </p>
            </div>
          ) : null}
          <h3 className="text-lg font-bold">お客様情報</h3>
          <ContactForm
            values={{ ...view.contact, ...result?.values }}
            errors={result?.errors ?? {}}
            hidden={[
              ["hold", view.holdId],
              ["idempotencyKey", view.idempotencyKey],
            ]}
            errorSummaryId={stepIds.contactErrors}
            id={stepIds.contactForm}
          />
        </>
      ) : (
        <div className="rounded-lg border-2 border-brand-700 p-4">
          <p className="font-bold">予約を確定するには、ログインしてください。</p>
          <p className="mt-1 text-sm text-neutral-700">
            ログインまたは会員登録のあと、この画面に戻ってお取り置き中の枠のまま続けられます。
          </p>
          <p className="mt-3 flex flex-wrap gap-3">
            <Link
              to={signInHref}
              className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
            >
              ログインして予約を続ける
            </Link>
            <Link
              to={signInHref.replace(/^\/signin/, "/signup")}
              className="rounded-lg border border-brand-700 px-6 py-3 font-bold text-brand-700 hover:bg-brand-50"
            >
              新規会員登録
            </Link>
          </p>
        </div>
      )}
    </section>
  );
}
