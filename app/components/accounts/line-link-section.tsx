import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import type { LineLinkNotice, LineLinkStatus } from "../../../server/accounts/line-link.server";
import { linkClass } from "./account-frame";

export type LineSection = LineLinkStatus & { notice: LineLinkNotice | null };

const buttonClass =
  "w-full rounded-lg border-2 border-brand-700 px-4 py-2 font-bold text-brand-700 hover:bg-brand-50 sm:w-auto";

/**
 * LINE on /account/edit (issue 41 §1): 「LINEと連携する」 for an account
 * without it, 「LINE連携済み」 and 連携を解除 for one with it, and the outcome
 * of the last link or unlink, which takes focus when the page comes back.
 */
export function LineLinkSection({ line }: { line: LineSection }) {
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (line.notice) noticeRef.current?.focus();
  }, [line.notice]);
  return (
    <section aria-labelledby="line-settings" className="flex flex-col gap-3">
      <h2 id="line-settings" className="font-bold">
        LINE連携
      </h2>
      {line.notice ? (
        <p
          ref={noticeRef}
          tabIndex={-1}
          role={line.notice.tone === "error" ? "alert" : "status"}
          className={`rounded-lg p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-700 ${
            line.notice.tone === "error"
              ? "border-2 border-red-700 bg-red-50 font-bold text-red-700"
              : "bg-brand-50 font-bold"
          }`}
        >
          {line.notice.text}
        </p>
      ) : null}
      {line.linked ? (
        <>
          <p className="text-sm">
            <span className="mr-2 rounded bg-green-700 px-2 py-0.5 text-xs font-bold text-white">
              LINE連携済み
            </span>
            LINEでもログインできます。
            {line.following
              ? null
              : "公式アカウントを友だち追加すると、予約のお知らせをLINEで受け取れます。"}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="unlink-line" />
            <button type="submit" className={buttonClass}>
              連携を解除
            </button>
          </Form>
        </>
      ) : (
        <>
          <p className="text-sm">
            LINEと連携すると、LINEでもログインでき、予約のお知らせをLINEで受け取れます。
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="link-line" />
            <button type="submit" className={buttonClass}>
              LINEと連携する
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

/** The link to 通知設定, shown on /account/edit whether or not LINE is configured. */
export function NotificationSettingsLink() {
  return (
    <Link to="/account/edit/notifications" className={linkClass}>
      通知設定（メール・LINE）
    </Link>
  );
}
