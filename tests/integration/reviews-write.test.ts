import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { ReviewWriteForm } from "../../app/components/reviews/review-write-form";
import * as reviewPage from "../../app/routes/account.reviews.$bookingId";
import { databaseRateLimitStore, type RateLimits } from "../../server/accounts/rate-limit";
import { historyDetail, historyList } from "../../server/bookings/pages/history-page.server";
import type { Database } from "../../server/db/client";
import { accountProfiles, bookingMenus, reviews, salons } from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import { withDomainErrors } from "../../server/http/errors";
import { reviewInputSchema } from "../../server/reviews/review.schema";
import { authorLabelOf, eligibility, saveReview } from "../../server/reviews/reviews.server";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildReview, buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** A route module as server/app.ts serves it: thrown DomainErrors become their status. */
function asServed<M extends object>(module: M): M {
  const build = withDomainErrors({ routes: { page: { module } } } as unknown as ServerBuild);
  return build.routes.page?.module as unknown as M;
}

/** The visit: Sunday 1 November 2026, 14:00–15:00 in Tokyo. */
const VISIT = new Date("2026-11-01T14:00:00+09:00");
/** The next morning. */
const NOW = new Date("2026-11-02T10:00:00+09:00");
const DAY = 86_400_000;

let ipCounter = 0;
const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

function limits(db: Database, max = 100_000): RateLimits {
  return { store: databaseRateLimitStore(db), window: 60, perIp: max, perAccount: max };
}

/** A customer's booking at a fresh salon, completed unless told otherwise, with one menu. */
async function visit(
  options: {
    status?: "completed" | "confirmed" | "cancelled_by_user";
    startsAt?: Date;
    userId?: string;
  } = {},
) {
  const { db } = database;
  const { salon, stylists, menu } = await buildSalonWithStaff(db);
  const customer = options.userId ? { id: options.userId } : await buildUser(db);
  const startsAt = options.startsAt ?? VISIT;
  const booking = await buildBooking(db, {
    salonId: salon.id,
    staffId: stylists[0]?.id ?? "",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 3_600_000),
    status: options.status ?? "completed",
    userId: customer.id,
  });
  await db.insert(bookingMenus).values({
    salonId: salon.id,
    bookingId: booking.id,
    position: 0,
    menuId: menu.id,
    name: menu.name,
    price: menu.price,
    durationMinutes: 60,
  });
  return { salon, stylist: stylists[0], customer, booking, menu };
}

const input = (fields: Record<string, unknown> = {}) =>
  reviewInputSchema.parse({ rating: 4, body: "カットがとても上手で満足しました。", ...fields });

