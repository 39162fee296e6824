import { Form, Link } from "react-router";
import { formatYen } from "../../../common/format";
import { roleLabels, staffBookingStatusLabels } from "../../../common/status-labels";
import type { AdminHomeData } from "../../../server/admin/admin-home.server";
import {
  buttonClass,
  cellClass,
  FilterSelect,
  formatDateTime,
  headCellClass,
  linkClass,
  tableClass,
} from "../back-office-ui";
import { AdminFrame } from "./admin-frame";
import { AuditTarget } from "./audit-target";

const ownerHref = (email: string) => `/admin/owners?q=${encodeURIComponent(email)}`;

/** /admin: the counts, the audit log with its filters, the latest bookings and sign-ups. */
export function AdminHome({ data }: { data: AdminHomeData }) {
  const { counts, latestBookings, latestSignUps, audit, admins, auditedSalons, filter, line } =
    data;
  const tiles = [
    { label: "公開中のサロン", value: counts.publishedSalons },
    { label: "オーナー", value: counts.owners },
    { label: "会員", value: counts.members },
    { label: "本日の予約", value: counts.bookingsToday },
    { label: "今週の予約", value: counts.bookingsThisWeek },
    { label: "今週のキャンセル", value: counts.cancellationsThisWeek },
  ];
  return (
    <AdminFrame title="管理ホーム">
      <section aria-labelledby="counts-heading">
        <h2 id="counts-heading" className="text-lg font-bold">
          数字で見る
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {tiles.map((tile) => (
            <div key={tile.label} className="rounded-lg border border-neutral-300 p-3">
              <dt className="text-sm text-neutral-700">{tile.label}</dt>
              <dd className="text-2xl font-bold">{tile.value.toLocaleString("ja-JP")}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-sm text-neutral-700">
          予約は来店日時（日本時間、週は月曜始まり）で、キャンセルはキャンセルされた日時で数えています。
        </p>
        <p className="mt-2" data-testid="line-usage">
          LINE送信：今月 {line.sent.toLocaleString("ja-JP")} / {line.quota.toLocaleString("ja-JP")}{" "}
          通
          {line.fellBack > 0
            ? `（LINEで届かずメールで送った通知：${line.fellBack.toLocaleString("ja-JP")} 通）`
            : ""}
        </p>
      </section>

      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading" className="text-lg font-bold">
          操作履歴
        </h2>
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          <FilterSelect
            id="audit-salon"
            name="salon"
            label="サロンで絞り込む"
            allLabel="すべてのサロン"
            value={filter.salon}
            options={auditedSalons.map((salon) => ({ value: salon.id, label: salon.name }))}
          />
          <FilterSelect
            id="audit-actor"
            name="actor"
            label="管理者で絞り込む"
            allLabel="すべての管理者"
            value={filter.actor}
            options={admins.map((admin) => ({
              value: admin.id,
              label: `${admin.name}（${admin.email}）`,
            }))}
          />
          <button type="submit" className={buttonClass}>
            絞り込む
          </button>
          {filter.salon || filter.actor ? (
            <Link to="/admin" className={linkClass}>
              絞り込みを解除
            </Link>
          ) : null}
        </Form>
        {audit.length === 0 ? (
          <p className="mt-3">該当する操作履歴はありません。</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className={tableClass}>
              <caption className="sr-only">最新の操作履歴</caption>
              <thead>
                <tr>
                  <th scope="col" className={headCellClass}>
                    日時
                  </th>
                  <th scope="col" className={headCellClass}>
                    操作
                  </th>
                  <th scope="col" className={headCellClass}>
                    対象
                  </th>
                  <th scope="col" className={headCellClass}>
                    サロン
                  </th>
                  <th scope="col" className={headCellClass}>
                    操作した人
                  </th>
                </tr>
              </thead>
              <tbody>
                {audit.map((entry) => (
                  <tr key={entry.id}>
                    <td className={cellClass}>{formatDateTime(entry.createdAt)}</td>
                    <td className={cellClass}>{entry.label}</td>
                    <td className={cellClass}>
                      {entry.targetEmail ? (
                        <Link to={ownerHref(entry.targetEmail)} className={linkClass}>
                          {entry.targetEmail}
                        </Link>
                      ) : entry.targetType === "salon" && entry.salonId ? (
                        <Link to={`/admin/salons/edit/${entry.salonId}`} className={linkClass}>
                          サロンを編集
                          <span className="sr-only">（{entry.salonName}）</span>
                        </Link>
                      ) : (
                        <AuditTarget entry={entry} />
                      )}
                    </td>
                    <td className={cellClass}>
                      {entry.salonId && entry.salonName ? (
                        <Link to={`/admin?salon=${entry.salonId}`} className={linkClass}>
                          {entry.salonName}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className={cellClass}>
                      {entry.actorUserId && entry.actorEmail ? (
                        <Link
                          to={`/admin?actor=${encodeURIComponent(entry.actorUserId)}`}
                          className={linkClass}
                        >
                          {entry.actorEmail}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="bookings-heading">
        <h2 id="bookings-heading" className="text-lg font-bold">
          新しい予約
        </h2>
        {latestBookings.length === 0 ? (
          <p className="mt-3">予約はまだありません。</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className={tableClass}>
              <caption className="sr-only">新しく入った予約</caption>
              <thead>
                <tr>
                  <th scope="col" className={headCellClass}>
                    受付日時
                  </th>
                  <th scope="col" className={headCellClass}>
                    来店日時
                  </th>
                  <th scope="col" className={headCellClass}>
                    サロン
                  </th>
                  <th scope="col" className={headCellClass}>
                    お客様
                  </th>
                  <th scope="col" className={headCellClass}>
                    状態
                  </th>
                  <th scope="col" className={headCellClass}>
                    金額
                  </th>
                </tr>
              </thead>
              <tbody>
                {latestBookings.map((booking) => (
                  <tr key={booking.id}>
                    <td className={cellClass}>{formatDateTime(booking.createdAt)}</td>
                    <td className={cellClass}>{formatDateTime(booking.startsAt)}</td>
                    <td className={cellClass}>
                      <Link to={`/salons/${booking.salonSlug}`} className={linkClass}>
                        {booking.salonName}
                      </Link>
                    </td>
                    <td className={cellClass}>
                      {booking.userEmail ?? (booking.customerName || "—")}
                    </td>
                    <td className={cellClass}>
                      {staffBookingStatusLabels[booking.status] ?? booking.status}
                    </td>
                    <td className={cellClass}>{formatYen(booking.totalPrice)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="signups-heading">
        <h2 id="signups-heading" className="text-lg font-bold">
          新しい登録
        </h2>
        <div className="mt-3 overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">新しく登録されたアカウント</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  登録日時
                </th>
                <th scope="col" className={headCellClass}>
                  メールアドレス
                </th>
                <th scope="col" className={headCellClass}>
                  権限
                </th>
                <th scope="col" className={headCellClass}>
                  メール確認
                </th>
              </tr>
            </thead>
            <tbody>
              {latestSignUps.map((user) => (
                <tr key={user.id}>
                  <td className={cellClass}>{formatDateTime(user.createdAt)}</td>
                  <td className={cellClass}>
                    {user.role === "owner" ? (
                      <Link to={ownerHref(user.email)} className={linkClass}>
                        {user.email}
                      </Link>
                    ) : (
                      user.email
                    )}
                  </td>
                  <td className={cellClass}>{roleLabels[user.role] ?? user.role}</td>
                  <td className={cellClass}>{user.emailVerified ? "確認済み" : "未確認"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </AdminFrame>
  );
}
