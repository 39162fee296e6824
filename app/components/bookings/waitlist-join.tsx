import { Form, Link, useNavigation } from "react-router";
import { formatYen } from "../../../common/format";
import type { WaitlistJoinPage } from "../../../server/waitlist/join-page.server";
import { formatDuration, formatLocalDate } from "../../lib/booking-format";
import { linkClass, Notice } from "../accounts/account-frame";
import { ErrorSummary, SelectField } from "../form/field";
import { useStepFocus } from "./step-focus";

/** What a refused post answers: a message per field (or for the form) and what was typed. */
export type WaitlistJoinResult = {
  errors: Partial<Record<"windowStart" | "windowEnd" | "form", string>>;
  values: { windowStart: string; windowEnd: string };
};

/**
 * /salons/:id/waitlist: the choice in words, the wished window of start
 * times (two selects on the salon's hours that day, the whole day by
 * default) and 「キャンセル待ちに登録する」; after joining, a notice with the
 * way to /account/history#waitlist. A plain POST form: works without JavaScript.
 */
export function WaitlistJoin({
  page,
  result,
}: {
  page: WaitlistJoinPage;
  result: WaitlistJoinResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const values = result?.values ?? page.values;
  const errors = result?.errors ?? {};
  useStepFocus(page.joined ? "waitlist-joined" : "waitlist-heading", "waitlist-heading");
  const dateText = page.date ? formatLocalDate(page.date) : "";
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to={`/salons/${page.salon.slug}`} className={linkClass}>
          {page.salon.name}のページへ戻る
        </Link>
      </p>
      <h1 id="waitlist-heading" tabIndex={-1} className="mt-2 text-2xl font-bold">
        キャンセル待ちに登録
        <span className="block text-base font-normal text-neutral-700">{page.salon.name}</span>
      </h1>
      {page.problems.length > 0 ? (
        <div role="alert" className="mt-6 rounded-lg border-2 border-red-700 bg-red-50 p-4">
          <ul className="list-disc pl-5 font-bold text-red-700">
            {page.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          <p className="mt-3">
            <Link to={page.backHref} className={linkClass}>
              予約の画面に戻って選び直す
            </Link>
          </p>
        </div>
      ) : (
        <>
          <dl className="mt-6 grid grid-cols-1 gap-x-4 gap-y-2 rounded-lg border border-neutral-300 p-4 sm:grid-cols-[8rem_1fr]">
            <dt className="font-bold">日にち</dt>
            <dd>{dateText}</dd>
            <dt className="font-bold">メニュー</dt>
            <dd>
              <ul>
                {page.menus.map((menu) => (
                  <li key={menu.name}>
                    {menu.name}（{formatYen(menu.price)}・{formatDuration(menu.durationMinutes)}）
                  </li>
                ))}
              </ul>
            </dd>
            <dt className="font-bold">スタッフ</dt>
            <dd>{page.stylistName ?? "指名なし"}</dd>
            {page.couponTitle ? (
              <>
                <dt className="font-bold">クーポン</dt>
                <dd>{page.couponTitle}</dd>
              </>
            ) : null}
          </dl>
          {page.joined ? (
            <div id="waitlist-joined" tabIndex={-1} className="mt-6">
              <Notice>
                <p className="font-bold">{dateText}のキャンセル待ちに登録しました。</p>
                <p className="mt-1">
                  空きが出たら、登録の早い順にメールでご案内します（ご案内は8時〜22時）。
                </p>
                <p className="mt-2">
                  <Link to="/account/history#waitlist" className={linkClass}>
                    予約履歴でキャンセル待ちを見る
                  </Link>
                </p>
              </Notice>
            </div>
          ) : (
            <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
              <ErrorSummary errors={errors} />
              <p>
                ご希望の開始時刻の範囲を選んでください。この範囲で空きが出たときに、登録の早い順にお時間を仮押さえしてメールでご案内します。
              </p>
              <fieldset className="flex flex-col gap-3">
                <legend className="font-bold">開始時刻の範囲</legend>
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                  <SelectField
                    id="waitlist-window-start"
                    name="windowStart"
                    label="から"
                    defaultValue={values.windowStart}
                    error={errors.windowStart}
                    options={page.startChoices.map((time) => ({ value: time, label: time }))}
                  />
                  <SelectField
                    id="waitlist-window-end"
                    name="windowEnd"
                    label="まで"
                    hint="この時刻より前に始まる時間をご案内します。"
                    defaultValue={values.windowEnd}
                    error={errors.windowEnd}
                    options={page.endChoices.map((time) => ({ value: time, label: time }))}
                  />
                </div>
              </fieldset>
              <p className="text-sm text-neutral-700">
                キャンセル待ちは同時に{page.liveEntriesMax}
                件まで登録できます。ご案内には有効時間があり、過ぎると次の方にご案内します。
              </p>
              <div className="flex flex-wrap gap-3">
                <button
                  type="submit"
                  disabled={busy}
                  className="rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  キャンセル待ちに登録する
                </button>
                <Link
                  to={page.backHref}
                  className="rounded-lg border border-neutral-400 px-6 py-3 font-bold"
                >
                  予約の画面に戻る
                </Link>
              </div>
            </Form>
          )}
        </>
      )}
    </div>
  );
}
