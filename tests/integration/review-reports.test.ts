import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { ReviewReportForm } from "../../app/components/reviews/review-report-form";
import * as reportPage from "../../app/routes/reviews.$reviewId.report";
import { databaseRateLimitStore, type RateLimits } from "../../server/accounts/rate-limit";
import type { Database } from "../../server/db/client";
import { reviewReports, reviews } from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import { withDomainErrors } from "../../server/http/errors";
import { reviewReportSchema } from "../../server/reviews/review.schema";
import { reportReview } from "../../server/reviews/reviews.server";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildReview, buildSalon, buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const NOW = new Date("2026-11-20T12:00:00+09:00");

let ipCounter = 0;
const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

function limits(db: Database, max = 100_000): RateLimits {
  return { store: databaseRateLimitStore(db), window: 60, perIp: max, perAccount: max };
}

async function report(
  userId: string,
  reviewId: string,
  fields: Record<string, unknown> = { reason: "spam" },
  options: { limits?: RateLimits; ip?: string } = {},
) {
  return reportReview(database.db, {
    userId,
    reviewId,
    report: reviewReportSchema.parse(fields),
    now: NOW,
    limits: options.limits ?? limits(database.db),
    ip: options.ip ?? nextIp(),
  });
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${error}`);
  return { status: error.status, code: error.code, message: error.message };
}

async function shownReview() {
  const salon = await buildSalon(database.db);
  const author = await buildUser(database.db);
  const review = await buildReview(database.db, salon.id, { userId: author.id });
  return { salon, author, review };
}

describe("reporting a review", () => {
  it("stores one report per person, with the reason and the note", async () => {
    const { review } = await shownReview();
    const reader = await buildUser(database.db);
    const created = await report(reader.id, review.id, {
      reason: "personal_info",
      note: "  電話番号が書かれています。\r\n確認してください。 ",
    });
    expect(created).toMatchObject({
      reviewId: review.id,
      userId: reader.id,
      reason: "personal_info",
      note: "電話番号が書かれています。\n確認してください。",
      resolvedAt: null,
    });
    expect(await refusal(report(reader.id, review.id))).toEqual({
      status: 409,
      code: "already_reported",
      message: "この口コミはすでに通報済みです。",
    });
    // Someone else may report it too.
    const other = await buildUser(database.db);
    await report(other.id, review.id, { reason: "other" });
    const rows = await database.db
      .select()
      .from(reviewReports)
      .where(eq(reviewReports.reviewId, review.id));
    expect(rows).toHaveLength(2);
  });

  it.skipIf(transactionsTakeTurns)(
    "two reports by one person at the same moment: one stored, the other 409",
    async () => {
      const { review } = await shownReview();
      const reader = await buildUser(database.db);
      const other = await database.openAnother();
      try {
        const results = await Promise.allSettled([
          report(reader.id, review.id, { reason: "spam" }),
          reportReview(other.db, {
            userId: reader.id,
            reviewId: review.id,
            report: reviewReportSchema.parse({ reason: "other" }),
            now: NOW,
            limits: limits(other.db),
            ip: nextIp(),
          }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(rejected?.status === "rejected" && rejected.reason).toMatchObject({
          status: 409,
          code: "already_reported",
        });
        const rows = await database.db
          .select()
          .from(reviewReports)
          .where(eq(reviewReports.reviewId, review.id));
        expect(rows).toHaveLength(1);
      } finally {
        await other.close();
      }
    },
  );

  it("refuses one's own review, and a hidden or missing review is not found", async () => {
    const { review, author } = await shownReview();
    expect(await refusal(report(author.id, review.id))).toMatchObject({
      status: 422,
      message: "ご自身の口コミは通報できません。",
    });
    const reader = await buildUser(database.db);
    await database.db.update(reviews).set({ hiddenAt: NOW }).where(eq(reviews.id, review.id));
    expect(await refusal(report(reader.id, review.id))).toMatchObject({
      status: 404,
      message: "口コミが見つかりません。",
    });
    expect((await refusal(report(reader.id, "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21"))).status).toBe(
      404,
    );
    expect((await refusal(report(reader.id, "<script>"))).status).toBe(404);
  });

  it("takes only the listed reasons and a note of at most 500 characters", () => {
    const messages = (fields: Record<string, unknown>) => {
      const result = reviewReportSchema.safeParse(fields);
      return result.success ? [] : result.error.issues.map((issue) => issue.message);
    };
    expect(messages({ reason: "spam" })).toEqual([]);
    expect(messages({ reason: "spam", note: "あ".repeat(500) })).toEqual([]);
    expect(messages({ reason: "spam", note: "あ".repeat(501) })).toEqual([
      "補足は500文字以内で入力してください。",
    ]);
    for (const reason of ["", "SPAM", "hate", 1, null, undefined, ["spam"]]) {
      expect(messages({ reason })[0]).toMatch(/^通報の理由を選んでください/);
    }
  });

  it("is rate-limited per account and per address: 429 in Japanese", async () => {
    const strict = limits(database.db, 2);
    const reader = await buildUser(database.db);
    const ip = nextIp();
    for (let i = 0; i < 2; i++) {
      const { review } = await shownReview();
      await report(reader.id, review.id, { reason: "spam" }, { limits: strict, ip });
    }
    const { review } = await shownReview();
    const refused = await refusal(
      report(reader.id, review.id, { reason: "spam" }, { limits: strict, ip: nextIp() }),
    );
    expect(refused).toMatchObject({ status: 429, code: "too_many_requests" });
    expect(refused.message).toMatch(/秒ほど待ってから/);
    // The refused attempt stored nothing.
    expect(
      await database.db.select().from(reviewReports).where(eq(reviewReports.reviewId, review.id)),
    ).toEqual([]);
  });
});

/** A route module as server/app.ts serves it: thrown DomainErrors become their status. */
function asServed<M extends object>(module: M): M {
  const build = withDomainErrors({ routes: { page: { module } } } as unknown as ServerBuild);
  return build.routes.page?.module as unknown as M;
}

describe("the page at /reviews/:reviewId/report", () => {
  let env: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    env = createRouteApp(database, [
      { path: "/reviews/:reviewId/report", module: asServed(reportPage) },
    ]);
  });

  it("quotes the review, takes the report and thanks after a redirect", async () => {
    const { review, salon } = await shownReview();
    const member = await signedInMember(database, env);
    const page = await member.b.request(`/reviews/${review.id}/report`);
    expect(page.status).toBe(200);
    expect((await page.json()).loaderData).toMatchObject({
      review: {
        id: review.id,
        body: review.body,
        salon: { slug: salon.slug },
        own: false,
        alreadyReported: false,
      },
      sent: false,
    });
    const sent = await member.b.request(
      `/reviews/${review.id}/report`,
      postForm({ reason: "inappropriate", note: "" }),
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/reviews/${review.id}/report?sent=1`);
    const after = await (await member.b.request(`/reviews/${review.id}/report?sent=1`)).json();
    expect(after.loaderData).toMatchObject({ sent: true, review: { alreadyReported: true } });

    const twice = await member.b.request(
      `/reviews/${review.id}/report`,
      postForm({ reason: "spam", note: "もう一度" }),
    );
    expect(twice.status).toBe(409);
    expect((await twice.json()).actionData).toMatchObject({
      errors: { form: "この口コミはすでに通報済みです。" },
      values: { reason: "spam", note: "もう一度" },
    });
  });

  it("keeps the typed note on a missing reason; hidden reviews 404; guests sign in first", async () => {
    const { review } = await shownReview();
    const member = await signedInMember(database, env);
    const refused = await member.b.request(
      `/reviews/${review.id}/report`,
      postForm({ note: "<b>理由なし</b>" }),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).actionData).toMatchObject({
      errors: { reason: expect.stringMatching(/^通報の理由を選んでください/) },
      values: { reason: "", note: "<b>理由なし</b>" },
    });

    await database.db.update(reviews).set({ hiddenAt: NOW }).where(eq(reviews.id, review.id));
    expect((await member.b.request(`/reviews/${review.id}/report`)).status).toBe(404);
    expect((await member.b.request("/reviews/nope/report")).status).toBe(404);

    const guest = await env.app.request(`http://localhost:3000/reviews/${review.id}/report`);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toMatch(/^\/signin\?redirect=/);
  });
});

