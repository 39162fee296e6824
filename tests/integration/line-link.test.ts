import { and, eq } from "drizzle-orm";
import { Events, OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as accountEditRoute from "../../app/routes/account.edit";
import * as notificationsRoute from "../../app/routes/account.edit.notifications";
import { messageKindNames } from "../../common/message-channels";
import { startExternalSignIn } from "../../server/accounts/identity";
import { authAccounts, lineFollows, messageChannels, messageKinds } from "../../server/db/schema";
import { messageRoute } from "../../server/line/message-channels.server";
import { browser } from "../support/accounts";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Issue 41 §1, the visitor's side (decision 0090): `bot_prompt` on LINE's
 * sign-in, linking LINE from /account/edit through a real OIDC provider on
 * localhost standing in for LINE, unlinking, and 通知設定's form.
 */
const database = withTestDatabase();
let provider: OAuth2Server;
let env: ReturnType<typeof createRouteApp>;
/** The LINE user the provider signs in next, and what its ID token says of them. */
const lineProfile: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "localhost");
  provider.service.on(Events.BeforeTokenSigning, (token) =>
    Object.assign(token.payload, lineProfile),
  );
  provider.service.on(Events.BeforeUserinfo, (response) =>
    Object.assign(response.body, lineProfile),
  );
  const issuer = provider.issuer.url ?? "";
  env = createRouteApp(
    database,
    [
      { path: "/account/edit", module: accountEditRoute },
      { path: "/account/edit/notifications", module: notificationsRoute },
    ],
    {
      LINE_CLIENT_ID: "line-channel",
      LINE_CLIENT_SECRET: "line-secret",
      LINE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: "google-client",
      GOOGLE_CLIENT_SECRET: "google-secret",
      GOOGLE_ISSUER: issuer,
    },
  );
});

afterAll(async () => {
  await provider?.stop();
});

let lineCounter = 0;
/** A new LINE user (LINE's ids start with U); LINE's ID token has no `email_verified`. */
function nextLineUser(email = `line-${lineCounter}@example.jp`) {
  const sub = `U${Date.now().toString(16)}${(lineCounter++).toString(16).padStart(8, "0")}`;
  for (const key of Object.keys(lineProfile)) delete lineProfile[key];
  Object.assign(lineProfile, { sub, email, name: "ライン 花子" });
  return sub;
}

type Browser = ReturnType<typeof browser>;

/** 「LINEと連携する」, LINE's consent (the provider answers at once), and back: where it lands. */
async function linkLine(b: Browser) {
  const start = await b.request("/account/edit", postForm({ intent: "link-line" }));
  expect(start.status).toBe(302);
  const authorize = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
  const callback = new URL(authorize.headers.get("location") ?? "");
  expect(callback.pathname).toBe("/api/auth/callback/line");
  const landing = await b.request(`${callback.pathname}${callback.search}`);
  expect(landing.status).toBe(302);
  return landing.headers.get("location") ?? "";
}

type EditPage = {
  status: number;
  loaderData: {
    line: {
      linked: boolean;
      following: boolean;
      onlyMethod: boolean;
      notice: { tone: string; text: string } | null;
    } | null;
  };
};

async function editPage(b: Browser, path = "/account/edit") {
  return (await (await b.request(path)).json()) as EditPage;
}

async function lineAccountOf(userId: string) {
  return database.db
    .select()
    .from(authAccounts)
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "line")));
}

describe("LINE sign-in offers the official account (bot_prompt)", () => {
  it("sends bot_prompt=aggressive to LINE and not to Google", async () => {
    const b = browser(env.app);
    const line = await startExternalSignIn(env.accounts, "line", b.toRequest("/signin"));
    const google = await startExternalSignIn(env.accounts, "google", b.toRequest("/signin"));
    expect(new URL(line.url).searchParams.get("bot_prompt")).toBe("aggressive");
    expect(new URL(google.url).searchParams.has("bot_prompt")).toBe(false);
  });
});

