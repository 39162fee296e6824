import { Form, useNavigation } from "react-router";

export type TimeOption = {
  /** Local "HH:MM" shown on the button. */
  time: string;
  /** The instant (ISO) the hold starts at. */
  start: string;
};

type Props = {
  dateLabel: string;
  times: TimeOption[];
  /** The selection so far, sent with the chosen time (menus, staff, coupon, date). */
  hidden: [string, string][];
  headingId: string;
};

/**
 * The time step: each free time is a submit button of one POST form, so a
 * click (or Enter) holds that slot, with or without JavaScript.
 */
export function TimeGrid({ dateLabel, times, hidden, headingId }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "hold";
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
        4. 時間を選ぶ（{dateLabel}）
      </h2>
      {times.length === 0 ? (
        <p className="mt-3">この日は空いている時間がありません。別の日を選んでください。</p>
      ) : (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="hold" />
          {hidden.map(([name, value]) => (
            <input key={`${name}-${value}`} type="hidden" name={name} value={value} />
          ))}
          <p id={`${headingId}-hint`} className="text-sm text-neutral-700">
            時間を選ぶと、その枠を10分間お取り置きします。
          </p>
          <ul
            className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-6"
            aria-describedby={`${headingId}-hint`}
          >
            {times.map((option) => (
              <li key={option.start}>
                <button
                  type="submit"
                  name="start"
                  value={option.start}
                  disabled={busy}
                  aria-label={`${dateLabel} ${option.time}から予約する`}
                  className="w-full rounded-lg border border-brand-700 px-2 py-2 font-bold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
                >
                  {option.time}
                </button>
              </li>
            ))}
          </ul>
        </Form>
      )}
    </section>
  );
}
