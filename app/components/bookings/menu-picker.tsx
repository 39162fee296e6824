import { useState } from "react";
import { Form } from "react-router";
import { type CouponTerms, priceWithCoupon } from "../../../common/coupon-pricing";
import { formatYen } from "../../../common/format";
import { formatDuration } from "../../lib/booking-format";

export type MenuOption = {
  id: string;
  name: string;
  description: string;
  price: number;
  durationMinutes: number;
};

type Props = {
  groups: { category: string; menus: MenuOption[] }[];
  selected: string[];
  /**
   * Sent with either button: the stylist, coupon, day, the menus the times
   * were computed for, and what was typed for a lost hold.
   */
  hidden: [string, string][];
  headingId: string;
  /** The form's id: the time buttons of the later step submit this form, ticked menus included. */
  formId: string;
  /** Told of every tick, so the later steps can follow what is ticked before it is sent. */
  onTickedChange?: (menuIds: string[]) => void;
  error?: string;
  /** The coupon being used: each menu and the total show their price with it. */
  coupon?: CouponTerms | null;
};

/** ¥5,500, or ¥5,500 struck through and the coupon price beside it when the coupon lowers it. */
function Price({ regular, withCoupon }: { regular: number; withCoupon: number | null }) {
  if (withCoupon === null || withCoupon >= regular) return <>{formatYen(regular)}</>;
  return (
    <>
      <s>
        <span className="sr-only">通常</span>
        {formatYen(regular)}
      </s>
      <span aria-hidden="true"> → </span>
      <span className="font-bold text-brand-700">クーポン適用 {formatYen(withCoupon)}</span>
    </>
  );
}

/**
 * The menu step: checkboxes by category, the running total, and the POST
 * form whose button shows the free days for the ticked menus (the server
 * answers with the URL of that selection). The time buttons belong to this
 * form too (`form` attribute), so a time is always held for the menus that
 * are ticked, with or without JavaScript.
 */
export function MenuPicker({
  groups,
  selected,
  hidden,
  headingId,
  formId,
  onTickedChange,
  error,
  coupon,
}: Props) {
  const all = groups.flatMap((group) => group.menus);
  const [chosen, setChosen] = useState(() => new Set(selected));
  const picked = all.filter((menu) => chosen.has(menu.id));
  const total = picked.reduce((sum, menu) => sum + menu.price, 0);
  const minutes = picked.reduce((sum, menu) => sum + menu.durationMinutes, 0);
  const couponPrice = (menus: MenuOption[]) =>
    coupon && menus.length > 0 ? priceWithCoupon(menus, coupon) : null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
        1. メニューを選ぶ
      </h2>
      <Form id={formId} method="post" preventScrollReset className="mt-3 flex flex-col gap-4">
        {hidden.map(([name, value]) => (
          <input key={`${name}-${value}`} type="hidden" name={name} value={value} />
        ))}
        {error ? (
          <p id={`${headingId}-error`} role="alert" className="font-bold text-red-700">
            {error}
          </p>
        ) : null}
        {groups.map((group) => (
          <fieldset key={group.category} className="flex flex-col gap-2">
            <legend className="text-lg font-bold">{group.category}</legend>
            {group.menus.map((menu) => (
              <label
                key={menu.id}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-neutral-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="checkbox"
                  name="menu"
                  value={menu.id}
                  defaultChecked={selected.includes(menu.id)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.currentTarget.checked) next.add(menu.id);
                    else next.delete(menu.id);
                    setChosen(next);
                    onTickedChange?.(
                      all.filter((item) => next.has(item.id)).map((item) => item.id),
                    );
                  }}
                  className="mt-1 size-5 shrink-0 accent-brand-700"
                />
                <span className="min-w-0 flex-1">
                  <span className="block font-bold">{menu.name}</span>
                  {menu.description ? (
                    <span className="block text-sm text-neutral-700">{menu.description}</span>
                  ) : null}
                  <span className="block text-sm">
                    <Price regular={menu.price} withCoupon={couponPrice([menu])} />
                    ・約{formatDuration(menu.durationMinutes)}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
        ))}
        <p aria-live="polite" className="font-bold">
          {picked.length > 0 ? (
            <>
              選択中 {picked.length}件：合計{" "}
              <Price regular={total} withCoupon={couponPrice(picked)} />
              ・約{formatDuration(minutes)}
            </>
          ) : (
            "メニューを1つ以上選んでください。"
          )}
        </p>
        <button
          type="submit"
          name="intent"
          value="menus"
          className="self-start rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
        >
          このメニューで空き状況を見る
        </button>
      </Form>
    </section>
  );
}
