import { useNavigation } from "react-router";

export type TimeOption = {
  /** Local "HH:MM" shown on the button. */
  time: string;
  /** The instant (ISO) the hold starts at. */
  start: string;
};

/** Times grouped as people think of a day, so a long list is easy to scan. */
const periods = [
  { label: "午前", from: "00:00", to: "12:00" },
  { label: "午後", from: "12:00", to: "17:00" },
  { label: "夕方以降", from: "17:00", to: "24:01" },
];

type Props = {
  dateLabel: string;
  times: TimeOption[];
  /**
   * The menu step's form: each time button submits it, so the menus sent are
   * the ones ticked (with the stylist, coupon and day it carries).
   */
  formId: string;
  headingId: string;
  /** 予約変更: a time leads to the change's confirmation, nothing is held. */
  changing?: boolean;
};

/**
 * The time step: each free time is a submit button (`name="start"`) of the
 * menu step's POST form, so a click (or Enter) holds that slot for what is
 * ticked, with or without JavaScript.
 */
export function TimeGrid({ dateLabel, times, formId, headingId, changing = false }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.has("start") === true;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
        4. 時間を選ぶ（{dateLabel}）
      </h2>
      {times.length === 0 ? (
        <p className="mt-3">この日は空いている時間がありません。別の日を選んでください。</p>
      ) : (
        <div className="mt-3">
          <p id={`${headingId}-hint`} className="text-sm text-neutral-700">
            {changing
              ? "時間を選ぶと、変更内容の確認に進みます（まだ変更されません）。"
              : "時間を選ぶと、その枠を10分間お取り置きします。"}
          </p>
          {periods.map((period) => {
            const inPeriod = times.filter(
              (option) => option.time >= period.from && option.time < period.to,
            );
            if (inPeriod.length === 0) return null;
            return (
              <div key={period.label} className="mt-3">
                <h3 className="text-sm font-bold text-neutral-700">{period.label}</h3>
                <ul
                  className="mt-1 grid grid-cols-3 gap-2 sm:grid-cols-6"
                  aria-describedby={`${headingId}-hint`}
                >
                  {inPeriod.map((option) => (
                    <li key={option.start}>
                      <button
                        type="submit"
                        form={formId}
                        name="start"
                        value={option.start}
                        disabled={busy}
                        aria-label={`${dateLabel} ${option.time}${changing ? "に変更する" : "から予約する"}`}
                        className="w-full rounded-lg border border-brand-700 px-2 py-2 font-bold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
                      >
                        {option.time}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
