import { index, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * The one route table, in the order of SPEC.md §2. Each issue adds the
 * routes it builds; nothing is listed before it works.
 */
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("company", "routes/company.tsx"),
  route("contact", "routes/contact.tsx"),
  route("user-policy", "routes/user-policy.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),

  // /articles/about, /about-intern, /about-reward and /interview-01 are rows
  // of the articles table, served by one module.
  route("articles", "routes/articles.tsx"),
  route("articles/:slug", "routes/articles.$slug.tsx"),

  // Discovery (issue 3).
  route("area", "routes/area.tsx"),
  route("area/:id", "routes/area.$id.tsx"),
  route("salons/search", "routes/salons.search.tsx"),
  route("salons/search/count", "routes/salons.search.count.ts"), // JSON: the phone filter dialog's count (issue 17)
  // The salon's tabs inside their frame (the header, the tab bar, the 予約する bar; decision 0057),
  // read once by the layout's loader; each tab still guards its own loader (?coupon=|?menu= for
  // the 予約する bar, as every tab).
  route("salons/:id", "routes/salons.$id._layout.tsx", [
    index("routes/salons.$id.tsx"), // none: トップ
    route("coupons", "routes/salons.$id.coupons.tsx"), // none: クーポン・メニュー tab
    route("styles", "routes/salons.$id.styles.tsx"), // none: スタイル tab (photos with their stylist and menu)
    route("stylists", "routes/salons.$id.stylists.tsx"), // none: スタッフ tab
    route("reviews", "routes/salons.$id.reviews.tsx"), // none: 口コミ (?sort=&staff=&genre=&page=)
    route("access", "routes/salons.$id.access.tsx"), // none: 地図・アクセス tab (nearest stations, hours, map apps by coordinates)
  ]),
  route("salons/:id/confirm", "routes/salons.$id.confirm.tsx"), // none
  route("salons/:id/confirm/thanks", "routes/salons.$id.confirm.thanks.tsx"), // none (own booking only)
  route("salons/:id/confirm/paid", "routes/salons.$id.confirm.paid.tsx"), // is-login (own booking's payment only)
  route("salons/:id/confirm/thanks.ics", "routes/salons.$id.confirm.thanks.ics.ts"), // the thanks page's calendar file
  route("salons/:id/waitlist", "routes/salons.$id.waitlist.tsx"), // is-login: キャンセル待ちに登録 for the flow's choice (?menu=&staff=&coupon=&date=)
  route("salons/staffs/:param", "routes/salons.staffs.$param.tsx"),
  route("salons/feature/:param", "routes/salons.feature.$param.tsx"),
  route("salons/recommend/:param", "routes/salons.recommend.$param.tsx"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),

  // Accounts. Guards are SPEC.md §2's, called first in each module's loader
  // and action (server/accounts/guards.ts); "none" means no guard.
  route("signin", "routes/signin.tsx"), // none
  route("signup", "routes/signup.tsx"), // none
  route("password-reset", "routes/password-reset.tsx"), // none
  route("finish_sign_up", "routes/finish_sign_up.tsx"), // none (exempt from the account-record redirect)
  route("finish_resend_email", "routes/finish_resend_email.tsx"), // none
  route("finish_password_reset", "routes/finish_password_reset.tsx"), // none
  route("mail_not_confirm", "routes/mail_not_confirm.tsx"), // is-login
  route("account/thanks", "routes/account.thanks.tsx"), // none
  route("account/history", "routes/account.history.tsx"), // is-login
  route("account/reviews/:bookingId", "routes/account.reviews.$bookingId.tsx"), // is-login (someone else's booking: 404): 口コミを書く / 編集する
  route("reviews/:reviewId/report", "routes/reviews.$reviewId.report.tsx"), // is-login (hidden or missing review: 404): 口コミを通報する
  route("account/waitlist", "routes/account.waitlist.tsx"), // is-login: POST キャンセル待ちをやめる (GET: where the entries are)
  route("account/waitlist/offers/:offerId", "routes/account.waitlist.offers.$offerId.tsx"), // is-login (someone else's: 404): an offer, 予約する, 辞退する
  route("account/favorite", "routes/account.favorite.tsx"), // auth-full, account-setup-validation
  route("account/edit", "routes/account.edit.tsx"), // auth-full, is-login; POST intent=link-line / unlink-line (issue 41 §1)
  route("account/edit/notifications", "routes/account.edit.notifications.tsx"), // auth-full, is-login: 通知設定, mail / LINE / both per kind (issue 41 §1; not in SPEC.md §2)
  route("account/edit/change-email", "routes/account.edit.change-email.tsx"), // is-login
  route(
    "account/edit/change-email/finish-request",
    "routes/account.edit.change-email.finish-request.tsx",
  ), // not shown: none
  route("account/edit/change-email/thanks", "routes/account.edit.change-email.thanks.tsx"), // not shown: none
  route("account/edit/change-password", "routes/account.edit.change-password.tsx"), // is-login
  route("account/edit/change-password/thanks", "routes/account.edit.change-password.thanks.tsx"), // not shown: none
  route("signout", "routes/signout.tsx"), // POST only; not in SPEC.md §2
  route("preferences/theme", "routes/preferences.theme.tsx"), // POST only: stores the theme cookie
  // Admin area (issue 16). Guards: auth-full, admin-only (a guest signs in first).
  route("admin", "routes/admin.tsx"),
  route("admin/owners", "routes/admin.owners.tsx"),
  route("admin/owners/add", "routes/admin.owners.add.tsx"),
  route("admin/salons", "routes/admin.salons.tsx"),
  route("admin/salons/add", "routes/admin.salons.add.tsx"),
  route("admin/salons/edit/:id", "routes/admin.salons.edit.$id.tsx"),
  route("admin/salons/edit/:id/photos", "routes/admin.salons.edit.$id.photos.tsx"),
  // Not in SPEC.md §2: the route rules (redirects) of SPEC.md §2, managed (issue 16, point 9).
  route("admin/redirects", "routes/admin.redirects.tsx"),
  // Not in SPEC.md §2: the moderation of reviews (issue 30, point 2; decision 0056).
  route("admin/reviews", "routes/admin.reviews.tsx"),
  // Not in SPEC.md §2: the payments' reconciliation, its differences (issue 40 §3; decision 0081).
  route("admin/payments", "routes/admin.payments.tsx"),
  // The salon editor's tabs (issue 16, point 4): ?staff=, ?menu=, ?coupon= open one row.
  route("admin/salons/edit/:id/staff", "routes/admin.salons.edit.$id.staff.tsx"),
  route("admin/salons/edit/:id/menus", "routes/admin.salons.edit.$id.menus.tsx"),
  route("admin/salons/edit/:id/coupons", "routes/admin.salons.edit.$id.coupons.tsx"),
  // The salon back office (issues 28, 29). Guards: requireBackOffice for /owner
  // (owner, admin or a salon's staff; a guest signs in first, anyone else gets
  // 404), requireSalonAccess for every /owner/salons/:id page and action with
  // the capability its module declares (`capability`; decision 0045: the
  // salon's owner, an admin, or staff whose role has it; else the 404 screen).
  route("owner", "routes/owner.tsx"), // opens on the first salon the person can open
  // The CSV files: resource routes, outside the frame.
  route("owner/salons/:id/bookings.csv", "routes/owner.salons.$id.bookings.csv.ts"), // bookings of ?from=&to= as CSV for the accountant (Excel: BOM, CRLF), audited; bookings.export
  route("owner/salons/:id/customers.csv", "routes/owner.salons.$id.customers.csv.ts"), // the customers as CSV (Excel: BOM, CRLF), audited
  route("owner/salons/:id/stylists.csv", "routes/owner.salons.$id.stylists.csv.ts"), // per stylist 指名数・指名率, 新規/再来, 客単価, 技術/店販 of ?from=&to= as CSV; reports.read
  route("owner/salons/:id/coupons.csv", "routes/owner.salons.$id.coupons.csv.ts"), // bookings and 売上 by coupon target (新規・再来・全員) and by coupon of ?from=&to= as CSV; reports.read
  route(
    "owner/salons/:id/bookings/:bookingId/receipt.pdf",
    "routes/owner.salons.$id.bookings.$bookingId.receipt[.pdf].ts",
  ), // 領収書 of the 会計 as a PDF (checkout.act; decision 0083)
  // Every page of one salon inside its frame (the salon's name, the switcher, the menu the role
  // may see), read once by the layout's loader with ledger.read; each page still guards its own
  // loader and action with its own capability.
  route("owner/salons/:id", "routes/owner.salons.$id._layout.tsx", [
    index("routes/owner.salons.$id.tsx"), // 今日: the day at a glance, notices
    route("bookings", "routes/owner.salons.$id.bookings.tsx"), // 予約台帳: day per stylist, week; live
    route("bookings/new", "routes/owner.salons.$id.bookings.new.tsx"), // phone / walk-in booking, blocked time (?staff=&date=&time=)
    route("bookings/:bookingId", "routes/owner.salons.$id.bookings.$bookingId.tsx"), // booking detail, history, actions (来店, 完了, 無断キャンセル, キャンセル, メモ); a block's 削除
    route("bookings/:bookingId/move", "routes/owner.salons.$id.bookings.$bookingId.move.tsx"), // move: date, time, stylist, menus
    route(
      "bookings/:bookingId/checkout",
      "routes/owner.salons.$id.bookings.$bookingId.checkout.tsx",
    ), // 会計: final prices, discount, 店販, method (checkout.act: owner, manager, reception, admin)
    route("bookings/:bookingId/receipt", "routes/owner.salons.$id.bookings.$bookingId.receipt.tsx"), // 領収書 of the 会計, printable (checkout.act)
    route("customers", "routes/owner.salons.$id.customers.tsx"), // 顧客: search, counts
    route("customers/:customerId", "routes/owner.salons.$id.customers.$customerId.tsx"), // 顧客カルテ: notes, merge
    route("settings", "routes/owner.salons.$id.settings.tsx"), // 設定: where booking notices go
    route("settings/webhooks", "routes/owner.salons.$id.settings.webhooks.tsx"), // 設定 → Webhook: endpoints, secrets shown once, rotation, delivery log, replay (webhooks.manage: owner, manager, admin; decision 0086)
    route("schedules", "routes/owner.salons.$id.schedules.tsx"), // 勤務表: a stylist's month (?staff=&month=), patterns, days off, 臨時休業, 定休日, 祝日; schedules.manage
    route("schedules/mine", "routes/owner.salons.$id.schedules.mine.tsx"), // 自分の勤務表: a stylist's own month, read-only; schedules.request
    route("day-close", "routes/owner.salons.$id.day-close.tsx"), // 日計: the day's 会計 by method, cash counted against expected, closed and reopened (dayclose.act: owner, manager, admin)
    route("reports", "routes/owner.salons.$id.reports.tsx"), // レポート: amounts, utilisation, cancellations, new/returning, hours (reports.read: owner, manager, admin)
    route("reviews", "routes/owner.salons.$id.reviews.tsx"), // 口コミ: the salon's replies (「サロンからの返信」), 未返信のみ (reviews.reply: owner, manager, admin)
    // The salon editor's owner door (issue 29, point 3; decision 0047): the admin editor's tabs
    // for the salon's own people, requireSalonAccess with salon.edit (owner, manager, admin).
    route("details", "routes/owner.salons.$id.details.tsx"), // 基本情報 (status, slug, owners: admin only)
    route("staff", "routes/owner.salons.$id.staff.tsx"), // スタッフ: stylists, 指名料, menus they do
    route("menus", "routes/owner.salons.$id.menus.tsx"), // メニュー
    route("coupons", "routes/owner.salons.$id.coupons.tsx"), // クーポン
    route("products", "routes/owner.salons.$id.products.tsx"), // 店販商品 for 会計, the 適格請求書 registration number (salon.edit)
    route("photos", "routes/owner.salons.$id.photos.tsx"), // 写真
    route("members", "routes/owner.salons.$id.members.tsx"), // メンバー: staff accounts and roles, invitations (members.manage: owner, admin)
  ]),
  // Not in SPEC.md §2: the owner invitation link (?token=) sets the password
  // or confirms becoming an owner (issue 16). none: the token is the proof.
  route("account/invitation", "routes/account.invitation.tsx"),
  route("dev/mailbox", "routes/dev.mailbox.tsx"), // development only (404 in production)
  route("dev/line", "routes/dev.line.tsx"), // development only (404 in production): what the fake LINE received

  // Last: any other path is a 404, matched so route rules see client-side links to it too.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
