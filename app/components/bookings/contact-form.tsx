import { Form, useNavigation } from "react-router";
import type { ContactValues } from "../../../common/booking-contact";
import { ErrorSummary, TextAreaField, TextField } from "../form/field";

type Props = {
  values: ContactValues;
  errors: Record<string, string | undefined>;
  /** The hold and the idempotency key generated when the page was rendered. */
  hidden: [string, string][];
  errorSummaryId: string;
  /** The form's id (the expired hold's notice reads what was typed from it). */
  id?: string;
  /** The button: 予約を確定する, or 予約をリクエストする where the salon approves (decision 0071). */
  submitLabel?: string;
  /**
   * The salon has a payment and cancellation policy (decision 0075): the
   * required consent, and the digest of the policy shown (`termsId`: where).
   */
  policy?: { digest: string; termsId: string } | null;
  /** The hold's coupon is 学割 (decision 0087): 「学生です」, ticked as it was when the form comes back. */
  student?: { checked: boolean } | null;
};

/** Contact details for the booking (prefilled from the profile) and a note; confirms the booking (or sends the request). */
export function ContactForm({
  values,
  errors,
  hidden,
  errorSummaryId,
  id,
  submitLabel = "予約を確定する",
  policy = null,
  student = null,
}: Props) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm";
  return (
    <Form id={id} method="post" noValidate className="flex flex-col gap-5">
      <input type="hidden" name="intent" value="confirm" />
      {hidden.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div id={errorSummaryId} tabIndex={-1}>
        <ErrorSummary errors={errors} />
      </div>
      <TextField
        id="booking-name"
        name="name"
        label="お名前"
        autoComplete="name"
        required
        defaultValue={values.name}
        error={errors.name}
      />
      <TextField
        id="booking-kana"
        name="nameKana"
        label="お名前（フリガナ）"
        hint="例：ヤマダ ハナコ"
        required
        defaultValue={values.nameKana}
        error={errors.nameKana}
      />
      <TextField
        id="booking-phone"
        name="phone"
        type="tel"
        label="電話番号"
        autoComplete="tel"
        hint="当日ご連絡することがあります。例：090-1234-5678"
        required
        defaultValue={values.phone}
        error={errors.phone}
      />
      <TextField
        id="booking-email"
        name="email"
        type="email"
        label="メールアドレス"
        autoComplete="email"
        hint="予約確認メールをお送りします。"
        required
        defaultValue={values.email}
        error={errors.email}
      />
      <TextAreaField
        id="booking-note"
        name="note"
        label="サロンへのご要望（任意）"
        hint="500文字以内。髪の長さやアレルギーなど、事前に伝えたいことがあればご記入ください。"
        rows={4}
        defaultValue={values.note}
        error={errors.note}
      />
      {student ? (
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-2 font-bold">
            <input
              id="booking-student"
              type="checkbox"
              name="student"
              defaultChecked={student.checked}
              aria-invalid={errors.student ? true : undefined}
              aria-describedby={`booking-student-hint${errors.student ? " booking-student-error" : ""}`}
              className="mt-1 size-5 shrink-0"
            />
            学生です（学割クーポン）
          </label>
          <p id="booking-student-hint" className="text-sm text-neutral-700">
            サロンに伝わります。ご来店時に学生証をご提示ください。
          </p>
          {errors.student ? (
            <p id="booking-student-error" className="text-sm font-bold text-red-700">
              {errors.student}
            </p>
          ) : null}
        </div>
      ) : null}
      {policy ? (
        <div className="flex flex-col gap-1">
          <input type="hidden" name="policyDigest" value={policy.digest} />
          <label className="flex items-start gap-2 font-bold">
            <input
              id="booking-policy-consent"
              type="checkbox"
              name="policyConsent"
              required
              aria-invalid={errors.policyConsent ? true : undefined}
              aria-describedby={[
                policy.termsId,
                errors.policyConsent ? "booking-policy-consent-error" : "",
              ]
                .filter(Boolean)
                .join(" ")}
              className="mt-1 size-5 shrink-0"
            />
            キャンセルポリシーに同意する
            <span className="ml-1 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">必須</span>
          </label>
          {errors.policyConsent ? (
            <p id="booking-policy-consent-error" className="text-sm font-bold text-red-700">
              {errors.policyConsent}
            </p>
          ) : null}
        </div>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {submitLabel}
      </button>
    </Form>
  );
}
