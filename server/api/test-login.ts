import { randomBytes, randomUUID } from "node:crypto";
import type { Context } from "hono";
import { z } from "zod";
import type { AccountServices } from "../accounts/account-services";
import { createReadyAccount } from "../accounts/ready-account";
import type { Database } from "../db/client";
import { authAccounts } from "../db/schema";

const inputSchema = z.object({
  role: z.enum(["user", "owner", "admin"]).default("user"),
  /** A LINE user id: the account signed in with LINE too (its `line` sign-in method). */
  lineUserId: z
    .string()
    .regex(/^U[0-9a-f]{32}$/)
    .optional(),
});

/**
 * POST /api/test/login, mounted only with E2E_LOGIN=true (refused in
 * production): a new verified user with a completed profile (山田 花子), signed
 * in at once. The answer sets the session cookie and gives the address and
 * password, so an end-to-end test starts signed in without the mailbox.
 */
export function testLoginHandler({ db, accounts }: { db: Database; accounts: AccountServices }) {
  return async (c: Context) => {
    const parsed = inputSchema.safeParse(await c.req.json().catch(() => ({})));
    if (!parsed.success) {
      return c.json(
        {
          error: {
            code: "invalid-input",
            message: "role は user・owner・admin のいずれか、lineUserId は U と32桁の16進数です。",
          },
        },
        400,
      );
    }
    const email = `e2e-${randomUUID()}@example.jp`;
    const password = randomBytes(12).toString("base64url");
    const user = await createReadyAccount(db, accounts, {
      email,
      password,
      role: parsed.data.role,
      profile: {
        name: "山田 花子",
        nameKana: "ヤマダ ハナコ",
        phone: "09012345678",
        gender: "female",
        birthDate: null,
      },
    });
    // As LINE sign-in leaves it (decision 0089's messages go to this LINE user once it follows).
    if (parsed.data.lineUserId) {
      await db.insert(authAccounts).values({
        id: randomUUID(),
        userId: user.id,
        providerId: "line",
        accountId: parsed.data.lineUserId,
      });
    }
    const { headers } = await accounts.auth.api.signInEmail({
      body: { email, password },
      headers: c.req.raw.headers,
      returnHeaders: true,
    });
    const response = c.json({ email, password, role: parsed.data.role }, 201);
    for (const cookie of headers.getSetCookie()) response.headers.append("set-cookie", cookie);
    return response;
  };
}
