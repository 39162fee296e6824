import { Form } from "react-router";
import { formatYen } from "../../../common/format";

/** A stylist to choose; nominationFee (指名料, yen) is added to the price when chosen. */
export type StylistOption = { slug: string; name: string; role: string; nominationFee: number };

type Props = {
  stylists: StylistOption[];
  /** A stylist's slug, or null for 指名なし. */
  selected: string | null;
  /** Kept through this step (menus, coupon). */
  hidden: [string, string][];
  headingId: string;
  error?: string;
};

/** The stylist step: 指名なし or one of the stylists who can do every chosen menu. */
export function StylistPicker({ stylists, selected, hidden, headingId, error }: Props) {
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
        2. スタッフを選ぶ
      </h2>
      <Form method="get" preventScrollReset className="mt-3 flex flex-col gap-3">
        {hidden.map(([name, value]) => (
          <input key={`${name}-${value}`} type="hidden" name={name} value={value} />
        ))}
        {error ? (
          <p role="alert" className="font-bold text-red-700">
            {error}
          </p>
        ) : null}
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">担当スタッフ</legend>
          {[
            {
              slug: "",
              name: "指名なし",
              role: "空いているスタッフが担当します",
              nominationFee: 0,
            },
            ...stylists,
          ].map((stylist) => (
            <label
              key={stylist.slug || "any"}
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-neutral-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="staff"
                value={stylist.slug}
                defaultChecked={(selected ?? "") === stylist.slug}
                className="size-5 shrink-0 accent-brand-700"
              />
              <span>
                <span className="block font-bold">{stylist.name}</span>
                <span className="block text-sm text-neutral-700">{stylist.role}</span>
                {stylist.nominationFee > 0 ? (
                  <span className="block text-sm font-bold">
                    指名料 {formatYen(stylist.nominationFee)}
                  </span>
                ) : null}
              </span>
            </label>
          ))}
        </fieldset>
        <button
          type="submit"
          className="self-start rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
        >
          このスタッフで空き状況を見る
        </button>
      </Form>
    </section>
  );
}
