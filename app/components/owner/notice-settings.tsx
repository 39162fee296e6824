import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { BookingRulesForm } from "../../../server/owner/booking-settings.server";
import type { NoticeSettings, NoticeValues } from "../../../server/owner/notice-settings.server";
import type {
  PaymentPolicyErrors,
  PaymentPolicyValues,
} from "../../../server/owner/payment-policy.server";
import type { BookingRulesErrors } from "../../../server/salon-editor/booking-rules";
import type { StrandedBooking } from "../../../server/salon-editor/schedule-stranding.server";
import { buttonClass, linkClass } from "../back-office-ui";
import { ErrorSummary, TextField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { BookingRulesFields } from "../salon-editor/booking-rules-fields";
import { type OwnerFrameSalon, OwnerPage } from "./owner-frame";
import { PaymentPolicySection } from "./payment-policy-form";

export type NoticeSettingsPageData = {
  salon: OwnerFrameSalon;
  settings: NoticeSettings;
  /** Where the mails go when no address is set. */
  ownerEmails: string[];
  /** The salon's booking rules and the version they were read at. */
  bookingRules: BookingRulesForm;
  /** The payment and cancellation policy as the form shows it, and the visitors' text of it. */
  paymentPolicy: PaymentPolicyValues;
  paymentPolicyPreview: string[];
  /** Which form was just saved. */
  saved: "notice" | "rules" | "policy" | null;
};

export type NoticeSettingsResult =
  | { kind: "notice"; errors: { email?: string }; values: NoticeValues }
  | { kind: "rules"; errors: BookingRulesErrors; form: BookingRulesForm; stranding: boolean }
  | { kind: "policy"; errors: PaymentPolicyErrors; values: PaymentPolicyValues }
  /** Saved with bookings left outside working time (the owner chose to), to move or cancel. */
  | { kind: "stranded"; stranded: StrandedBooking[] };

/** The bookings a saved change left outside working time, each linked to its page. */
function Stranded({ salonId, bookings }: { salonId: string; bookings: StrandedBooking[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      role="status"
      tabIndex={-1}
      className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-amber-950 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-700"
    >
      <p className="font-bold">
        予約の設定を保存しました。次の{bookings.length}
        件の予約が営業時間の外に残っています。移動するかキャンセルしてください。
      </p>
      <ul className="mt-2 list-disc pl-5">
        {bookings.map((b) => (
          <li key={b.id}>
            <a className="underline" href={`/owner/salons/${salonId}/bookings/${b.id}`}>
              {b.dateLabel} {b.startTime}〜{b.endTime} {b.customerName || "（お名前なし）"}様（
              {b.staffName}）
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * /owner/salons/{id}/settings: the salon's booking rules (the admin editor's
 * fields, decision 0048) and where it hears of new bookings, cancellations and moves.
 */
export function NoticeSettingsPage({
  data,
  result,
}: {
  data: NoticeSettingsPageData;
  result?: NoticeSettingsResult;
}) {
  const busy = useNavigation().state === "submitting";
  const notice = result?.kind === "notice" ? result : undefined;
  const rules = result?.kind === "rules" ? result : undefined;
  const policy = result?.kind === "policy" ? result : undefined;
  const values = notice?.values ?? data.settings;
  const rulesForm = rules?.form ?? data.bookingRules;
  const owners = data.ownerEmails.length > 0 ? data.ownerEmails.join("、") : "（オーナー未登録）";
  return (
    <OwnerPage
      title="設定"
      actions={
        <Link to={`/owner/salons/${data.salon.id}/settings/webhooks`} className={linkClass}>
          Webhook
        </Link>
      }
    >
      {data.saved === "notice" && !result ? (
        <FocusedNotice>通知メールの設定を保存しました。</FocusedNotice>
      ) : null}
      {data.saved === "rules" && !result ? (
        <FocusedNotice>予約の設定を保存しました。</FocusedNotice>
      ) : null}
      {data.saved === "policy" && !result ? (
        <FocusedNotice>お支払いとキャンセル料を保存しました。</FocusedNotice>
      ) : null}
      {result?.kind === "stranded" ? (
        <Stranded salonId={data.salon.id} bookings={result.stranded} />
      ) : null}
      <section aria-labelledby="rules-heading" className="flex max-w-2xl flex-col gap-4">
        <h2 id="rules-heading" className="text-xl font-bold">
          予約の設定
        </h2>
        <p>
          ネット予約の受け付け方です。保存するとすぐに予約ページの空き時間に反映されます。すでに入っている予約は変わりません。
        </p>
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-4"
          key={rules ? JSON.stringify(rules.errors) : "rules-saved"}
        >
          <ErrorSummary errors={rules?.errors ?? {}} />
          <input type="hidden" name="intent" value="booking-rules" />
          <input type="hidden" name="version" value={rulesForm.version} />
          <BookingRulesFields values={rulesForm.values} errors={rules?.errors ?? {}} />
          {rules?.stranding ? (
            <label className="flex items-center gap-2 font-bold">
              <input type="checkbox" name="allowStranding" className="size-5" />
              予約が残っていても変更する
            </label>
          ) : null}
          <div>
            <button type="submit" className={buttonClass} disabled={busy}>
              予約の設定を保存する
            </button>
          </div>
        </Form>
      </section>
      <PaymentPolicySection
        values={policy?.values ?? data.paymentPolicy}
        errors={policy?.errors ?? {}}
        preview={data.paymentPolicyPreview}
        busy={busy}
      />
      <section aria-labelledby="notice-heading" className="flex max-w-2xl flex-col gap-4">
        <h2 id="notice-heading" className="text-xl font-bold">
          予約通知メール
        </h2>
        <p>
          お客様のネット予約、キャンセル、予約変更があったときに、サロンへお知らせするメールです。サロンで入力した予約や操作では送りません。
        </p>
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-4"
          key={notice ? JSON.stringify(notice.errors) : "saved"}
        >
          <ErrorSummary errors={notice?.errors ?? {}} />
          <label className="flex items-center gap-2 font-bold">
            <input
              type="checkbox"
              name="enabled"
              defaultChecked={values.enabled}
              className="size-5"
            />
            予約通知メールを送る
          </label>
          <TextField
            id="notice-email"
            name="email"
            type="email"
            label="送信先メールアドレス（任意）"
            hint={`空欄のときはオーナーのアドレスに送ります：${owners}`}
            autoComplete="email"
            maxLength={254}
            defaultValue={values.email}
            error={notice?.errors.email}
          />
          <div>
            <button type="submit" className={buttonClass} disabled={busy}>
              保存する
            </button>
          </div>
        </Form>
      </section>
    </OwnerPage>
  );
}
