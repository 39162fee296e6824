import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LineChannel, startFakeLine } from "../../server/line/line-channel.server";
import { createRouterApp } from "../support/router-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let channel: LineChannel;
beforeAll(async () => {
  ({ channel } = await startFakeLine());
});
afterAll(async () => {
  await channel.close();
});

const USER = `U${"ab".repeat(16)}`;

describe("/dev/line", () => {
  it("lists what the fake Messaging API received, by LINE user, its links clickable", async () => {
    const site = await createRouterApp(database, {}, { line: channel });
    await channel.push({
      to: USER,
      messages: [
        {
          type: "text",
          text: "ご予約が確定しました\n予約を確認する：\nhttps://salon.example.jp/a",
        },
      ],
      retryKey: "22222222-3333-4444-8555-666666666666",
    });
    const response = await site.app.request("http://localhost:3000/dev/line");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`aria-label="LINEユーザー ${USER}"`);
    expect(html).toContain("ご予約が確定しました");
    expect(html).toContain('href="https://salon.example.jp/a"');
  });

  it("is not there in production", async () => {
    const site = await createRouterApp(
      database,
      {
        NODE_ENV: "production",
        BETTER_AUTH_SECRET: "x".repeat(32),
        PUBLIC_URL: "http://localhost:3000",
      },
      { line: channel },
    );
    const response = await site.app.request("http://localhost:3000/dev/line");
    expect(response.status).toBe(404);
  });
});
