import { Link } from "react-router";
import type { CouponTarget } from "../../../common/coupon-eligibility";
import { formatDate, formatYen } from "../../../common/format";
import { photoSrcSet } from "../../../common/photo-variants";
import type { SalonDetail } from "../../../server/salons/salon-detail";
import { ReviewSummaryPanel, SalonReview } from "../reviews/salon-review";

const sectionClass = "mt-10";
const headingClass = "border-l-4 border-brand-700 pl-3 text-xl font-bold";
const bookingLink =
  "inline-block rounded-lg bg-brand-700 px-4 py-2 text-sm font-bold text-white hover:bg-brand-800";

export function bookingHref(salonSlug: string, params: Record<string, string>) {
  return `/salons/${salonSlug}/confirm?${new URLSearchParams(params)}`;
}

/** The link under a summary on トップ to the tab with all of it. */
function MoreLink({ href, children }: { href: string; children: string }) {
  return (
    <p className="mt-4">
      <Link to={href} className="font-bold text-brand-700 underline">
        {children}
      </Link>
    </p>
  );
}

export function SalonPhotos({ photos }: { photos: SalonDetail["photos"] }) {
  if (photos.length === 0) return null;
  return (
    <ul className="mt-6 grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="サロンの写真">
      {photos.map((photo, index) => (
        <li key={photo.url} className={index === 0 ? "col-span-2 row-span-2" : ""}>
          <img
            src={photo.inline ?? photo.url}
            srcSet={photoSrcSet(photo.variants)}
            // The cover spans two of the grid's columns (all of them on phones).
            sizes={
              photo.variants.length === 0
                ? undefined
                : index === 0
                  ? "(min-width: 1152px) 760px, (min-width: 640px) 66vw, 100vw"
                  : "(min-width: 1152px) 380px, (min-width: 640px) 33vw, 50vw"
            }
            alt={photo.alt}
            width={photo.width}
            height={photo.height}
            // The first photo is the page's largest image: load it at once.
            loading={index === 0 ? "eager" : "lazy"}
            // A cover inside the page has nothing to fetch, nor for React to preload in the head.
            fetchPriority={index === 0 && !photo.inline ? "high" : undefined}
            decoding="async"
            className="h-auto w-full rounded-lg object-cover"
          />
        </li>
      ))}
    </ul>
  );
}

type MenuGroups = SalonDetail["menuGroups"];

/** The first `limit` menus, in their groups' order (トップ's excerpt). */
function firstMenus(menuGroups: MenuGroups, limit: number): MenuGroups {
  const out: MenuGroups = [];
  let left = limit;
  for (const group of menuGroups) {
    if (left <= 0) break;
    const menus = group.menus.slice(0, left);
    left -= menus.length;
    out.push({ ...group, menus });
  }
  return out;
}

/**
 * The menus, each with its 予約する; on トップ the first few (`limit`) and
 * the way to all of them (`moreHref`), so a visitor can book from the first page.
 */