describe("linking LINE from /account/edit", () => {
  it("links the LINE account of a mail sign-up, whatever LINE's address, and shows it linked", async () => {
    const member = await signedInMember(database, env, "line-link");
    expect((await editPage(member.b)).loaderData.line).toMatchObject({ linked: false });
    const sub = nextLineUser("someone-else@example.jp");
    const landing = await linkLine(member.b);
    expect(landing).toBe("/account/edit?line=linked");
    const [account] = await lineAccountOf(member.userId);
    expect(account?.accountId).toBe(sub);
    const page = await editPage(member.b, landing);
    expect(page.loaderData.line).toEqual({
      linked: true,
      following: false,
      onlyMethod: false,
      notice: { tone: "info", text: "LINEと連携しました。" },
    });
  });

  it("refuses a LINE account already linked to another user, with a Japanese message", async () => {
    const first = await signedInMember(database, env, "line-first");
    nextLineUser();
    await linkLine(first.b);
    const second = await signedInMember(database, env, "line-second");
    const landing = await linkLine(second.b);
    expect(landing).toBe(
      "/account/edit?line=failed&error=account_already_linked_to_different_user",
    );
    expect(await lineAccountOf(second.userId)).toEqual([]);
    expect(await lineAccountOf(first.userId)).toHaveLength(1);
    const page = await editPage(second.b, landing);
    expect(page.loaderData.line?.notice).toEqual({
      tone: "error",
      text: "このLINEアカウントは、すでに別のアカウントと連携しています。そのアカウントでログインするか、別のLINEアカウントで連携してください。",
    });
  });

  it("does not let a LINE sign-in join an account by a matching address (the trust is for links only)", async () => {
    const member = await signedInMember(database, env, "line-same-address");
    nextLineUser(member.email);
    const b = browser(env.app);
    const { url, headers } = await startExternalSignIn(
      env.accounts,
      "line",
      b.toRequest("/signin"),
    );
    b.keep(headers);
    const authorize = await fetch(url, { redirect: "manual" });
    const callback = new URL(authorize.headers.get("location") ?? "");
    const landing = await b.request(`${callback.pathname}${callback.search}`);
    expect(landing.headers.get("location")).toMatch(/^\/signin\?error=account_not_linked/);
    expect(await lineAccountOf(member.userId)).toEqual([]);
  });

  it("signed out: the link and unlink intents send to sign-in and change nothing", async () => {
    const b = browser(env.app);
    for (const intent of ["link-line", "unlink-line"]) {
      const answer = await b.request("/account/edit", postForm({ intent }));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toMatch(/^\/signin/);
    }
  });

  it("unlinks LINE, and refuses when LINE is the account's only sign-in method", async () => {
    const member = await signedInMember(database, env, "line-unlink");
    nextLineUser();
    await linkLine(member.b);
    const unlinked = await member.b.request("/account/edit", postForm({ intent: "unlink-line" }));
    expect(unlinked.headers.get("location")).toBe("/account/edit?line=unlinked#line-settings");
    expect(await lineAccountOf(member.userId)).toEqual([]);

    // A visitor who signed up with LINE has no other way in (an address LINE vouches
    // for, or /account/edit would first ask to confirm it).
    nextLineUser("line-only@example.jp");
    lineProfile.email_verified = true;
    const b = browser(env.app);
    const { url, headers } = await startExternalSignIn(
      env.accounts,
      "line",
      b.toRequest("/signin"),
    );
    b.keep(headers);
    const authorize = await fetch(url, { redirect: "manual" });
    const callback = new URL(authorize.headers.get("location") ?? "");
    await b.request(`${callback.pathname}${callback.search}`);
    const [lineOnly] = await database.db
      .select()
      .from(authAccounts)
      .where(eq(authAccounts.accountId, String(lineProfile.sub)));
    expect(lineOnly).toBeDefined();
    const refused = await b.request("/account/edit", postForm({ intent: "unlink-line" }));
    expect(refused.headers.get("location")).toBe("/account/edit?line=last-method#line-settings");
    expect(await lineAccountOf(lineOnly?.userId ?? "")).toHaveLength(1);
    const page = await editPage(b, "/account/edit?line=last-method");
    expect(page.loaderData.line).toMatchObject({
      linked: true,
      onlyMethod: true,
      notice: {
        tone: "error",
        text: "LINEはこのアカウントの唯一のログイン方法のため、連携を解除できません。",
      },
    });
  });

  it("has no LINE section where LINE sign-in is not configured", async () => {
    const bare = createRouteApp(database, [{ path: "/account/edit", module: accountEditRoute }]);
    const member = await signedInMember(database, bare, "line-none");
    expect((await editPage(member.b)).loaderData.line).toBeNull();
  });
});

type NotificationsPage = {
  status: number;
  loaderData: {
    preferences: {
      line: { linked: boolean; following: boolean };
      lineReason: string | null;
      rows: { kind: string; channel: string; saved: string | null }[];
    };
    saved: boolean;
  } | null;
  actionData: { errors: Record<string, string>; values: Record<string, string> } | null;
};

async function notificationsPage(b: Browser, path = "/account/edit/notifications") {
  return (await (await b.request(path)).json()) as NotificationsPage;
}

const allMail = Object.fromEntries(messageKindNames.map((kind) => [kind, "mail"]));

async function savedChannels(userId: string) {
  return database.db
    .select({ kind: messageChannels.kind, channel: messageChannels.channel })
    .from(messageChannels)
    .where(eq(messageChannels.userId, userId))
    .orderBy(messageChannels.kind);
}

async function follow(userId: string, following = true) {
  const [account] = await lineAccountOf(userId);
  await database.db
    .insert(lineFollows)
    .values({ lineUserId: account?.accountId ?? "", following, changedAt: new Date() })
    .onConflictDoUpdate({ target: lineFollows.lineUserId, set: { following } });
}

