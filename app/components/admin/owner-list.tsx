import { Form, Link, useNavigation } from "react-router";
import { OWNERS_PER_PAGE } from "../../../common/admin";
import type { listOwners } from "../../../server/admin/owners";
import { Notice } from "../accounts/account-frame";
import {
  buttonClass,
  cellClass,
  formatDateTime,
  headCellClass,
  ListCount,
  linkClass,
  secondaryButtonClass,
  tableClass,
} from "../back-office-ui";
import { Pagination } from "../pagination";
import { AdminFrame } from "./admin-frame";

type OwnerListData = Awaited<ReturnType<typeof listOwners>>;

const doneMessages: Record<string, string> = {
  unlink: "担当サロンを解除しました。",
  suspend: "オーナーの利用を停止しました。ログイン中のセッションも終了しています。",
  reinstate: "オーナーの利用を再開しました。",
  invited: "オーナーを登録し、招待メールを送信しました。",
  upgrade: "既存の会員に、オーナー登録の確認メールを送信しました。承認されるとオーナーになります。",
};

/**
 * /admin/owners: the search, the owners of this page with their salons and
 * the buttons that take a salon from them or suspend them, and the pages.
 */
export function OwnerList({
  data,
  error,
}: {
  data: OwnerListData & { q: string; done: string | null };
  error: string | undefined;
}) {
  const { owners, total, page, q, done } = data;
  const busy = useNavigation().state === "submitting";
  const listQuery = (n: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (n > 1) params.set("page", String(n));
    const text = params.toString();
    return `/admin/owners${text ? `?${text}` : ""}`;
  };
  const actionUrl = listQuery(page);
  return (
    <AdminFrame
      title="オーナー一覧"
      actions={
        <Link to="/admin/owners/add" className={buttonClass}>
          オーナーを追加
        </Link>
      }
    >
      {error ? <Notice tone="error">{error}</Notice> : null}
      {done && doneMessages[done] ? <Notice>{doneMessages[done]}</Notice> : null}
      <Form
        method="get"
        role="search"
        aria-label="オーナーの検索"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="flex min-w-64 flex-1 flex-col gap-1">
          <label htmlFor="owner-q" className="font-bold">
            名前・フリガナ・メールアドレスで検索
          </label>
          <input
            id="owner-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            className="rounded-lg border border-neutral-400 px-3 py-2"
          />
        </div>
        <button type="submit" className={buttonClass}>
          検索する
        </button>
      </Form>
      <ListCount total={total} page={page} perPage={OWNERS_PER_PAGE} />
      {owners.length === 0 ? (
        <p>該当するオーナーはいません。</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className={tableClass}>
            <caption className="sr-only">オーナー一覧</caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  お名前
                </th>
                <th scope="col" className={headCellClass}>
                  メールアドレス・電話
                </th>
                <th scope="col" className={headCellClass}>
                  担当サロン
                </th>
                <th scope="col" className={headCellClass}>
                  最終ログイン
                </th>
                <th scope="col" className={headCellClass}>
                  状態
                </th>
              </tr>
            </thead>
            <tbody>
              {owners.map((owner) => (
                <tr key={owner.id}>
                  <td className={cellClass}>
                    <span className="font-bold">{owner.name}</span>
                    {owner.nameKana ? (
                      <span className="block text-xs">{owner.nameKana}</span>
                    ) : null}
                  </td>
                  <td className={cellClass}>
                    {owner.email}
                    {owner.phone ? <span className="block text-xs">{owner.phone}</span> : null}
                  </td>
                  <td className={cellClass}>
                    {owner.salons.length === 0 ? (
                      "—"
                    ) : (
                      <ul className="flex flex-col gap-1">
                        {owner.salons.map((salon) => (
                          <li key={salon.id} className="flex flex-wrap items-center gap-2">
                            <Link to={`/salons/${salon.slug}`} className={linkClass}>
                              {salon.name}
                            </Link>
                            <Form method="post" action={actionUrl}>
                              <input type="hidden" name="intent" value="unlink" />
                              <input type="hidden" name="userId" value={owner.id} />
                              <input type="hidden" name="salonId" value={salon.id} />
                              <button
                                type="submit"
                                disabled={busy}
                                className={secondaryButtonClass}
                              >
                                担当を外す
                                <span className="sr-only">
                                  （{owner.name}さん・{salon.name}）
                                </span>
                              </button>
                            </Form>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className={cellClass}>
                    {owner.awaitingPassword
                      ? "招待中（パスワード未設定）"
                      : formatDateTime(owner.lastSignInAt)}
                  </td>
                  <td className={cellClass}>
                    <p>{owner.banned ? "利用停止中" : "利用中"}</p>
                    <Form method="post" action={actionUrl} className="mt-1">
                      <input
                        type="hidden"
                        name="intent"
                        value={owner.banned ? "reinstate" : "suspend"}
                      />
                      <input type="hidden" name="userId" value={owner.id} />
                      <button type="submit" disabled={busy} className={secondaryButtonClass}>
                        {owner.banned ? "利用を再開する" : "利用を停止する"}
                        <span className="sr-only">（{owner.name}さん）</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} total={total} pageSize={OWNERS_PER_PAGE} hrefFor={listQuery} />
    </AdminFrame>
  );
}
