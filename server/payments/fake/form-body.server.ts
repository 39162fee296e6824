/**
 * Stripe's request encoding (what the SDK sends, form-encoded for POST and
 * in the query for GET): `a[b][0][c]=x` is `{ a: { b: [{ c: "x" }] } }`.
 * Values stay strings, as Stripe receives them; each endpoint coerces.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export function parseStripeForm(encoded: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(encoded)) {
    const head = name.match(/^[^[]+/)?.[0];
    if (!head) continue;
    const path = [
      head,
      ...[...name.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? ""),
    ];
    let node: Record<string, FormValue> | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const raw = path[i] ?? "";
      const key: string | number = Array.isArray(node)
        ? raw === ""
          ? node.length
          : Number(raw)
        : raw;
      const last = i === path.length - 1;
      if (last) {
        (node as Record<string | number, FormValue>)[key] = value;
        break;
      }
      const nextIsIndex = /^\d*$/.test(path[i + 1] ?? "");
      const existing = (node as Record<string | number, FormValue>)[key];
      const child: FormValue =
        existing !== undefined && typeof existing === "object" ? existing : nextIsIndex ? [] : {};
      (node as Record<string | number, FormValue>)[key] = child;
      node = child as Record<string, FormValue> | FormValue[];
    }
  }
  return root;
}
