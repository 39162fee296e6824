import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_HIDE_NOTE_MAX } from "../../common/reviews";
import { moderate } from "../../server/admin/review-moderation.server";
import { auditLog, reviewReports, reviews, salonOwners, salons } from "../../server/db/schema";
import { browser, ORIGIN, testLogin } from "../support/accounts";
import { buildReview, buildSalonWithStaff, buildUser } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * The administrator's moderation (issue 30, point 2; decision 0056):
 * reports put a review in the queue once; hiding takes it off the salon's
 * page and list and out of salons.rating_average / review_count as the
 * decision commits; restoring brings it back; 問題なし resolves the reports
 * and leaves it; each decision is audited with the admin and the note;
 * nobody but an administrator reaches any of it.
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
let admin: Browser;
let adminId = "";
let owner: Browser;
let member: Browser;
let salon: { id: string; slug: string };

const signedIn = (role: "user" | "owner" | "admin") => testLogin(full.app, database.db, role);

const decide = (b: Browser, fields: Record<string, string>, query = "") =>
  b.request(`/admin/reviews${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const json = (b: Browser, path: string, body?: unknown) =>
  b.request(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

async function report(reviewId: string, reason: "spam" | "personal_info", note = "") {
  const reporter = await buildUser(database.db);
  await database.db.insert(reviewReports).values({ reviewId, userId: reporter.id, reason, note });
}

async function derived() {
  const [row] = await database.db
    .select({ average: salons.ratingAverage, count: salons.reviewCount })
    .from(salons)
    .where(eq(salons.id, salon.id));
  return { average: Number(row?.average), count: row?.count };
}

async function reviewRow(id: string) {
  const [row] = await database.db.select().from(reviews).where(eq(reviews.id, id));
  if (!row) throw new Error("no review");
  return row;
}

async function audits(reviewId: string) {
  return database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, "review"), eq(auditLog.targetId, reviewId)))
    .orderBy(desc(auditLog.createdAt));
}

async function openReports(reviewId: string) {
  const rows = await database.db
    .select()
    .from(reviewReports)
    .where(eq(reviewReports.reviewId, reviewId));
  return rows.filter((row) => row.resolvedAt === null).length;
}

beforeAll(async () => {
  full = await createFullApp(database, env);
  const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
  salon = { id: built.salon.id, slug: built.salon.slug };
  const signedAdmin = await signedIn("admin");
  admin = signedAdmin.b;
  adminId = signedAdmin.userId;
  const signedOwner = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: signedOwner.userId });
  owner = signedOwner.b;
  member = (await signedIn("user")).b;
}, 120_000);

afterAll(async () => {
  await full?.close();
});

describe("moderation", () => {
  let good = "";
  let bad = "";

  it("puts a reported review in the queue once, with every reason", async () => {
    good = (
      await buildReview(database.db, salon.id, { rating: 5, body: "とても満足な仕上がりでした。" })
    ).id;
    bad = (
      await buildReview(database.db, salon.id, {
        rating: 1,
        body: "担当者の電話番号は090-0000-0000です。",
      })
    ).id;
    expect(await derived()).toEqual({ average: 3, count: 2 });
    await report(bad, "personal_info", "電話番号が書かれています");
    await report(bad, "spam");

    const html = await (await admin.request("/admin/reviews")).text();
    expect(html).toContain("担当者の電話番号は090-0000-0000です。");
    expect(html).not.toContain("とても満足な仕上がりでした。");
    expect(html).toContain("個人情報が書かれている");
    expect(html).toContain("宣伝・スパム");
    expect(html).toContain("電話番号が書かれています");
    expect(html).toMatch(/通報あり（(<!-- -->)?1(<!-- -->)?件）/);

    const api = await json(admin, "/api/admin/reviews?view=reported");
    expect(api.status).toBe(200);
    const { data } = (await api.json()) as {
      data: { total: number; reviews: { id: string; openReportCount: number }[] };
    };
    expect(data.total).toBe(1);
    expect(data.reviews).toEqual([expect.objectContaining({ id: bad, openReportCount: 2 })]);
  });

  it("refuses a decision without a note or on a stale screen, with Japanese messages", async () => {
    const version = String((await reviewRow(bad)).version);
    const noNote = await decide(admin, { intent: "hide", reviewId: bad, note: "  ", version });
    expect(noNote.status).toBe(400);
    expect(await noNote.text()).toContain("非表示にする理由をメモに入力してください");
    const tooLong = await decide(admin, {
      intent: "hide",
      reviewId: bad,
      note: "あ".repeat(REVIEW_HIDE_NOTE_MAX + 1),
      version,
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain(`${REVIEW_HIDE_NOTE_MAX}文字以内`);
    const stale = await decide(admin, {
      intent: "hide",
      reviewId: bad,
      note: "古い画面から",
      version: String(Number(version) + 3),
    });
    expect(stale.status).toBe(409);
    const staleHtml = await stale.text();
    expect(staleHtml).toContain("ほかの人がこの口コミか返信を変更しました");
    expect(staleHtml).toContain("古い画面から");
    const refusals: Record<string, string>[] = [
      { intent: "delete", reviewId: bad, note: "x", version },
      { intent: "hide", reviewId: "<script>", note: "x", version },
      { intent: "hide", reviewId: bad, note: "x", version: "-1" },
      {},
    ];
    for (const fields of refusals) {
      const refused = await decide(admin, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
    }
    expect((await reviewRow(bad)).hiddenAt).toBeNull();
    expect(await derived()).toEqual({ average: 3, count: 2 });
  });

  it("hides: off the salon's page and list, out of the average, reports resolved, audited", async () => {
    const before = await reviewRow(bad);
    const hidden = await decide(
      admin,
      {
        intent: "hide",
        reviewId: bad,
        note: "個人の電話番号のため",
        version: String(before.version),
      },
      "?view=reported",
    );
    expect(hidden.status).toBe(302);
    expect(hidden.headers.get("location")).toBe("/admin/reviews?view=reported&done=hide");
    const after = await reviewRow(bad);
    expect(after).toMatchObject({ hiddenBy: adminId, hiddenNote: "個人の電話番号のため" });
    expect(after.hiddenAt).not.toBeNull();
    expect(after.version).toBe(before.version + 1);
    // The derived rating changed with the decision, not later.
    expect(await derived()).toEqual({ average: 5, count: 1 });
    expect(await openReports(bad)).toBe(0);
    const [entry] = await audits(bad);
    expect(entry).toMatchObject({
      action: "review.hide",
      actorUserId: adminId,
      salonId: salon.id,
      after: { hidden: true, note: "個人の電話番号のため", resolvedReports: 2 },
    });

    for (const path of [`/salons/${salon.slug}`, `/salons/${salon.slug}/reviews`]) {
      const page = await browser(full.app).request(path);
      expect(page.status, path).toBe(200);
      const html = await page.text();
      expect(html, path).toContain("とても満足な仕上がりでした。");
      expect(html, path).not.toContain("090-0000-0000");
    }
    const publicApi = await json(browser(full.app), `/api/salons/${salon.slug}/reviews`);
    expect(publicApi.status).toBe(200);
    expect(await publicApi.text()).not.toContain("090-0000-0000");
    // The salon still sees it, marked, and cannot answer it.
    const ownerHtml = await (await owner.request(`/owner/salons/${salon.id}/reviews`)).text();
    expect(ownerHtml).toContain("090-0000-0000");
    expect(ownerHtml).toContain("非表示");

    const queue = await (await admin.request("/admin/reviews")).text();
    expect(queue).toContain("未対応の通報はありません");
    const hiddenView = await (await admin.request("/admin/reviews?view=hidden")).text();
    expect(hiddenView).toContain("090-0000-0000");
    expect(hiddenView).toContain("個人の電話番号のため");
    expect(hiddenView).toContain("再表示する");
  });

  it("restores through the API: back in the average, audited with the note", async () => {
    const { version } = await reviewRow(bad);
    const again = await json(admin, `/api/admin/reviews/${bad}/hide`, { note: "重ねて", version });
    expect(again.status).toBe(409);
    const restored = await json(admin, `/api/admin/reviews/${bad}/restore`, {
      note: "本人の了承があったため",
      version,
    });
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as { data: { version: number } }).data.version).toBe(
      version + 1,
    );
    expect((await reviewRow(bad)).hiddenAt).toBeNull();
    expect(await derived()).toEqual({ average: 3, count: 2 });
    const [entry] = await audits(bad);
    expect(entry).toMatchObject({
      action: "review.restore",
      actorUserId: adminId,
      before: { hidden: true, hiddenNote: "個人の電話番号のため" },
      after: { hidden: false, note: "本人の了承があったため" },
    });
    const html = await (await browser(full.app).request(`/salons/${salon.slug}/reviews`)).text();
    expect(html).toContain("090-0000-0000");
  });

  it("keeps (問題なし): reports resolved, the review stays, audited; twice is a 409", async () => {
    await report(good, "spam", "宣伝に見えます");
    const { version } = await reviewRow(good);
    const kept = await decide(admin, {
      intent: "keep",
      reviewId: good,
      note: "",
      version: String(version),
    });
    expect(kept.status).toBe(302);
    expect(await openReports(good)).toBe(0);
    const row = await reviewRow(good);
    expect(row.hiddenAt).toBeNull();
    // A decision moves the version (a second administrator's screen is stale), the text stays.
    expect(row.version).toBe(version + 1);
    expect(await derived()).toEqual({ average: 3, count: 2 });
    expect((await audits(good))[0]).toMatchObject({
      action: "review.keep",
      actorUserId: adminId,
      after: { hidden: false, resolvedReports: 1 },
    });
    const twice = await json(admin, `/api/admin/reviews/${good}/keep`, { version: row.version });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { error: { message: string } }).error.message).toContain(
      "未対応の通報はありません",
    );
  });

  it("finds reviews by salon name and by id (the audit log's link)", async () => {
    const [row] = await database.db
      .select({ name: salons.name })
      .from(salons)
      .where(eq(salons.id, salon.id));
    const byName = await (
      await admin.request(`/admin/reviews?view=all&q=${encodeURIComponent(row?.name ?? "")}`)
    ).text();
    expect(byName).toContain("とても満足な仕上がりでした。");
    const none = await (await admin.request("/admin/reviews?view=all&q=%25_%25")).text();
    expect(none).toContain("該当する口コミはありません");
    const one = await (await admin.request(`/admin/reviews?review=${good}`)).text();
    expect(one).toContain("とても満足な仕上がりでした。");
    expect(one).not.toContain("090-0000-0000");
  });
});

describe("who may moderate", () => {
  it("gives everyone but an administrator the 404 screen, 401/403 in the API", async () => {
    const { version } = await reviewRow((await buildReview(database.db, salon.id)).id);
    const target = (
      await database.db.select().from(reviews).where(eq(reviews.salonId, salon.id))
    )[0];
    const fields = {
      intent: "hide",
      reviewId: target?.id ?? "",
      note: "x",
      version: String(version),
    };
    for (const b of [owner, member]) {
      expect((await b.request("/admin/reviews")).status).toBe(404);
      expect((await decide(b, fields)).status).toBe(404);
      expect((await json(b, "/api/admin/reviews")).status).toBe(403);
      expect(
        (await json(b, `/api/admin/reviews/${target?.id}/hide`, { note: "x", version })).status,
      ).toBe(403);
    }
    const guest = browser(full.app);
    expect((await guest.request("/admin/reviews")).status).toBe(302);
    expect((await json(guest, "/api/admin/reviews")).status).toBe(401);
    expect(
      (await json(guest, `/api/admin/reviews/${target?.id}/hide`, { note: "x", version })).status,
    ).toBe(401);
    expect((await reviewRow(target?.id ?? "")).hiddenAt).toBeNull();
  });

  it("answers hostile API input with a Japanese 4xx, never 5xx", async () => {
    const review = await buildReview(database.db, salon.id);
    const path = `/api/admin/reviews/${review.id}/hide`;
    const bodies: unknown[] = [
      { version: 0 },
      { note: "", version: 0 },
      { note: 5, version: 0 },
      { note: "x", version: "abc" },
      [],
      "{broken",
    ];
    for (const body of bodies) {
      const answer = await json(admin, path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      const { error } = (await answer.json()) as { error: { message: string } };
      expect(error.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    expect(
      (await json(admin, "/api/admin/reviews/not-a-uuid/hide", { note: "x", version: 0 })).status,
    ).toBe(400);
    const missing = await json(
      admin,
      "/api/admin/reviews/00000000-0000-4000-8000-000000000000/hide",
      {
        note: "x",
        version: 0,
      },
    );
    expect(missing.status).toBe(404);
    expect((await json(admin, "/api/admin/reviews?view=nope")).status).toBe(400);
    expect((await json(admin, "/api/admin/reviews?page=0")).status).toBe(400);
    expect((await admin.request("/admin/reviews?view=nope&page=x")).status).toBe(200);
    const past = await admin.request("/admin/reviews?view=hidden&page=50");
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe("/admin/reviews?view=hidden");
  });
});

// Races: PostgreSQL only (PGlite runs one transaction at a time, transactionsTakeTurns).
describe("two administrators at the same moment", () => {
  it.skipIf(transactionsTakeTurns)(
    "applies one of 非表示 and 問題なし on the same screen; the average matches the outcome",
    async () => {
      const review = await buildReview(database.db, salon.id, {
        rating: 2,
        body: "競合する判断の口コミ",
      });
      await report(review.id, "spam");
      const before = await derived();
      const now = new Date();
      const decision = {
        reviewId: review.id,
        note: "同時の判断",
        version: review.version,
        actor: { id: adminId },
        now,
      };
      const outcomes = await Promise.allSettled([
        moderate(database.db, "hide", decision),
        moderate(database.db, "keep", decision),
      ]);
      const done = outcomes.filter((outcome) => outcome.status === "fulfilled");
      expect(done).toHaveLength(1);
      const refused = outcomes.flatMap((outcome) =>
        outcome.status === "rejected" ? [outcome.reason as { status?: number }] : [],
      );
      expect(refused.map((error) => error.status)).toEqual([409]);
      const hidden = (await reviewRow(review.id)).hiddenAt !== null;
      expect(await openReports(review.id)).toBe(0);
      const entries = await audits(review.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.action).toBe(hidden ? "review.hide" : "review.keep");
      const after = await derived();
      // The derived count moved with the decision that won: one fewer if it was 非表示.
      expect(after.count).toBe(hidden ? (before.count ?? 0) - 1 : before.count);
    },
  );
});
