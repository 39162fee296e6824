import { Form, Link, useNavigation } from "react-router";
import {
  type MessageChannelName,
  type MessageKindName,
  messageChannelLabels,
  messageKindLabels,
} from "../../../common/message-channels";
import type { MessagePreferences } from "../../../server/accounts/message-preferences.server";
import { ErrorSummary } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { AccountFrame, linkClass, SubmitButton } from "./account-frame";

type Props = {
  preferences: MessagePreferences;
  saved: boolean;
  actionData?: { errors: Record<string, string | undefined>; values: Record<string, string> };
};

const channels = Object.entries(messageChannelLabels) as [MessageChannelName, string][];

/**
 * /account/edit/notifications (通知設定): per kind of message, メール, LINE
 * or 両方, as one radio group each. LINE and 両方 stay disabled, with the
 * reason beside them, until LINE can be reached (linked and following).
 */
export function MessageChannelsForm({ preferences, saved, actionData }: Props) {
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.errors ?? {};
  const { lineReason, rows } = preferences;
  return (
    <AccountFrame
      title="通知設定"
      lead="ご予約に関するお知らせを、どこで受け取るかを種類ごとに選べます。"
    >
      {saved && !actionData ? <FocusedNotice>通知設定を保存しました。</FocusedNotice> : null}
      <p className="rounded-lg bg-neutral-100 p-3 text-sm">
        領収書・規約に関するお知らせは常にメールでお送りします。
      </p>
      {lineReason ? (
        <p id="line-reason" className="text-sm">
          LINE・両方は{lineReason}。
          {preferences.line.linked ? null : (
            <>
              {" "}
              <Link to="/account/edit#line-settings" className={linkClass}>
                LINE連携について
              </Link>
            </>
          )}
        </p>
      ) : null}
      {/* Remounted by each answer, so the radios show what was sent back. */}
      <Form
        method="post"
        noValidate
        className="flex flex-col gap-5"
        key={actionData ? JSON.stringify(actionData) : "loaded"}
      >
        <ErrorSummary errors={errors} />
        {rows.map((row) => (
          <ChannelGroup
            key={row.kind}
            kind={row.kind}
            checked={(actionData?.values[row.kind] as MessageChannelName) ?? row.channel}
            defaulted={row.saved === null}
            lineReason={lineReason}
            error={errors[row.kind]}
          />
        ))}
        <SubmitButton busy={busy}>保存する</SubmitButton>
      </Form>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}

function ChannelGroup({
  kind,
  checked,
  defaulted,
  lineReason,
  error,
}: {
  kind: MessageKindName;
  checked: MessageChannelName;
  defaulted: boolean;
  lineReason: string | null;
  error?: string;
}) {
  const hintId = `channel-${kind}-hint`;
  const errorId = `channel-${kind}-error`;
  const describedBy = [defaulted ? hintId : null, error ? errorId : null].filter(Boolean);
  return (
    <fieldset
      className={`rounded-lg border p-4 ${error ? "border-red-700 bg-red-50" : "border-neutral-300"}`}
      aria-describedby={describedBy.length > 0 ? describedBy.join(" ") : undefined}
    >
      <legend className="px-1 font-bold">{messageKindLabels[kind]}</legend>
      {defaulted ? (
        <p id={hintId} className="mb-2 text-sm text-neutral-700">
          未設定のため、いまは「{messageChannelLabels[checked]}」でお送りしています。
        </p>
      ) : null}
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {channels.map(([value, label]) => {
          const id = `channel-${kind}-${value}`;
          const unavailable = value !== "mail" && lineReason !== null;
          return (
            <label
              key={value}
              htmlFor={id}
              className={`flex min-h-11 items-center gap-2 ${unavailable ? "text-neutral-500" : ""}`}
            >
              <input
                id={id}
                type="radio"
                name={kind}
                value={value}
                defaultChecked={checked === value}
                disabled={unavailable}
                aria-describedby={unavailable ? "line-reason" : undefined}
                className="size-5 accent-brand-700"
              />
              {label}
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="mt-2 text-sm font-bold text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
