import type { Context } from "hono";
import type { AccountServices } from "../accounts/account-services";
import { getCurrentUser } from "../accounts/current-user";
import { accountRecord } from "../accounts/profile";
import type { Database } from "../db/client";

/**
 * GET /api/accounts/ (SPEC.md §7): `{ data: <account record> }` for a valid
 * bearer token or session cookie; 401 JSON for nobody, 404 JSON before the
 * profile was first saved.
 */
export function accountRecordHandler({
  db,
  accounts,
}: {
  db: Database;
  accounts: AccountServices;
}) {
  return async (c: Context) => {
    const user = await getCurrentUser(c.req.raw, { db, accounts });
    if (!user) {
      return c.json({ error: { code: "unauthorized", message: "ログインしてください。" } }, 401);
    }
    const record = await accountRecord(db, user.id);
    if (!record) {
      return c.json(
        {
          error: {
            code: "account-not-found",
            message: "会員情報が登録されていません。アカウント編集画面で登録してください。",
          },
        },
        404,
      );
    }
    return c.json({ data: record });
  };
}
