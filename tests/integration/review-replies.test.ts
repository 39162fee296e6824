import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_REPLY_MAX } from "../../common/reviews";
import { bookingMenus, jobs, reviews, salonMembers, salonOwners } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { replyToReview } from "../../server/reviews/review-replies.server";
import { reviewReplyJobHandlers } from "../../server/reviews/review-reply-jobs.server";
import { browser, ORIGIN, outboxFor, testLogin } from "../support/accounts";
import { buildMenu, buildReview, buildSalonWithStaff, buildUser } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { checkCall } from "../support/openapi-contract";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * The salon's replies (issue 30, point 2; decision 0056): the owner or a
 * manager answers each review once through /owner/salons/{id}/reviews or
 * PUT /api/owner/salons/{id}/reviews/{reviewId}/reply, later saves edit the
 * same reply; a stale version is a 409, another salon's review a 404,
 * reception and stylists get the 404 screen; hostile input a Japanese 4xx;
 * the reply's text is shown as text, never as markup or a link.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;
type Browser = ReturnType<typeof browser>;
let owner: Browser;
let ownerId = "";
let salonId = "";
let otherSalonId = "";
let stylistId = "";
const who = {} as Record<"manager" | "reception" | "stylist", Browser>;

const signedIn = (role: "user" | "owner" | "admin") => testLogin(full.app, database.db, role);

const page = (id = salonId) => `/owner/salons/${id}/reviews`;
const post = (b: Browser, fields: Record<string, string>, path = page()) =>
  b.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

/** A JSON call with the browser's session, checked against /api/openapi.json. */
async function api(b: Browser, path: string, method = "GET", json?: unknown) {
  const raw =
    json === undefined ? undefined : typeof json === "string" ? json : JSON.stringify(json);
  const response = await b.request(path, {
    method,
    headers: { "content-type": "application/json" },
    body: raw,
  });
  const contentType = response.headers.get("content-type");
  const answer = contentType?.startsWith("application/json")
    ? await response.clone().json()
    : undefined;
  await checkCall(full.app, ORIGIN, {
    method,
    url: new URL(`${ORIGIN}${path}`),
    body: typeof json === "string" ? undefined : json,
    status: response.status,
    contentType,
    answer,
  });
  return { status: response.status, body: answer as { data?: never; error?: never } };
}

async function reviewRow(id: string) {
  const [row] = await database.db.select().from(reviews).where(eq(reviews.id, id));
  if (!row) throw new Error("no review");
  return row;
}

beforeAll(async () => {
  full = await createFullApp(database, env);
  const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
  salonId = built.salon.id;
  stylistId = built.stylists[0]?.id ?? "";
  otherSalonId = (await buildSalonWithStaff(database.db)).salon.id;
  const signed = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId, userId: signed.userId });
  owner = signed.b;
  ownerId = signed.userId;
  for (const role of ["manager", "reception", "stylist"] as const) {
    const person = await signedIn("user");
    await database.db.insert(salonMembers).values({
      salonId,
      userId: person.userId,
      role,
      staffId: role === "stylist" ? stylistId : null,
    });
    who[role] = person.b;
  }
}, 120_000);

afterAll(async () => {
  await full?.close();
});