describe("通知設定 (/account/edit/notifications)", () => {
  it("keeps the page's kinds equal to the table's", () => {
    expect([...messageKindNames].sort()).toEqual([...messageKinds].sort());
  });

  it("signed out: the page and the form send to sign-in, and nothing is written", async () => {
    const b = browser(env.app);
    const page = await b.request("/account/edit/notifications");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/signin/);
    const save = await b.request("/account/edit/notifications", postForm(allMail));
    expect(save.status).toBe(302);
    expect(save.headers.get("location")).toMatch(/^\/signin/);
  });

  it("shows mail by default without LINE, LINE by default once linked and following", async () => {
    const member = await signedInMember(database, env, "prefs-default");
    const unlinked = await notificationsPage(member.b);
    expect(unlinked.loaderData?.preferences.lineReason).toBe("LINE連携後に選べます");
    expect(unlinked.loaderData?.preferences.rows).toEqual(
      messageKinds.map((kind) => ({ kind, channel: "mail", saved: null })),
    );
    nextLineUser();
    await linkLine(member.b);
    const notFollowing = await notificationsPage(member.b);
    expect(notFollowing.loaderData?.preferences.lineReason).toBe(
      "公式アカウントを友だち追加すると選べます",
    );
    expect(notFollowing.loaderData?.preferences.rows.map((r) => r.channel)).toEqual(
      messageKinds.map(() => "mail"),
    );
    await follow(member.userId);
    const reachable = await notificationsPage(member.b);
    expect(reachable.loaderData?.preferences.lineReason).toBeNull();
    expect(reachable.loaderData?.preferences.rows).toEqual(
      messageKinds.map((kind) => ({ kind, channel: "line", saved: null })),
    );
  });

  it("saves each kind's channel for the signed-in visitor only, and messageRoute follows it", async () => {
    const member = await signedInMember(database, env, "prefs-save");
    const other = await signedInMember(database, env, "prefs-other");
    nextLineUser();
    await linkLine(member.b);
    await follow(member.userId);
    const choice = { booking: "both", reminder: "line", waitlist: "mail", review: "mail" };
    // A user id in the form is not a field: it cannot aim the save at someone else.
    const saved = await member.b.request(
      "/account/edit/notifications",
      postForm({ ...choice, userId: other.userId }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/account/edit/notifications?saved=1");
    expect(await savedChannels(member.userId)).toEqual([
      { kind: "booking", channel: "both" },
      { kind: "reminder", channel: "line" },
      { kind: "review", channel: "mail" },
      { kind: "waitlist", channel: "mail" },
    ]);
    expect(await savedChannels(other.userId)).toEqual([]);
    const page = await notificationsPage(member.b, "/account/edit/notifications?saved=1");
    expect(page.loaderData?.saved).toBe(true);
    expect(page.loaderData?.preferences.rows.find((r) => r.kind === "reminder")).toEqual({
      kind: "reminder",
      channel: "line",
      saved: "line",
    });
    const [account] = await lineAccountOf(member.userId);
    expect(await messageRoute(database.db, member.userId, "reminder")).toEqual({
      mail: false,
      lineUserId: account?.accountId,
    });
    expect(await messageRoute(database.db, member.userId, "review")).toEqual({
      mail: true,
      lineUserId: null,
    });

    // Changed again: the rows are updated, not added.
    await member.b.request(
      "/account/edit/notifications",
      postForm({ ...choice, reminder: "mail" }),
    );
    expect((await savedChannels(member.userId)).find((r) => r.kind === "reminder")).toEqual({
      kind: "reminder",
      channel: "mail",
    });
  });

  it("answers bad input with 400 and Japanese messages, keeping what was sent, saving nothing", async () => {
    const member = await signedInMember(database, env, "prefs-bad");
    const bad = await member.b.request(
      "/account/edit/notifications",
      postForm({ booking: "fax", reminder: "mail", waitlist: "mail" }),
    );
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as NotificationsPage;
    expect(body.actionData?.errors).toEqual({
      booking: "予約の確定・変更・キャンセルを選択してください。",
      review: "口コミのお願いを選択してください。",
    });
    expect(body.actionData?.values).toMatchObject({ booking: "fax", reminder: "mail" });
    expect(await savedChannels(member.userId)).toEqual([]);
  });

  it("refuses LINE while the account is not linked or not following (409), saving nothing", async () => {
    const member = await signedInMember(database, env, "prefs-unreachable");
    const choice = { ...allMail, reminder: "line" };
    const unlinked = await member.b.request("/account/edit/notifications", postForm(choice));
    expect(unlinked.status).toBe(409);
    expect(((await unlinked.json()) as NotificationsPage).actionData?.errors).toEqual({
      reminder: "LINEは選べません（LINE連携後に選べます）。",
    });
    nextLineUser();
    await linkLine(member.b);
    await follow(member.userId, false);
    const unfollowed = await member.b.request("/account/edit/notifications", postForm(choice));
    expect(unfollowed.status).toBe(409);
    expect(((await unfollowed.json()) as NotificationsPage).actionData?.errors).toEqual({
      reminder: "LINEは選べません（公式アカウントを友だち追加すると選べます）。",
    });
    expect(await savedChannels(member.userId)).toEqual([]);
    // Mail only is always allowed.
    const mail = await member.b.request("/account/edit/notifications", postForm(allMail));
    expect(mail.status).toBe(302);
    expect(await savedChannels(member.userId)).toHaveLength(4);
  });
});