async function save(
  userId: string,
  bookingId: string,
  fields: Record<string, unknown> = {},
  options: { now?: Date; limits?: RateLimits; ip?: string; db?: Database } = {},
) {
  const db = options.db ?? database.db;
  return saveReview(db, {
    userId,
    bookingId,
    input: input(fields),
    now: options.now ?? NOW,
    limits: options.limits ?? limits(db),
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

const salonRating = async (salonId: string) => {
  const [row] = await database.db
    .select({ average: salons.ratingAverage, count: salons.reviewCount })
    .from(salons)
    .where(eq(salons.id, salonId));
  return row;
};

describe("who may review a visit", () => {
  it("the customer of a completed visit writes one review, with the visit's stylist and date", async () => {
    const { customer, booking, stylist, salon } = await visit();
    const state = await eligibility(database.db, {
      userId: customer.id,
      bookingId: booking.id,
      now: NOW,
    });
    expect(state.action).toBe("write");
    expect(state.visit.menus).toHaveLength(1);

    const { review, created } = await save(customer.id, booking.id, {
      ratingTechnique: "5",
      title: "  また行きます ",
    });
    expect(created).toBe(true);
    expect(review).toMatchObject({
      salonId: salon.id,
      userId: customer.id,
      bookingId: booking.id,
      staffId: stylist?.id,
      visitedOn: "2026-11-01",
      rating: 4,
      ratingTechnique: 5,
      ratingAtmosphere: null,
      title: "また行きます",
      authorLabel: "お客様",
      version: 0,
    });
  });

  it("refuses a visit that is not completed, and someone else's booking is not found", async () => {
    const confirmed = await visit({ status: "confirmed" });
    expect(await refusal(save(confirmed.customer.id, confirmed.booking.id))).toMatchObject({
      status: 422,
      code: "review_not_completed",
    });
    const cancelled = await visit({ status: "cancelled_by_user" });
    expect((await refusal(save(cancelled.customer.id, cancelled.booking.id))).status).toBe(422);

    const mine = await visit();
    const stranger = await buildUser(database.db);
    expect(await refusal(save(stranger.id, mine.booking.id))).toMatchObject({
      status: 404,
      message: "ご予約が見つかりません。",
    });
    expect((await refusal(save(mine.customer.id, "not-a-uuid"))).status).toBe(404);
    expect(
      await database.db.select().from(reviews).where(eq(reviews.bookingId, mine.booking.id)),
    ).toEqual([]);
  });

  it("one review per booking: a second write is 409, an edit needs the version", async () => {
    const { customer, booking } = await visit();
    await save(customer.id, booking.id);
    expect(await refusal(save(customer.id, booking.id))).toMatchObject({
      status: 409,
      code: "review_exists",
    });
    const { review, created } = await save(customer.id, booking.id, {
      rating: 2,
      body: "仕上がりが思っていたのと違いました。",
      version: 0,
    });
    expect(created).toBe(false);
    expect(review).toMatchObject({ rating: 2, version: 1 });
    // The version the customer saw is gone: 409, nothing overwritten.
    expect(await refusal(save(customer.id, booking.id, { rating: 5, version: 0 }))).toMatchObject({
      status: 409,
      code: "review_changed",
    });
  });

  it("the write window closes at the end of the 30th day after the visit (salon's zone)", async () => {
    const { customer, booking } = await visit();
    const lastMoment = new Date("2026-12-01T23:59:59+09:00");
    const closed = new Date("2026-12-02T00:00:00+09:00");
    expect(
      (await eligibility(database.db, { userId: customer.id, bookingId: booking.id, now: closed }))
        .action,
    ).toBeNull();
    expect(await refusal(save(customer.id, booking.id, {}, { now: closed }))).toMatchObject({
      status: 422,
      code: "review_window_closed",
    });
    expect((await save(customer.id, booking.id, {}, { now: lastMoment })).created).toBe(true);
  });

  it("edits until 30 days after writing, then the review is read-only", async () => {
    const { customer, booking } = await visit();
    await save(customer.id, booking.id, {}, { now: NOW });
    const edited = await save(
      customer.id,
      booking.id,
      { rating: 5, version: 0 },
      { now: new Date(NOW.getTime() + 30 * DAY - 1000) },
    );
    expect(edited.review.rating).toBe(5);
    const late = new Date(NOW.getTime() + 30 * DAY);
    expect(
      (await eligibility(database.db, { userId: customer.id, bookingId: booking.id, now: late }))
        .action,
    ).toBe("written");
    expect(
      await refusal(save(customer.id, booking.id, { rating: 1, version: 1 }, { now: late })),
    ).toMatchObject({ status: 422, code: "review_edit_closed" });
  });

  it.skipIf(transactionsTakeTurns)(
    "two writes of one visit's review at the same moment: one review, the other 409",
    async () => {
      const { customer, booking } = await visit();
      const other = await database.openAnother();
      try {
        const results = await Promise.allSettled([
          save(customer.id, booking.id, { rating: 5 }),
          save(customer.id, booking.id, { rating: 1 }, { db: other.db }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(rejected?.status === "rejected" && rejected.reason).toMatchObject({
          status: 409,
          code: "review_exists",
        });
        const rows = await database.db
          .select()
          .from(reviews)
          .where(eq(reviews.bookingId, booking.id));
        expect(rows).toHaveLength(1);
      } finally {
        await other.close();
      }
    },
  );
});

describe("the author label", () => {
  it("reads the age band on the visit date and the gender, as the demo labels do", async () => {
    expect(authorLabelOf({ gender: "female", birthDate: "1994-11-02" }, "2026-11-01")).toBe(
      "30代前半・女性",
    );
    expect(authorLabelOf({ gender: "female", birthDate: "1994-11-01" }, "2026-11-01")).toBe(
      "30代前半・女性",
    );
    expect(authorLabelOf({ gender: "male", birthDate: "2001-11-02" }, "2026-11-01")).toBe(
      "20代前半・男性",
    );
    expect(authorLabelOf({ gender: "unspecified", birthDate: "1960-01-01" }, "2026-11-01")).toBe(
      "60代以上",
    );
    expect(authorLabelOf({ gender: "male", birthDate: null }, "2026-11-01")).toBe("男性");
    expect(authorLabelOf({ gender: "other", birthDate: null }, "2026-11-01")).toBe("お客様");
    expect(authorLabelOf(null, "2026-11-01")).toBe("お客様");
  });

  it("is written from the customer's profile", async () => {
    const { customer, booking } = await visit();
    await database.db.insert(accountProfiles).values({
      userId: customer.id,
      name: "口コミ 花子",
      nameKana: "クチコミ ハナコ",
      phone: "090-1111-2222",
      gender: "female",
      birthDate: "1998-05-05",
      completed: true,
    });
    const { review } = await save(customer.id, booking.id);
    expect(review.authorLabel).toBe("20代後半・女性");
  });
});

describe("the text and the ratings", () => {
  const issues = (fields: Record<string, unknown>) => {
    const result = reviewInputSchema.safeParse(fields);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it("counts the body in characters after trimming: 10 to 1,000", () => {
    expect(issues({ rating: 5, body: "   短すぎる口コミ   " })).toEqual([
      "口コミの本文は10文字以上で入力してください。",
    ]);
    expect(issues({ rating: 5, body: "あ".repeat(10) })).toEqual([]);
    expect(issues({ rating: 5, body: "あ".repeat(1000) })).toEqual([]);
    // Code points, as PostgreSQL counts: 1,000 emoji fit, 1,001 do not.
    expect(issues({ rating: 5, body: "💇".repeat(1000) })).toEqual([]);
    expect(issues({ rating: 5, body: "あ".repeat(1001) })).toEqual([
      "口コミの本文は1,000文字以内で入力してください。",
    ]);
    expect(issues({ rating: 5, body: "" })).toEqual(["口コミの本文を入力してください。"]);
    expect(issues({ rating: 5, title: "あ".repeat(51), body: "あ".repeat(10) })).toEqual([
      "タイトルは50文字以内で入力してください。",
    ]);
  });

  it("takes ratings 1–5 from a form or JSON, nothing else", () => {
    const body = "あ".repeat(10);
    expect(issues({ rating: "5", ratingFinish: "", body })).toEqual([]);
    for (const rating of [0, 6, 4.5, "4.5", true, "五", null, undefined, "", [5]]) {
      expect(issues({ rating, body })).toEqual(["総合評価を1〜5で選んでください。"]);
    }
    expect(issues({ rating: 5, ratingService: 9, body })).toEqual([
      "接客の評価は1〜5で選んでください。",
    ]);
    expect(issues({ rating: 5, body: 12345678901 })).toEqual(["口コミの本文を入力してください。"]);
  });

  it("stores HTML and URLs as the text typed", async () => {
    const { customer, booking } = await visit();
    const hostile = '<script>alert("x")</script> https://example.com/ <b>最高</b>';
    const { review } = await save(customer.id, booking.id, { body: hostile, title: "<img src=x>" });
    expect(review.body).toBe(hostile);
    expect(review.title).toBe("<img src=x>");
  });
});

describe("the derived rating", () => {
  it("moves in the same transaction as the write and the edit", async () => {
    const { customer, booking, salon } = await visit();
    await buildReview(database.db, salon.id, { rating: 5 });
    expect(await salonRating(salon.id)).toEqual({ average: 5, count: 1 });
    await save(customer.id, booking.id, { rating: 2 });
    expect(await salonRating(salon.id)).toEqual({ average: 3.5, count: 2 });
    await save(customer.id, booking.id, { rating: 4, version: 0 });
    expect(await salonRating(salon.id)).toEqual({ average: 4.5, count: 2 });
  });

  it("a write that fails leaves the average alone", async () => {
    const { customer, booking, salon } = await visit();
    await save(customer.id, booking.id, { rating: 3 });
    await refusal(save(customer.id, booking.id, { rating: 1, version: 7 }));
    expect(await salonRating(salon.id)).toEqual({ average: 3, count: 1 });
  });
});

describe("rate limits", () => {
  it("counts writes per account and per address: 429 in Japanese", async () => {
    const strict = limits(database.db, 2);
    const first = await visit();
    const ip = nextIp();
    await save(first.customer.id, first.booking.id, {}, { limits: strict, ip });
    await save(first.customer.id, first.booking.id, { version: 0 }, { limits: strict, ip });
    await save(first.customer.id, first.booking.id, { version: 1 }, { limits: strict, ip });
    // A third edit from the same account: over the limit, whatever the address.
    expect(
      await refusal(
        save(first.customer.id, first.booking.id, { version: 2 }, { limits: strict, ip: nextIp() }),
      ),
    ).toMatchObject({ status: 429, code: "too_many_requests" });
    const message = (
      await refusal(
        save(first.customer.id, first.booking.id, { version: 2 }, { limits: strict, ip }),
      )
    ).message;
    expect(message).toMatch(/秒ほど待ってから/);
  });
});

describe("the form at /account/reviews/:bookingId", () => {
  let env: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    env = createRouteApp(database, [
      { path: "/account/reviews/:bookingId", module: asServed(reviewPage) },
    ]);
  });
  /** The routes read the real clock: a visit two days ago. */
  const recent = () => new Date(Date.now() - 2 * DAY);

  it("shows the visit and the form, saves, and goes back to the history with a notice", async () => {
    const member = await signedInMember(database, env);
    const { booking, menu, salon } = await visit({ userId: member.userId, startsAt: recent() });
    const page = await member.b.request(`/account/reviews/${booking.id}`);
    expect(page.status).toBe(200);
    const { loaderData } = await page.json();
    expect(loaderData).toMatchObject({
      action: "write",
      salon: { name: salon.name },
      menus: [menu.name],
      staffName: "スタイリスト1",
      values: null,
    });

    const saved = await member.b.request(
      `/account/reviews/${booking.id}`,
      postForm({
        rating: "5",
        ratingFinish: "4",
        ratingService: "",
        title: "",
        body: "丁寧なカウンセリングでした。",
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/account/history?booking=${booking.id}&reviewed=1`);

    const again = await (await member.b.request(`/account/reviews/${booking.id}`)).json();
    expect(again.loaderData).toMatchObject({
      action: "edit",
      values: { rating: "5", ratingFinish: "4", ratingService: "", version: "0" },
    });
    const edited = await member.b.request(
      `/account/reviews/${booking.id}`,
      postForm({ rating: "3", body: "丁寧なカウンセリングでした。また伺います。", version: "0" }),
    );
    expect(edited.headers.get("location")).toBe(
      `/account/history?booking=${booking.id}&reviewed=edited`,
    );
  });

  it("keeps what was typed with Japanese messages on bad input, 4xx never 5xx", async () => {
    const member = await signedInMember(database, env);
    const { booking } = await visit({ userId: member.userId, startsAt: recent() });
    const typed = { rating: "9", title: "<b>題</b>", body: "短い" };
    const refused = await member.b.request(`/account/reviews/${booking.id}`, postForm(typed));
    expect(refused.status).toBe(400);
    const { actionData } = await refused.json();
    expect(actionData.errors).toEqual({
      rating: "総合評価を1〜5で選んでください。",
      body: "口コミの本文は10文字以上で入力してください。",
    });
    expect(actionData.values).toMatchObject(typed);

    const huge = await member.b.request(
      `/account/reviews/${booking.id}`,
      postForm({ rating: "4", body: "あ".repeat(20_000) }),
    );
    expect(huge.status).toBe(400);
    // A second write: the form again with the reason, as a 409.
    await member.b.request(
      `/account/reviews/${booking.id}`,
      postForm({ rating: "4", body: "とても良いサロンでした。" }),
    );
    const twice = await member.b.request(
      `/account/reviews/${booking.id}`,
      postForm({ rating: "4", body: "とても良いサロンでした。" }),
    );
    expect(twice.status).toBe(409);
    expect((await twice.json()).actionData.errors.form).toMatch(/すでに投稿されています/);
  });

  it("someone else's booking is 404 and a guest signs in first", async () => {
    const member = await signedInMember(database, env);
    const other = await visit({ startsAt: recent() });
    const page = await member.b.request(`/account/reviews/${other.booking.id}`);
    expect(page.status).toBe(404);
    const post = await member.b.request(
      `/account/reviews/${other.booking.id}`,
      postForm({ rating: "1", body: "他人の予約への口コミです。" }),
    );
    expect(post.status).toBe(404);
    expect((await member.b.request("/account/reviews/not-a-uuid")).status).toBe(404);

    const guest = await env.app.request(
      `http://localhost:3000/account/reviews/${other.booking.id}`,
    );
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toMatch(/^\/signin\?redirect=/);
  });

  it("a visit that is not completed gets a message instead of the form", async () => {
    const member = await signedInMember(database, env);
    const { booking } = await visit({
      userId: member.userId,
      startsAt: new Date(Date.now() + 2 * DAY),
      status: "confirmed",
    });
    const { loaderData } = await (await member.b.request(`/account/reviews/${booking.id}`)).json();
    expect(loaderData.action).toBeNull();
    expect(loaderData.closedMessage).toMatch(/施術が完了したご予約/);
  });
});

describe("PUT and GET /api/bookings/{id}/review", () => {
  let api: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    api = createApiTestApp(database, { now: () => NOW });
    return () => api.close();
  });

  it("writes, reads and edits the review of one's visit, as the OpenAPI document says", async () => {
    const user = await apiUser(api.app);
    const { booking, salon } = await visit({ userId: user.userId });
    const path = `/api/bookings/${booking.id}/review`;
    const none = await user.request(path);
    expect(none.status).toBe(404);
    expect((await none.json()).error.message).toBe("このご予約の口コミはまだありません。");

    const created = await user.request(path, {
      method: "PUT",
      json: {
        rating: 5,
        ratingService: 4,
        ratingFinish: null,
        body: "とても丁寧でした。また来ます。",
      },
    });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect(data).toMatchObject({
      bookingId: booking.id,
      salonId: salon.id,
      rating: 5,
      ratingService: 4,
      ratingFinish: null,
      title: "",
      visitedOn: "2026-11-01",
      hidden: false,
      reply: null,
      version: 0,
      editableUntil: "2026-12-02T01:00:00.000Z",
    });
    expect((await (await user.request(path)).json()).data.id).toBe(data.id);

    const edited = await user.request(path, {
      method: "PUT",
      json: { rating: 3, body: "とても丁寧でした。また来ます。", version: 0 },
    });
    expect(edited.status).toBe(200);
    expect((await edited.json()).data).toMatchObject({ rating: 3, version: 1 });
    expect(await salonRating(salon.id)).toEqual({ average: 3, count: 1 });

    const again = await user.request(path, {
      method: "PUT",
      json: { rating: 1, body: "別の内容で書き直します。" },
    });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("review_exists");
  });

  it("someone else's booking is 404, a guest 401", async () => {
    const user = await apiUser(api.app);
    const { booking } = await visit();
    const path = `/api/bookings/${booking.id}/review`;
    expect((await user.request(path)).status).toBe(404);
    const put = await user.request(path, {
      method: "PUT",
      json: { rating: 5, body: "他人の予約への口コミです。" },
    });
    expect(put.status).toBe(404);
    expect((await put.json()).error.message).toBe("ご予約が見つかりません。");
    const guest = apiClient(api.app);
    expect((await guest.request(path)).status).toBe(401);
  });

  it("hostile input is a 4xx with a Japanese message, never a 5xx", async () => {
    const user = await apiUser(api.app);
    const { booking } = await visit({ userId: user.userId });
    const path = `/api/bookings/${booking.id}/review`;
    const cases: [unknown, RegExp][] = [
      [{ rating: "5", body: "文字列の評価は受け付けません。" }, /総合評価（rating）は1〜5の整数/],
      [{ rating: 6, body: "範囲外の評価は受け付けません。" }, /総合評価（rating）は1〜5の整数/],
      [{ rating: 5, ratingTechnique: 2.5, body: "小数の評価は受け付けません。" }, /技術/],
      [{ rating: 5, body: 12345 }, /本文（body）は文字列/],
      [{ rating: 5, body: "短い" }, /10文字以上/],
      [{ rating: 5, body: "あ".repeat(1001) }, /1,000文字以内/],
      [{ rating: 5, title: "あ".repeat(51), body: "タイトルが長すぎます。" }, /50文字以内/],
      [{ rating: 5, body: "版が文字列です。", version: "0" }, /version/],
      [[1, 2, 3], /JSON オブジェクト/],
      [null, /JSON オブジェクト/],
    ];
    for (const [json, message] of cases) {
      const response = await user.request(path, { method: "PUT", json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("invalid_request");
      expect(error.message).toMatch(message);
    }
    const broken = await user.request(path, {
      method: "PUT",
      body: '{"rating": 5, "body": "閉じていない',
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.message).toMatch(/JSON/);
    const badId = await user.request("/api/bookings/%3Cscript%3E/review");
    expect(badId.status).toBe(400);
    // HTML is kept as text.
    const html = await user.request(path, {
      method: "PUT",
      json: { rating: 4, body: "<script>alert(1)</script> https://example.com" },
    });
    expect(html.status).toBe(201);
    expect((await html.json()).data.body).toBe("<script>alert(1)</script> https://example.com");
  });
});

describe("予約履歴's review links", () => {
  const pastItem = async (userId: string, bookingId: string, now: Date) => {
    const { past } = await historyList(database.db, userId, now);
    return past.find((item) => item.id === bookingId);
  };

  it("offers 口コミを書く, then 口コミを編集する, then 口コミ投稿済み; nothing once the window closed unwritten", async () => {
    const { customer, booking } = await visit();
    expect(await pastItem(customer.id, booking.id, NOW)).toMatchObject({
      review: "write",
      reviewHref: `/account/reviews/${booking.id}`,
    });
    await save(customer.id, booking.id);
    expect((await pastItem(customer.id, booking.id, NOW))?.review).toBe("edit");
    expect(
      (await pastItem(customer.id, booking.id, new Date(NOW.getTime() + 31 * DAY)))?.review,
    ).toBe("written");
    const detail = await historyDetail(database.db, customer.id, booking.id, NOW);
    expect(detail.booking.review).toBe("edit");

    const unwritten = await visit();
    const closed = new Date("2026-12-02T00:00:00+09:00");
    expect(await pastItem(unwritten.customer.id, unwritten.booking.id, closed)).toMatchObject({
      review: null,
      reviewHref: null,
    });
    const cancelled = await visit({ status: "cancelled_by_user" });
    expect((await pastItem(cancelled.customer.id, cancelled.booking.id, NOW))?.review).toBeNull();
  });
});

function HostileReviewForm() {
  return createElement(ReviewWriteForm, {
    busy: false,
    page: {
      bookingId: "0b7c1c7e-3f1e-4a53-9a4c-2f6a1e0f8d21",
      bookingNumber: "R-TEST",
      salon: { name: "Hair <i>X</i>", slug: "hair-x" },
      visitLabel: "2026年11月1日(日) 14:00〜15:00",
      staffName: "スタイリスト1",
      menus: ["カット"],
      action: "edit",
      closedMessage: null,
      writeUntilLabel: "2026年12月1日(火)",
      editUntilLabel: "2026年12月2日(水) 10:00",
      hidden: false,
      values: {
        rating: "4",
        ratingAtmosphere: "",
        ratingService: "5",
        ratingTechnique: "",
        ratingFinish: "",
        title: "<b>題</b>",
        body: '<script>alert("x")</script> https://example.com/',
        version: "3",
      },
    },
  });
}

describe("rendering the form", () => {
  it("fills an edit with the review as text, each rating a radio group with a legend", () => {
    const Stub = createRoutesStub([{ path: "/", Component: HostileReviewForm }]);
    const html = renderToString(createElement(Stub)).replaceAll("<!-- -->", "");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; https://example.com/",
    );
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain('href="https://example.com/"');
    expect(html.match(/<legend/g)).toHaveLength(5);
    expect(html).toMatch(/<input type="radio" id="rating-4"[^>]*checked=""/);
    expect(html).toMatch(/<input type="radio" id="ratingAtmosphere-0"[^>]*checked=""/);
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain("2026年12月2日(水) 10:00まで編集できます。");
  });
});

describe("the API's rate limit", () => {
  let strict: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    strict = createApiTestApp(database, { now: () => NOW, env: { RATE_LIMIT_PER_ACCOUNT: "2" } });
    return () => strict.close();
  });

  it("answers 429 in Japanese with Retry-After once an account edits too often", async () => {
    const user = await apiUser(strict.app);
    const { booking } = await visit({ userId: user.userId });
    const path = `/api/bookings/${booking.id}/review`;
    const body = "とても丁寧でした。また来ます。";
    expect((await user.request(path, { method: "PUT", json: { rating: 5, body } })).status).toBe(
      201,
    );
    for (const version of [0, 1]) {
      const edited = await user.request(path, {
        method: "PUT",
        json: { rating: 4, body, version },
      });
      expect(edited.status).toBe(200);
    }
    const limited = await user.request(path, {
      method: "PUT",
      json: { rating: 3, body, version: 2 },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const { error } = await limited.json();
    expect(error.code).toBe("too_many_requests");
    expect(error.message).toMatch(/秒ほど待ってから、もう一度お試しください。/);
  });
});