describe("the salon's reply", () => {
  it("lists the review with its visit, replies once, then edits the same reply", async () => {
    const review = await buildReview(database.db, salonId, {
      staffId: stylistId,
      title: "仕上がりに満足",
      body: "カットがとても上手で、仕上がりに満足しています。",
      ratingTechnique: 5,
    });
    const menu = await buildMenu(database.db, salonId, { name: "カット＋トリートメント" });
    await database.db.insert(bookingMenus).values({
      salonId,
      bookingId: review.bookingId,
      position: 0,
      menuId: menu.id,
      name: menu.name,
      price: menu.price,
      durationMinutes: menu.durationMinutes,
    });

    const list = await owner.request(page());
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("仕上がりに満足");
    expect(html).toContain("来店済み");
    expect(html).toContain("カット＋トリートメント");
    expect(html).toContain("返信する");
    expect(html).toMatch(/未返信のみ（(<!-- -->)?1(<!-- -->)?件）/);

    const first = await post(owner, {
      reviewId: review.id,
      body: "  ご来店ありがとうございました。\r\nまたのお越しをお待ちしております。  ",
      version: String(review.version),
    });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(
      `${page()}?done=replied&answered=${review.id}#review-${review.id}`,
    );
    const replied = await reviewRow(review.id);
    expect(replied).toMatchObject({
      replyBody: "ご来店ありがとうございました。\nまたのお越しをお待ちしております。",
      replyBy: ownerId,
      replyUpdatedAt: null,
      version: review.version + 1,
    });
    expect(replied.repliedAt).not.toBeNull();

    const after = await (
      await owner.request(`${page()}?done=replied&answered=${review.id}`)
    ).text();
    expect(after).toContain("サロンからの返信");
    // The notice is in the answered review's card, after its heading.
    const card = after.slice(after.indexOf(`id="review-${review.id}"`));
    expect(card.indexOf("返信を公開しました")).toBeGreaterThan(0);
    expect(card.indexOf("返信を公開しました")).toBeLessThan(card.indexOf("</article>"));
    expect(after).toContain("返信を更新する");
    expect(after).toMatch(/未返信のみ（(<!-- -->)?0(<!-- -->)?件）/);

    const edit = await post(owner, {
      reviewId: review.id,
      body: "ご来店ありがとうございました。次回はカラーもぜひ。",
      version: String(replied.version),
    });
    expect(edit.status).toBe(302);
    expect(edit.headers.get("location")).toBe(
      `${page()}?done=updated&answered=${review.id}#review-${review.id}`,
    );
    const edited = await reviewRow(review.id);
    expect(edited.replyBody).toBe("ご来店ありがとうございました。次回はカラーもぜひ。");
    expect(edited.repliedAt).toEqual(replied.repliedAt);
    expect(edited.replyUpdatedAt).not.toBeNull();
    expect(edited.version).toBe(replied.version + 1);
  });

  it("refuses a stale version with 409 and keeps what was typed", async () => {
    const review = await buildReview(database.db, salonId, { body: "雰囲気のよいサロンでした。" });
    const response = await post(owner, {
      reviewId: review.id,
      body: "古い画面から送った返信です",
      version: String(review.version + 5),
    });
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain("ほかの人がこの口コミか返信を変更しました");
    expect(html).toContain("古い画面から送った返信です");
    expect((await reviewRow(review.id)).replyBody).toBeNull();
  });

  it("answers 404 for another salon's review, on the page and in the API", async () => {
    const foreign = await buildReview(database.db, otherSalonId, {
      body: "別のサロンの口コミです。",
    });
    const form = await post(owner, { reviewId: foreign.id, body: "返信", version: "0" });
    expect(form.status).toBe(404);
    const json = await api(
      owner,
      `/api/owner/salons/${salonId}/reviews/${foreign.id}/reply`,
      "PUT",
      { body: "返信", version: 0 },
    );
    expect(json.status).toBe(404);
    // Nor can the owner open the other salon's list.
    expect((await owner.request(page(otherSalonId))).status).toBe(404);
    expect((await reviewRow(foreign.id)).replyBody).toBeNull();
  });

  it("refuses a review an administrator hid", async () => {
    const review = await buildReview(database.db, salonId, {
      body: "非表示にされた口コミです。",
      hiddenAt: new Date("2026-11-01T00:00:00Z"),
      hiddenNote: "個人情報",
    });
    const listed = await (await owner.request(page())).text();
    expect(listed).toContain("非表示");
    const response = await post(owner, { reviewId: review.id, body: "返信", version: "0" });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("非表示");
  });

  it("lets a manager reply; reception and stylists get the 404 screen and JSON 404", async () => {
    const review = await buildReview(database.db, salonId, {
      body: "マネージャーが返信する口コミ",
    });
    expect((await who.manager.request(page())).status).toBe(200);
    const managed = await api(
      who.manager,
      `/api/owner/salons/${salonId}/reviews/${review.id}/reply`,
      "PUT",
      { body: "マネージャーからの返信です。", version: review.version },
    );
    expect(managed.status).toBe(200);
    expect(managed.body.data).toMatchObject({
      id: review.id,
      reply: { body: "マネージャーからの返信です。", updatedAt: null },
      version: review.version + 1,
    });
    for (const role of ["reception", "stylist"] as const) {
      expect((await who[role].request(page())).status).toBe(404);
      const refused = await post(who[role], { reviewId: review.id, body: "x", version: "1" });
      expect(refused.status).toBe(404);
      expect((await api(who[role], `/api/owner/salons/${salonId}/reviews`)).status).toBe(404);
      const put = await api(
        who[role],
        `/api/owner/salons/${salonId}/reviews/${review.id}/reply`,
        "PUT",
        { body: "受付からの返信", version: review.version + 1 },
      );
      expect(put.status).toBe(404);
    }
    expect((await reviewRow(review.id)).replyBody).toBe("マネージャーからの返信です。");
    const guest = browser(full.app);
    expect((await guest.request(page())).status).toBe(302);
    expect((await api(guest, `/api/owner/salons/${salonId}/reviews`)).status).toBe(401);
  });
});