describe("POST /api/reviews/{reviewId}/reports", () => {
  let api: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    api = createApiTestApp(database, { now: () => NOW });
    return () => api.close();
  });

  it("takes one report per person, as the OpenAPI document says", async () => {
    const { review } = await shownReview();
    const user = await apiUser(api.app);
    const path = `/api/reviews/${review.id}/reports`;
    const created = await user.request(path, {
      method: "POST",
      json: { reason: "not_a_visit", note: "来店していない内容に読めます。" },
    });
    expect(created.status).toBe(201);
    expect((await created.json()).data).toMatchObject({
      reviewId: review.id,
      reason: "not_a_visit",
      note: "来店していない内容に読めます。",
    });
    const again = await user.request(path, { method: "POST", json: { reason: "spam" } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: { code: "already_reported", message: "この口コミはすでに通報済みです。" },
    });
  });

  it("answers 401 to guests, 404 for a hidden review, 4xx in Japanese for hostile input", async () => {
    const { review } = await shownReview();
    const path = `/api/reviews/${review.id}/reports`;
    expect(
      (await apiClient(api.app).request(path, { method: "POST", json: { reason: "spam" } })).status,
    ).toBe(401);
    const user = await apiUser(api.app);
    for (const json of [
      { reason: "hate" },
      { reason: 3 },
      { reason: "spam", note: 5 },
      "spam",
      {},
    ]) {
      const response = await user.request(path, { method: "POST", json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect((await response.json()).error.message).toMatch(/通報の理由|補足|JSON オブジェクト/);
    }
    const long = await user.request(path, {
      method: "POST",
      json: { reason: "spam", note: "あ".repeat(501) },
    });
    expect(long.status).toBe(400);
    expect((await long.json()).error.message).toMatch(/500文字以内/);
    expect(
      (
        await user.request("/api/reviews/nope/reports", {
          method: "POST",
          json: { reason: "spam" },
        })
      ).status,
    ).toBe(400);

    await database.db.update(reviews).set({ hiddenAt: NOW }).where(eq(reviews.id, review.id));
    const hidden = await user.request(path, { method: "POST", json: { reason: "spam" } });
    expect(hidden.status).toBe(404);
  });
});

const hostile = '<script>alert("x")</script> https://example.com/';

function QuotedHostileReview() {
  return createElement(ReviewReportForm, {
    review: {
      id: "5d1e0c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
      rating: 2,
      title: "<b>題</b>",
      body: hostile,
      authorLabel: "30代前半・女性",
      visitedOn: "2026-11-01",
      salon: { name: "Hair <i>X</i>", slug: "hair-x" },
      own: false,
      alreadyReported: false,
    },
    sent: false,
    busy: false,
  });
}

describe("rendering", () => {
  it("shows a quoted review's HTML as text and links no URL", () => {
    const Stub = createRoutesStub([{ path: "/", Component: QuotedHostileReview }]);
    const html = renderToString(createElement(Stub)).replaceAll("<!-- -->", "");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; https://example.com/",
    );
    expect(html).toContain("&lt;b&gt;題&lt;/b&gt;");
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain('href="https://example.com/"');
    expect(html).toContain("30代前半・女性・2026年11月1日(日)来店");
  });
});
