import { describe, expect, it } from "vitest";
import { DEVELOPMENT_AUTH_SECRET, loadConfig } from "./config";

const secret = "a-production-secret-that-is-long-enough-123";

describe("loadConfig", () => {
  it("has working defaults for a fresh machine", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe("./data/db");
    expect(config.isProduction).toBe(false);
  });

  it("reads PORT and treats empty values as unset", () => {
    expect(loadConfig({ PORT: "4100", DATABASE_URL: "" }).PORT).toBe(4100);
    expect(loadConfig({ DATABASE_URL: "" }).DATABASE_URL).toBe("./data/db");
  });

  it("fails fast with the name of the bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ NODE_ENV: "staging" })).toThrow(/NODE_ENV/);
  });

  it("keeps the waiting list's quiet hours on, and refuses them off in production", () => {
    expect(loadConfig({}).WAITLIST_QUIET_HOURS).toBe("on");
    expect(loadConfig({ WAITLIST_QUIET_HOURS: "off" }).WAITLIST_QUIET_HOURS).toBe("off");
    expect(() => loadConfig({ WAITLIST_QUIET_HOURS: "sometimes" })).toThrow(/WAITLIST_QUIET_HOURS/);
    expect(() =>
      loadConfig({
        NODE_ENV: "production",
        BETTER_AUTH_SECRET: secret,
        WAITLIST_QUIET_HOURS: "off",
      }),
    ).toThrow(/WAITLIST_QUIET_HOURS/);
  });

  it("checks the replica every second and leaves it past 5 s of lag, below the read-own-writes 15 s", () => {
    expect(loadConfig({})).toMatchObject({ REPLICA_CHECK_MS: 1_000, REPLICA_MAX_LAG_SECONDS: 5 });
    expect(loadConfig({ REPLICA_CHECK_MS: "500", REPLICA_MAX_LAG_SECONDS: "2.5" })).toMatchObject({
      REPLICA_CHECK_MS: 500,
      REPLICA_MAX_LAG_SECONDS: 2.5,
    });
    expect(() => loadConfig({ REPLICA_MAX_LAG_SECONDS: "15" })).toThrow(/REPLICA_MAX_LAG_SECONDS/);
    expect(() => loadConfig({ REPLICA_CHECK_MS: "10" })).toThrow(/REPLICA_CHECK_MS/);
  });

  it("refuses the e2e login route in production", () => {
    expect(loadConfig({ E2E_LOGIN: "true" }).E2E_LOGIN).toBe(true);
    expect(() =>
      loadConfig({ NODE_ENV: "production", BETTER_AUTH_SECRET: secret, E2E_LOGIN: "true" }),
    ).toThrow(/E2E_LOGIN/);
  });

  it("marks production", () => {
    expect(loadConfig({ NODE_ENV: "production", BETTER_AUTH_SECRET: secret }).isProduction).toBe(
      true,
    );
  });

  it("refuses to start in production without an auth secret, and uses a fixed one elsewhere", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/BETTER_AUTH_SECRET/);
    expect(loadConfig({}).BETTER_AUTH_SECRET).toBe(DEVELOPMENT_AUTH_SECRET);
    expect(() => loadConfig({ BETTER_AUTH_SECRET: "short" })).toThrow(/BETTER_AUTH_SECRET/);
  });

  it("keeps photos in ./data/uploads unless a whole S3 setting is given", () => {
    expect(loadConfig({}).UPLOADS_DIR).toBe("./data/uploads");
    const s3 = {
      S3_BUCKET: "photos",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    };
    expect(loadConfig(s3).S3_REGION).toBe("us-east-1");
    expect(() => loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: "" })).toThrow(/S3_/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: "ftp://x" })).toThrow(/S3_ENDPOINT/);
  });

  it("reads the password policy with the default minimum of 6", () => {
    const config = loadConfig({ PASSWORD_REQUIRE_UPPERCASE: "true", PASSWORD_MAX_LENGTH: "20" });
    expect(config.PASSWORD_MIN_LENGTH).toBe(6);
    expect(config.PASSWORD_MAX_LENGTH).toBe(20);
    expect(config.PASSWORD_REQUIRE_UPPERCASE).toBe(true);
    expect(config.PASSWORD_REQUIRE_NUMERIC).toBe(false);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: "10", PASSWORD_MAX_LENGTH: "8" })).toThrow(
      /PASSWORD_MAX_LENGTH/,
    );
  });
});

