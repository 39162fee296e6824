import type { PolicySnapshot } from "../../../common/payment-policy";

/**
 * The salon's payment and cancellation policy for one booking (decision
 * 0075): the lines generated from its numbers, with this booking's amounts
 * in yen and its windows as dates in the salon's zone. The same component
 * shows the terms before consent and the stored snapshot afterwards.
 */
export function PolicyTerms({
  terms,
  id,
  heading = "お支払いとキャンセルポリシー",
  headingLevel = "h3",
}: {
  terms: PolicySnapshot;
  id?: string;
  heading?: string;
  headingLevel?: "h2" | "h3" | "h4";
}) {
  const Heading = headingLevel;
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-heading` : undefined}
      className="rounded-lg border-2 border-amber-700 bg-amber-50 p-4 text-amber-950"
    >
      <Heading id={id ? `${id}-heading` : undefined} className="font-bold">
        {heading}
      </Heading>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {terms.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="mt-2 text-xs">
        ※ 金額はこのご予約の合計（{terms.bookedAmount.toLocaleString("ja-JP")}
        円）をもとにしています。日時はサロンの所在地の時刻です。
      </p>
    </section>
  );
}