describe("client navigation (React Router's .data requests)", () => {
  it("sends a reply posted by a fetcher, and a page past the last, to the page, not the .data URL", async () => {
    const review = await buildReview(database.db, salonId, {
      body: "フェッチャーから返信される口コミ",
    });
    const posted = await post(
      owner,
      { reviewId: review.id, body: "ありがとうございました。", version: String(review.version) },
      `${page()}.data?filter=unanswered`,
    );
    const target = posted.headers.get("x-remix-redirect") ?? (await posted.text());
    expect(target).toContain(`${page()}?filter=unanswered&done=replied`);
    expect(target).not.toContain(".data");
    expect((await reviewRow(review.id)).replyBody).toBe("ありがとうございました。");

    const past = await owner.request(
      `${page()}.data?filter=unanswered&page=99&_routes=routes%2Fowner.salons.%24id.reviews`,
    );
    const pastTarget = past.headers.get("x-remix-redirect") ?? (await past.text());
    expect(pastTarget).toContain(`${page()}?filter=unanswered`);
    expect(pastTarget).not.toContain(".data");
    expect(pastTarget).not.toContain("_routes");
  });
});

describe("the reviewer's notice", () => {
  it("mails the reviewer once, on the first reply, through the job queue; an edit sends nothing", async () => {
    const reviewer = await buildUser(database.db);
    const review = await buildReview(database.db, salonId, {
      userId: reviewer.id,
      title: "また行きたい",
      body: "スタッフの方がとても親切でした。",
    });
    const runJobs = () =>
      createJobWorker({
        db: database.db,
        handlers: reviewReplyJobHandlers({
          mailFrom: "Salon Navi <no-reply@example.jp>",
          publicUrl: ORIGIN,
        }),
        log: createLogger("silent"),
      }).runOnce();
    const first = await post(owner, {
      reviewId: review.id,
      body: "ありがとうございます。<b>https://salon.example/</b>",
      version: String(review.version),
    });
    expect(first.status).toBe(302);
    // Nothing is sent by the request itself: the job sends it.
    expect(await outboxFor(database.db, reviewer.email)).toHaveLength(0);
    await runJobs();
    const mails = await outboxFor(database.db, reviewer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain("サロンから返信がありました");
    expect(mails[0]?.text).toContain("ありがとうございます。<b>https://salon.example/</b>");
    expect(mails[0]?.html).toContain("&#60;b&#62;");
    expect(mails[0]?.html).not.toContain("<b>");
    expect(mails[0]?.html).not.toContain('href="https://salon.example/');

    const edit = await post(owner, {
      reviewId: review.id,
      body: "ありがとうございます。またお待ちしています。",
      version: String(review.version + 1),
    });
    expect(edit.status).toBe(302);
    await runJobs();
    expect(await outboxFor(database.db, reviewer.email)).toHaveLength(1);
  });
});

describe("hostile input", () => {
  it("answers a Japanese 400 for empty, too long and malformed replies, never 5xx", async () => {
    const review = await buildReview(database.db, salonId, {
      body: "入力チェック用の口コミです。",
    });
    const cases: [Record<string, string>, string][] = [
      [{ reviewId: review.id, body: " \r\n　 ", version: "0" }, "返信を入力してください"],
      [
        { reviewId: review.id, body: "あ".repeat(REVIEW_REPLY_MAX + 1), version: "0" },
        `${REVIEW_REPLY_MAX}文字以内`,
      ],
      [{ reviewId: "not-a-uuid", body: "返信", version: "0" }, "口コミの指定が正しくありません"],
      [{ reviewId: review.id, body: "返信", version: "abc" }, "画面を読み込み直して"],
      [{ body: "返信" }, "口コミの指定が正しくありません"],
    ];
    for (const [fields, message] of cases) {
      const response = await post(owner, fields);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(await response.text()).toContain(message);
    }
    // Exactly the limit, counted in characters (an emoji is one), is accepted.
    const atLimit = `${"😀".repeat(10)}${"あ".repeat(REVIEW_REPLY_MAX - 10)}`;
    const ok = await post(owner, { reviewId: review.id, body: atLimit, version: "0" });
    expect(ok.status).toBe(302);

    const path = `/api/owner/salons/${salonId}/reviews/${review.id}/reply`;
    const bodies: unknown[] = [
      { body: "", version: 1 },
      { body: 12, version: 1 },
      { body: "返信", version: "x" },
      { body: ["返信"], version: 1 },
      [],
      "{not json",
    ];
    for (const body of bodies) {
      const answer = await api(owner, path, "PUT", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body.error as unknown as { message: string }).message).toMatch(
        /[\u3040-\u30ff\u4e00-\u9fff]/,
      );
    }
    expect(
      (
        await api(owner, `/api/owner/salons/${salonId}/reviews/nope/reply`, "PUT", {
          body: "a",
          version: 1,
        })
      ).status,
    ).toBe(400);
    expect((await api(owner, `/api/owner/salons/${salonId}/reviews?filter=bogus`)).status).toBe(
      400,
    );
    expect((await api(owner, `/api/owner/salons/${salonId}/reviews?page=-1`)).status).toBe(400);
    // The page falls back to the first page of every review.
    expect((await owner.request(`${page()}?filter=%3Cx%3E&page=abc`)).status).toBe(200);
    // A page past the last goes to the last.
    const past = await owner.request(`${page()}?filter=unanswered&page=99`);
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toMatch(
      new RegExp(`^${page()}\\?filter=unanswered(&page=\\d+)?$`),
    );
  });

  it("shows the reply and the review as text: no markup, no links", async () => {
    const review = await buildReview(database.db, salonId, {
      body: "<img src=x onerror=alert(1)> https://spam.example/a",
    });
    const hostile = '<script>alert("x")</script> 詳しくは https://evil.example/ へ';
    const response = await post(owner, {
      reviewId: review.id,
      body: hostile,
      version: String(review.version),
    });
    expect(response.status).toBe(302);
    const html = await (await owner.request(page())).text();
    expect(html).toContain("&lt;script&gt;alert(");
    expect(html).not.toContain('<script>alert("x")');
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toMatch(/<a[^>]+href="https:\/\/(evil|spam)\.example/);
  });
});

describe("GET /api/owner/salons/{id}/reviews", () => {
  it("lists newest first with the unanswered count and filter, documented", async () => {
    const all = await api(owner, `/api/owner/salons/${salonId}/reviews`);
    expect(all.status).toBe(200);
    const data = all.body.data as unknown as {
      reviews: { id: string; reply: unknown; hidden: boolean; visited: boolean }[];
      total: number;
      allCount: number;
      unansweredCount: number;
    };
    expect(data.allCount).toBe(data.total);
    expect(data.reviews.every((review) => review.visited)).toBe(true);
    const unanswered = await api(owner, `/api/owner/salons/${salonId}/reviews?filter=unanswered`);
    const filtered = unanswered.body.data as unknown as typeof data;
    expect(filtered.total).toBe(data.unansweredCount);
    expect(filtered.reviews.every((review) => review.reply === null && !review.hidden)).toBe(true);
    expect(filtered.reviews.length).toBeGreaterThan(0);
  });
});

// Races: PostgreSQL only (PGlite runs one transaction at a time, transactionsTakeTurns).
describe("two answers at the same moment", () => {
  it.skipIf(transactionsTakeTurns)(
    "saves exactly one of two first replies on the same version and enqueues one notice",
    async () => {
      const reviewer = await buildUser(database.db);
      const review = await buildReview(database.db, salonId, {
        userId: reviewer.id,
        body: "同時に返信される口コミです。",
      });
      const now = new Date();
      const attempt = (body: string) =>
        replyToReview(database.db, {
          salonId,
          reviewId: review.id,
          body,
          version: review.version,
          actor: { id: ownerId },
          now,
        });
      const outcomes = await Promise.allSettled([attempt("返信A"), attempt("返信B")]);
      const saved = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === "rejected" ? [outcome.reason as { status?: number }] : [],
      );
      expect(saved).toHaveLength(1);
      expect(refused.map((error) => error.status)).toEqual([409]);
      const row = await reviewRow(review.id);
      expect(row.version).toBe(review.version + 1);
      expect(["返信A", "返信B"]).toContain(row.replyBody);
      const notices = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `review-reply:${review.id}`));
      expect(notices).toHaveLength(1);
    },
  );
});