export function SalonMenus({
  slug,
  menuGroups: allGroups,
  limit,
  moreHref,
}: {
  slug: string;
  menuGroups: MenuGroups;
  limit?: number;
  moreHref?: string;
}) {
  const menuGroups = limit === undefined ? allGroups : firstMenus(allGroups, limit);
  const total = allGroups.reduce((sum, group) => sum + group.menus.length, 0);
  if (menuGroups.length === 0) {
    return (
      <section aria-labelledby="salon-menus" className={sectionClass}>
        <h2 id="salon-menus" className={headingClass}>
          メニュー
        </h2>
        <p className="mt-4">ネット予約できるメニューはまだありません。</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="salon-menus" className={sectionClass}>
      <h2 id="salon-menus" className={headingClass}>
        メニュー
      </h2>
      {menuGroups.map((group) => (
        <div key={group.category} className="mt-4">
          <h3 className="text-lg font-bold">{group.category}</h3>
          <ul className="mt-2 divide-y divide-neutral-200 border-y border-neutral-200">
            {group.menus.map((menu) => (
              <li key={menu.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-bold">{menu.name}</p>
                  {menu.description ? (
                    <p className="text-sm text-neutral-700">{menu.description}</p>
                  ) : null}
                  <p className="text-sm">
                    <span className="font-bold">{formatYen(menu.price)}</span>
                    <span className="ml-2 text-neutral-700">
                      所要時間 約{menu.durationMinutes}分
                    </span>
                  </p>
                </div>
                <Link
                  to={bookingHref(slug, { menu: menu.id })}
                  className={bookingLink}
                  aria-label={`${menu.name}を予約する`}
                >
                  予約する
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {moreHref ? (
        <MoreLink href={moreHref}>{`メニューをすべて見る（${total}件）`}</MoreLink>
      ) : null}
    </section>
  );
}

const couponDiscount = (coupon: Coupon) =>
  coupon.discountKind === "percent"
    ? `${coupon.discountValue}%OFF`
    : coupon.discountKind === "amount"
      ? `${formatYen(coupon.discountValue)}引き`
      : `${formatYen(coupon.discountValue)}`;

type Coupon = SalonDetail["coupons"][number];

/** 新規 / 再来 / 全員 badges as Hot Pepper Beauty shows them (contrast checked by axe). */
const targetBadge: Record<CouponTarget, string> = {
  new: "bg-brand-700 text-white",
  returning: "bg-green-800 text-white",
  all: "border border-neutral-500 text-neutral-900",
};
type Menu = SalonDetail["menuGroups"][number]["menus"][number];

/**
 * What the coupon costs: each of its menus at the regular price and with the
 * coupon (priced by the server as the booking pages price it), or that it is for any menu.
 */
function CouponPrices({ coupon, menus }: { coupon: Coupon; menus: Menu[] }) {
  if (coupon.menuPrices === null) {
    return <p className="text-sm">対象：全メニュー（ご予約の合計に適用）</p>;
  }
  const prices = new Map(coupon.menuPrices.map((entry) => [entry.menuId, entry.price]));
  const covered = menus.filter((menu) => prices.has(menu.id));
  if (covered.length === 0) return null;
  return (
    <ul className="text-sm">
      {covered.map((menu) => (
        <li key={menu.id}>
          {menu.name}：
          <s>
            <span className="sr-only">通常</span>
            {formatYen(menu.price)}
          </s>
          <span aria-hidden="true"> → </span>
          <span className="font-bold text-brand-700">
            <span className="sr-only">クーポン適用で</span>
            {formatYen(prices.get(menu.id) ?? menu.price)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Today's coupons; on トップ the first few (`limit`) and the way to all of
 * them (`moreHref`).
 */
export function SalonCoupons({
  slug,
  coupons,
  menuGroups,
  limit,
  moreHref,
}: {
  slug: string;
  coupons: Coupon[];
  menuGroups: MenuGroups;
  limit?: number;
  moreHref?: string;
}) {
  if (coupons.length === 0) return null;
  const menus = menuGroups.flatMap((group) => group.menus);
  const shown = limit === undefined ? coupons : coupons.slice(0, limit);
  return (
    <section aria-labelledby="salon-coupons" className={sectionClass}>
      <h2 id="salon-coupons" className={headingClass}>
        クーポン
      </h2>
      <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2">
        {shown.map((coupon) => (
          <li key={coupon.id} className="rounded-lg border border-dashed border-brand-700 p-4">
            <p className="flex flex-wrap items-center gap-2 text-sm font-bold text-brand-700">
              <span
                className={`rounded px-1.5 py-0.5 text-xs ${targetBadge[coupon.target]}`}
                data-coupon-target={coupon.target}
              >
                {coupon.targetLabel}
              </span>
              {couponDiscount(coupon)}
              {coupon.usable === true ? (
                <span className="text-xs text-green-800">ご利用いただけます</span>
              ) : coupon.usable === false ? (
                <span className="text-xs text-neutral-700">対象外</span>
              ) : null}
            </p>
            <h3 className="font-bold">{coupon.title}</h3>
            {coupon.limitNotes.length > 0 ? (
              <p className="text-xs text-neutral-800">{coupon.limitNotes.join("・")}</p>
            ) : null}
            {coupon.description ? <p className="text-sm">{coupon.description}</p> : null}
            <CouponPrices coupon={coupon} menus={menus} />
            {coupon.conditions ? (
              <p className="text-xs text-neutral-700">条件：{coupon.conditions}</p>
            ) : null}
            {coupon.validUntil ? (
              <p className="text-xs text-neutral-700">
                有効期限：{formatDate(coupon.validUntil)}まで
              </p>
            ) : null}
            <Link
              to={bookingHref(slug, { coupon: coupon.id })}
              className={`${bookingLink} mt-2`}
              aria-label={`このクーポンで予約（${coupon.title}）`}
            >
              このクーポンで予約
            </Link>
          </li>
        ))}
      </ul>
      {moreHref ? (
        <MoreLink
          href={moreHref}
        >{`クーポン・メニューをすべて見る（クーポン${coupons.length}件）`}</MoreLink>
      ) : null}
    </section>
  );
}

/** The stylists; on トップ the first few (`limit`) and the way to all of them (`moreHref`). */
export function SalonStaff({
  slug,
  staff,
  limit,
  moreHref,
}: {
  slug: string;
  staff: SalonDetail["staff"];
  limit?: number;
  moreHref?: string;
}) {
  if (staff.length === 0) {
    return moreHref ? null : <p className="mt-6">スタッフの紹介はまだありません。</p>;
  }
  const shown = limit === undefined ? staff : staff.slice(0, limit);
  return (
    <section aria-labelledby="salon-staff" className={sectionClass}>
      <h2 id="salon-staff" className={headingClass}>
        スタッフ（{staff.length}人）
      </h2>
      <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
        {shown.map((member) => (
          <li
            key={member.slug}
            id={`stylist-${member.slug}`}
            className="flex scroll-mt-16 gap-4 rounded-lg border border-neutral-200 p-4"
          >
            {member.photoUrl ? (
              <img
                src={member.photoUrl}
                alt=""
                width={96}
                height={96}
                loading="lazy"
                decoding="async"
                className="size-24 shrink-0 rounded-full object-cover"
              />
            ) : null}
            <div className="min-w-0 flex-1">
              <p className="text-xs text-neutral-700">{member.role}</p>
              <h3 className="font-bold">
                <Link to={`/salons/staffs/${member.slug}`} className="hover:underline">
                  {member.name}
                </Link>
              </h3>
              <p className="text-xs text-neutral-700">
                {member.kana}・歴{member.yearsOfExperience}年
              </p>
              {member.nominationFee > 0 ? (
                <p className="text-sm font-bold">指名料 {formatYen(member.nominationFee)}</p>
              ) : null}
              {member.profile ? <p className="mt-1 text-sm">{member.profile}</p> : null}
              <Link
                to={bookingHref(slug, { staff: member.slug })}
                className={`${bookingLink} mt-2`}
                aria-label={`${member.name}を指名して予約する`}
              >
                指名して予約
              </Link>
            </div>
          </li>
        ))}
      </ul>
      {moreHref ? (
        <MoreLink href={moreHref}>{`スタッフをすべて見る（${staff.length}人）`}</MoreLink>
      ) : null}
    </section>
  );
}

/**
 * The salon page's 口コミ: the summary, the latest few reviews with the
 * salon's replies, and the way to all of them (/salons/:id/reviews).
 */
export function SalonReviews({ detail, allHref }: { detail: SalonDetail; allHref: string }) {
  const { reviews } = detail;
  return (
    <section aria-labelledby="reviews-heading" id="reviews" className={sectionClass}>
      <h2 id="reviews-heading" className={headingClass}>
        口コミ（{reviews.summary.count}件）
      </h2>
      {reviews.summary.count === 0 ? (
        <p className="mt-4">まだ口コミはありません。</p>
      ) : (
        <>
          <ReviewSummaryPanel summary={reviews.summary} />
          <h3 className="mt-6 font-bold">新着の口コミ</h3>
          <ul className="mt-2 flex flex-col gap-4">
            {reviews.latest.map((review) => (
              <li key={review.id}>
                <SalonReview review={review} headingLevel={4} />
              </li>
            ))}
          </ul>
          <p className="mt-4">
            <Link to={allHref} className="font-bold underline">
              口コミをすべて見る（{reviews.summary.count}件）
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
