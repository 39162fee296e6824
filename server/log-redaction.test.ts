import { describe, expect, it } from "vitest";
import { redactText } from "./log-redaction";

describe("redactText", () => {
  it("hides mail addresses, also URL-encoded, unless named public", () => {
    expect(
      redactText("Sign-up attempt for existing email: hanako.yamada+1@mail.example.co.jp"),
    ).toBe("Sign-up attempt for existing email: [email]");
    expect(redactText("/signin?email=hanako%40example.jp&next=/")).toBe(
      "/signin?email=[email]&next=/",
    );
    const publicEmails = new Set(["demo-user@example.jp"]);
    expect(redactText("demo-user@example.jp, taro@example.jp", { publicEmails })).toBe(
      "demo-user@example.jp, [email]",
    );
  });

  it("hides Japanese phone numbers in their usual spellings", () => {
    for (const phone of [
      "09012345678",
      "090-1234-5678",
      "03-1234-5678",
      "0312345678",
      "0120 123 456",
      "+81 90-1234-5678",
      "+819012345678",
      "０９０－１２３４－５６７８",
    ]) {
      expect(redactText(`電話 ${phone} まで`), phone).toBe("電話 [phone] まで");
    }
    expect(redactText("x,09012345678,y")).toBe("x,[phone],y");
  });

  it("leaves dates, times, postal codes, ids and durations alone", () => {
    for (const text of [
      "2026-11-23T09:00:00.000+09:00",
      "〒150-0001",
      "booking 0b7c2a4e-1f3d-4c5a-9e8f-0123456789ab",
      "durationMs 0.5",
      "at file.js:1234:56",
      'duplicate key value violates unique constraint "users_email_unique"',
      "SELECT 0 FROM t LIMIT 10",
      "createReadableStreamFromReadable",
      "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });

  it("hides secrets: URL parameters, credentials, JWTs, reset paths and random tokens", () => {
    expect(redactText("/api/auth/verify-email?token=abc.def&callbackURL=/finish")).toBe(
      "/api/auth/verify-email?token=[token]&callbackURL=/finish",
    );
    expect(redactText("/api/auth/callback/line?code=Q1w2e3&state=xyz")).toBe(
      "/api/auth/callback/line?code=[token]&state=[token]",
    );
    expect(redactText("Authorization: Bearer abc123.def")).toBe("Authorization: Bearer [token]");
    expect(redactText("id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl ok")).toBe(
      "id [token] ok",
    );
    expect(redactText("/api/auth/reset-password/AbCdEfGhIjKlMnOpQrStUvWx?callbackURL=/x")).toBe(
      "/api/auth/reset-password/[token]?callbackURL=/x",
    );
    expect(redactText("session Xk3fP9qLm2Rt7Vw4Yz8Bn5Cd6Gh1Js0K expired")).toBe(
      "session [token] expired",
    );
  });

  it("drops the parameters of a failed Drizzle query and keeps the query", () => {
    expect(
      redactText(
        'Failed query: insert into "users" ("name") values ($1)\nparams: 山田 花子,ヤマダ',
      ),
    ).toBe('Failed query: insert into "users" ("name") values ($1)\nparams: [redacted]');
  });

  it("takes linear time on long hostile input (every request's path is logged)", () => {
    const started = performance.now();
    for (const text of [
      "x".repeat(50_000),
      "a1".repeat(25_000),
      "%40".repeat(20_000),
      "0-".repeat(25_000),
    ]) {
      redactText(text);
    }
    // Quadratic matching took seconds here; linear takes a few milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("is stable when applied twice", () => {
    const once = redactText("a@b.jp 090-1234-5678 ?token=x");
    expect(redactText(once)).toBe(once);
  });
});
