import { APPROVAL_ANSWER_HOURS_DEFAULT } from "../../../common/approval";
import {
  type BookingRuleField,
  bookingRuleNumbers,
  requiresApprovalLabel,
} from "../../../common/booking-rules-fields";
import { slotStepChoices } from "../../../common/salon-form-fields";
import { WAITLIST_OFFER_MINUTES_DEFAULT } from "../../../common/waitlist";
import { SelectField, TextField } from "../form/field";

/**
 * The booking rules' fields (decision 0048), drawn the same in the admin
 * editor's 基本情報 tab (inside its form) and on the owner's 設定 page (in a
 * form of their own). Uncontrolled, with the server's strings as defaults:
 * a refused save shows what was typed.
 */
export function BookingRulesFields({
  values,
  errors,
}: {
  values: Partial<Record<BookingRuleField, string>>;
  errors: Partial<Record<string, string | undefined>>;
}) {
  const number = (
    field: keyof typeof bookingRuleNumbers,
    id: string,
    label: string,
    hint?: string,
  ) => (
    <TextField
      id={id}
      name={field}
      label={label}
      inputMode="numeric"
      hint={hint}
      maxLength={6}
      defaultValue={values[field] ?? ""}
      error={errors[field]}
    />
  );
  const n = bookingRuleNumbers;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          id="salon-slot-step"
          name="slotStepMinutes"
          label="予約の時間間隔"
          defaultValue={values.slotStepMinutes}
          error={errors.slotStepMinutes}
          options={slotStepChoices.map((step) => ({
            value: String(step),
            label: `${step}分ごと`,
          }))}
        />
        {number(
          "leadTimeMinutes",
          "salon-lead-time",
          "予約締切（開始の何分前まで）",
          `${n.leadTimeMinutes.min}〜${n.leadTimeMinutes.max}分`,
        )}
        {number(
          "bookingWindowDays",
          "salon-window",
          "予約受付期間（何日先まで）",
          `${n.bookingWindowDays.min}〜${n.bookingWindowDays.max}日`,
        )}
        {number(
          "cancellationCutoffHours",
          "salon-cancel",
          "キャンセル期限（開始の何時間前まで）",
          `${n.cancellationCutoffHours.min}〜${n.cancellationCutoffHours.max}時間`,
        )}
        {number(
          "bufferBeforeMinutes",
          "salon-buffer-before",
          n.bufferBeforeMinutes.label,
          "予約の前に空けておく時間。0〜240分（空欄は0分）",
        )}
        {number(
          "bufferAfterMinutes",
          "salon-buffer",
          n.bufferAfterMinutes.label,
          "予約の後に空けておく時間。0〜240分",
        )}
        {number(
          "maxLiveBookingsPerCustomer",
          "salon-max-live",
          n.maxLiveBookingsPerCustomer.label,
          "ネット予約で、1人のお客様が同時に持てる来店前の予約の数。1〜50（空欄は上限なし）。電話・来店の予約は数えません。",
        )}
        {number(
          "dailyLimitPerStaff",
          "salon-daily-limit",
          n.dailyLimitPerStaff.label,
          "1〜50（空欄は上限なし）",
        )}
        <TextField
          id="salon-same-day"
          name="sameDayCutoff"
          type="time"
          label="当日予約の締切時刻"
          hint="空欄は締切なし"
          defaultValue={values.sameDayCutoff ?? ""}
          error={errors.sameDayCutoff}
        />
        {number("holdMinutes", "salon-hold", n.holdMinutes.label, "1〜60分")}
        {number(
          "waitlistOfferMinutes",
          "salon-waitlist-offer",
          n.waitlistOfferMinutes.label,
          `空いた時間をキャンセル待ちの方に押さえておく時間。${n.waitlistOfferMinutes.min}〜${n.waitlistOfferMinutes.max}分（空欄は${WAITLIST_OFFER_MINUTES_DEFAULT}分）`,
        )}
      </div>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          name="closedOnPublicHolidays"
          defaultChecked={values.closedOnPublicHolidays === "on"}
          className="size-5"
        />
        祝日は休業する
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          name="requiresApproval"
          defaultChecked={values.requiresApproval === "on"}
          className="size-5"
        />
        {requiresApprovalLabel}
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        {number(
          "approvalAnswerHours",
          "salon-approval-answer",
          n.approvalAnswerHours.label,
          `仮予約に回答する期限。過ぎると自動でお断りし、お客様にメールでお知らせします（ご予約の開始1時間前が先ならそれまで）。${n.approvalAnswerHours.min}〜${n.approvalAnswerHours.max}時間（空欄は${APPROVAL_ANSWER_HOURS_DEFAULT}時間）`,
        )}
      </div>
    </div>
  );
}