describe("PUBLIC_URL", () => {
  it("follows PORT when unset, so mail links work on the port the app listens on", () => {
    expect(loadConfig({}).PUBLIC_URL).toBe("http://localhost:3000");
    expect(loadConfig({ PORT: "4000" }).PUBLIC_URL).toBe("http://localhost:4000");
    expect(loadConfig({ PORT: "4000", PUBLIC_URL: "" }).PUBLIC_URL).toBe("http://localhost:4000");
  });

  it("keeps a configured origin, without a trailing slash", () => {
    expect(loadConfig({ PORT: "4000", PUBLIC_URL: "https://salon.example.jp/" }).PUBLIC_URL).toBe(
      "https://salon.example.jp",
    );
    expect(() => loadConfig({ PUBLIC_URL: "ftp://salon.example.jp" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "salon.example.jp" })).toThrow(/PUBLIC_URL/);
  });
});

describe("an https PUBLIC_URL in production", () => {
  const production = { NODE_ENV: "production", BETTER_AUTH_SECRET: secret };

  it("refuses to start without a trusted proxy to tell the visitor's scheme, saying what to set", () => {
    const start = () => loadConfig({ ...production, PUBLIC_URL: "https://salon.example.jp" });
    expect(start).toThrow(/TRUST_PROXY/);
    expect(start).toThrow(/TLS を終端するプロキシを TRUST_PROXY に設定してください/);
    expect(() =>
      loadConfig({ ...production, PUBLIC_URL: "https://salon.example.jp", TRUST_PROXY: "0" }),
    ).toThrow(/TRUST_PROXY/);
  });

  it("starts behind a trusted proxy, and with an http PUBLIC_URL or outside production as before", () => {
    const hosted = { ...production, PUBLIC_URL: "https://salon.example.jp" };
    expect(loadConfig({ ...hosted, TRUST_PROXY: "1" }).PUBLIC_URL).toBe("https://salon.example.jp");
    expect(loadConfig({ ...hosted, TRUST_PROXY: "10.0.0.0/8" }).isProduction).toBe(true);
    // The quick start and the end-to-end suite: plain http on this machine.
    expect(loadConfig({ ...production, PUBLIC_URL: "http://localhost:3000" }).isProduction).toBe(
      true,
    );
    expect(loadConfig({ PUBLIC_URL: "https://salon.example.jp" }).isProduction).toBe(false);
  });
});

describe("Stripe settings", () => {
  it("takes the secret key and the webhook secret together, or neither", () => {
    expect(loadConfig({}).STRIPE_SECRET_KEY).toBeUndefined();
    const both = loadConfig({
      STRIPE_SECRET_KEY: "sk_test_abc123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
    });
    expect(both.STRIPE_SECRET_KEY).toBe("sk_test_abc123");
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_abc123" })).toThrow(/together/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: "whsec_abc" })).toThrow(/together/);
    expect(() =>
      loadConfig({ STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" }),
    ).toThrow(/sk_test_/);
  });

  it("never sends a live key anywhere but Stripe", () => {
    const live = { STRIPE_SECRET_KEY: "sk_live_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc" };
    expect(() => loadConfig({ ...live, STRIPE_API_URL: "http://127.0.0.1:12111" })).toThrow(
      /STRIPE_API_URL/,
    );
    expect(loadConfig({ ...live, STRIPE_API_URL: "" }).STRIPE_API_URL).toBeUndefined();
  });

  it("takes LINE's channel secret and access token together, or neither, and a monthly quota of 5000", () => {
    const none = loadConfig({});
    expect(none.LINE_CHANNEL_ACCESS_TOKEN).toBeUndefined();
    expect(none.LINE_MONTHLY_QUOTA).toBe(5000);
    const both = loadConfig({
      LINE_CHANNEL_SECRET: "secret",
      LINE_CHANNEL_ACCESS_TOKEN: "token",
      LINE_MONTHLY_QUOTA: "200",
    });
    expect(both.LINE_MONTHLY_QUOTA).toBe(200);
    expect(() => loadConfig({ LINE_CHANNEL_SECRET: "secret" })).toThrow(/together/);
    expect(() => loadConfig({ LINE_CHANNEL_ACCESS_TOKEN: "token" })).toThrow(/together/);
    expect(() => loadConfig({ LINE_MONTHLY_QUOTA: "-1" })).toThrow(/LINE_MONTHLY_QUOTA/);
  });
});
