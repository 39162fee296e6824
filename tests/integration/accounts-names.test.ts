import { beforeAll, describe, expect, it } from "vitest";
import * as accountEditRoute from "../../app/routes/account.edit";
import { getCurrentUser } from "../../server/accounts/current-user";
import { findProfile } from "../../server/accounts/profile";
import { bookingRequestSchema } from "../../server/api/schemas";
import { contactSchema } from "../../server/bookings/contact.schema";
import { browser, lastMailLink, signUpThroughApi, uniqueEmail } from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [{ path: "/account/edit", module: accountEditRoute }]);
});

const profile = (name: string) =>
  new URLSearchParams({
    name,
    nameKana: "やまだ はなこ",
    phone: "090-1234-5678",
    gender: "female",
    birthDate: "",
  }).toString();

describe("names take no emoji and no control characters (decision 0035)", () => {
  it("refuses them on the profile form with a Japanese message, keeping what was typed", async () => {
    const email = uniqueEmail("names");
    const b = browser(env.app);
    await signUpThroughApi(b, email, "secret1");
    await b.request(await lastMailLink(database.db, email));
    const post = (name: string) =>
      b.request("/account/edit", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: profile(name),
      });

    for (const [name, message] of [
      ["山田 花子😀", "お名前に絵文字は使えません。文字だけで入力してください。"],
      [
        "山田\u202E花子",
        "お名前に使えない文字（改行・タブ・制御文字・外字など）が含まれています。取り除いてから入力してください。",
      ],
    ] as const) {
      const refused = await post(name);
      expect(refused.status).toBe(400);
      const answer = (await refused.json()) as {
        actionData: { errors: Record<string, string>; values: Record<string, string> };
      };
      expect(answer.actionData.errors).toEqual({ name: message });
      expect(answer.actionData.values.name).toBe(name);
    }

    const saved = await post("山田　花子");
    expect(saved.status).toBe(302);
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect((await findProfile(database.db, user?.id ?? ""))?.name).toBe("山田 花子");
  });

  it("refuses them in a booking's contact, on the page form and the API", () => {
    const contact = {
      name: "山田 花子🌸",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      email: "hanako@example.jp",
    };
    expect(contactSchema().safeParse(contact).error?.issues[0]?.message).toBe(
      "お名前に絵文字は使えません。文字だけで入力してください。",
    );
    const api = bookingRequestSchema.safeParse({
      holdId: "3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11",
      contact: {
        name: contact.name,
        kana: contact.nameKana,
        phone: contact.phone,
        email: contact.email,
      },
    });
    expect(api.error?.issues.map((issue) => issue.message)).toContain(
      "お名前に絵文字は使えません。文字だけで入力してください。",
    );
  });
});
