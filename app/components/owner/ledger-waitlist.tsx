import type { LedgerWaitlistEntry } from "../../../server/owner/ledger-waitlist.server";

/**
 * 「キャンセル待ち（N件）」 under the ledger's day: the live line in order
 * (N of them), then the entries that left it; each with the customer, the
 * menus, the stylist or 指名なし, the wished window and the status, and an
 * open offer's held time and deadline.
 */
export function LedgerWaitlist({ entries }: { entries: LedgerWaitlistEntry[] }) {
  const live = entries.filter((entry) => entry.position !== null);
  const ended = entries.filter((entry) => entry.position === null);
  return (
    <section aria-labelledby="ledger-waitlist-heading" className="mt-6">
      <h2 id="ledger-waitlist-heading" className="text-lg font-bold">
        キャンセル待ち（{live.length}件）
      </h2>
      {live.length === 0 ? (
        <p className="mt-2 text-neutral-700">この日のキャンセル待ちはありません。</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2">
          {live.map((entry) => (
            <li key={entry.id} className="rounded-lg border border-neutral-300 p-3">
              <WaitlistLine entry={entry} />
            </li>
          ))}
        </ol>
      )}
      {ended.length > 0 ? (
        <details className="mt-3">
          <summary className="cursor-pointer font-bold">
            終了したキャンセル待ち（{ended.length}件）
          </summary>
          <ul className="mt-2 flex flex-col gap-2">
            {ended.map((entry) => (
              <li key={entry.id} className="rounded-lg border border-neutral-300 p-3">
                <WaitlistLine entry={entry} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

function WaitlistLine({ entry }: { entry: LedgerWaitlistEntry }) {
  return (
    <>
      <p className="flex flex-wrap items-center gap-2">
        {entry.position !== null ? <span className="font-bold">{entry.position}番目</span> : null}
        <span className="font-bold">{entry.customerName}様</span>
        <span className="inline-block rounded border border-brand-700 px-2 py-0.5 text-xs font-bold text-brand-700">
          {entry.statusLabel}
        </span>
      </p>
      <p className="text-sm">
        開始 {entry.windowText}・{entry.staffLabel}・{entry.menuNames.join("、")}
      </p>
      {entry.offer ? (
        <p className="text-sm font-bold">
          ご案内中：{entry.offer.time}（{entry.offer.deadline}まで仮押さえ）
        </p>
      ) : null}
    </>
  );
}
