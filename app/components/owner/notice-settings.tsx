import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import type { NoticeSettings, NoticeValues } from "../../../server/owner/notice-settings.server";
import { buttonClass } from "../admin/admin-frame";
import { ErrorSummary, TextField } from "../form/field";
import { OwnerFrame, type OwnerFrameSalon } from "./owner-frame";

export type NoticeSettingsPageData = {
  salon: OwnerFrameSalon;
  salons: OwnerFrameSalon[];
  settings: NoticeSettings;
  /** Where the mails go when no address is set. */
  ownerEmails: string[];
  saved: boolean;
};

export type NoticeSettingsResult = {
  errors: { email?: string };
  values: NoticeValues;
};

function Saved() {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <p
      ref={ref}
      role="status"
      tabIndex={-1}
      className="rounded-lg border-2 border-green-700 bg-green-50 p-3 font-bold text-green-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-green-700"
    >
      通知メールの設定を保存しました。
    </p>
  );
}

/** /owner/salons/{id}/settings: where the salon hears of new bookings, cancellations and moves. */
export function NoticeSettingsPage({
  data,
  result,
}: {
  data: NoticeSettingsPageData;
  result?: NoticeSettingsResult;
}) {
  const busy = useNavigation().state === "submitting";
  const values = result?.values ?? data.settings;
  const owners = data.ownerEmails.length > 0 ? data.ownerEmails.join("、") : "（オーナー未登録）";
  return (
    <OwnerFrame salon={data.salon} salons={data.salons} title="設定">
      {data.saved && !result ? <Saved /> : null}
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
          key={result ? JSON.stringify(result.errors) : "saved"}
        >
          <ErrorSummary errors={result?.errors ?? {}} />
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
            error={result?.errors.email}
          />
          <div>
            <button type="submit" className={buttonClass} disabled={busy}>
              保存する
            </button>
          </div>
        </Form>
      </section>
    </OwnerFrame>
  );
}
