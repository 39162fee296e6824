import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { contactFields } from "../../../common/booking-contact";

/** What the time step reads from the history entry: the contact details typed before a hold expired. */
export type RepickState = { draft: Record<string, string> };

export function draftFromState(state: unknown): Record<string, string> | null {
  const draft = (state as Partial<RepickState> | null)?.draft;
  return draft && typeof draft === "object" ? draft : null;
}

/**
 * Shown when the hold's countdown reaches zero, before anything is pressed:
 * says so (focus moves here) and leads back to the time step of the same
 * menus, stylist, coupon and day, carrying what was typed in the contact
 * form (`formId`) in the history entry's state, so the next hold is
 * prefilled with it (draft fields). Without JavaScript, confirming the
 * expired hold leads back there with the typed fields instead.
 */
export function HoldExpiredNotice({ repickHref, formId }: { repickHref: string; formId: string }) {
  const navigate = useNavigate();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), []);
  return (
    <div
      ref={notice}
      tabIndex={-1}
      role="alert"
      className="rounded-lg border-2 border-red-700 bg-red-50 p-4"
    >
      <p className="font-bold text-red-700">
        お取り置きの時間が過ぎたため、このお時間ではまだ予約が確定していません。
      </p>
      <p className="mt-1 text-sm">
        選んだメニュー・スタッフ・日にちと、ご入力の内容はそのままで、時間を選び直せます。
      </p>
      <p className="mt-3">
        <Link
          to={repickHref}
          onClick={(event) => {
            event.preventDefault();
            const form = document.getElementById(formId);
            const values = form instanceof HTMLFormElement ? new FormData(form) : null;
            const draft: Record<string, string> = {};
            for (const field of contactFields) {
              const value = values?.get(field);
              if (typeof value === "string" && value !== "") draft[field] = value;
            }
            navigate(repickHref, { state: { draft } satisfies RepickState });
          }}
          className="inline-block rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
        >
          時間を選び直す
        </Link>
      </p>
    </div>
  );
}
