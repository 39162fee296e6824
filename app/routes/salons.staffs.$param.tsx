import { Link } from "react-router";
import { formatYen } from "../../common/format";
import { publicPageHeaders } from "../../common/page-cache";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import { notFound } from "../../server/routing/not-found";
import { getStaffPage } from "../../server/salons/listings";
import { Breadcrumbs } from "../components/breadcrumbs";
import { favoriteState } from "../components/favorites/favorite-toggle";
import { JsonLd } from "../components/json-ld";
import { SalonCardItem } from "../components/salons/salon-card-item";
import { bookingHref } from "../components/salons/salon-detail-sections";
import { breadcrumbJsonLd } from "../lib/json-ld";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.staffs.$param";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { staff, salon } = loaderData.page;
  return pageMeta({
    title: `${staff.name}（${salon.name}・${staff.role}）`,
    description:
      `${salon.name}の${staff.role} ${staff.name}（歴${staff.yearsOfExperience}年）のプロフィールと担当メニュー。指名してネット予約できます。${staff.profile}`.slice(
        0,
        160,
      ),
    path: `/salons/staffs/${staff.slug}`,
    origin: originFromMatches(matches),
    image: staff.photoUrl || undefined,
  });
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const page = await getStaffPage(ctx.readDb, params.param);
  if (!page) throw notFound(request);
  const favorites = await favoritesAmong(request, ctx, [page.salon.slug]);
  return { page, favorites, origin: ctx.config.PUBLIC_URL };
}

export default function StaffPage({ loaderData }: Route.ComponentProps) {
  const { staff, salon, menuGroups } = loaderData.page;
  const trail = [
    { name: "トップ", path: "/" },
    { name: salon.name, path: `/salons/${salon.slug}` },
    { name: staff.name, path: `/salons/staffs/${staff.slug}` },
  ];
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <JsonLd data={breadcrumbJsonLd(trail, loaderData.origin)} />
      <Breadcrumbs items={trail} />
      <div className="mt-4 flex flex-col gap-6 sm:flex-row">
        {staff.photoUrl ? (
          <img
            src={staff.photoUrl}
            alt={`${staff.name}の写真`}
            width={160}
            height={160}
            className="size-40 shrink-0 rounded-full object-cover"
          />
        ) : null}
        <div>
          <p className="text-sm text-neutral-700">{staff.role}</p>
          <h1 className="text-2xl font-bold">{staff.name}</h1>
          <p className="text-sm text-neutral-700">
            {staff.kana}・歴{staff.yearsOfExperience}年
          </p>
          {staff.nominationFee > 0 ? (
            <p className="mt-1 font-bold">指名料 {formatYen(staff.nominationFee)}</p>
          ) : null}
          {staff.specialties.length > 0 ? (
            <p className="mt-2 text-sm">得意な技術：{staff.specialties.join("・")}</p>
          ) : null}
          {staff.profile ? <p className="mt-2">{staff.profile}</p> : null}
          <Link
            to={bookingHref(salon.slug, { staff: staff.slug })}
            className="mt-4 inline-block rounded-lg bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800"
          >
            {staff.name}を指名して予約
          </Link>
        </div>
      </div>
      <section aria-labelledby="staff-menus" className="mt-10">
        <h2 id="staff-menus" className="text-xl font-bold">
          {staff.name}の担当メニュー
        </h2>
        {menuGroups.map((group) => (
          <div key={group.category} className="mt-4">
            <h3 className="font-bold">{group.category}</h3>
            <ul className="mt-2 divide-y divide-neutral-200 border-y border-neutral-200">
              {group.menus.map((menu) => (
                <li key={menu.id} className="flex flex-wrap items-center gap-3 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-bold">{menu.name}</p>
                    <p className="text-sm">
                      {formatYen(menu.price)}・約{menu.durationMinutes}分
                    </p>
                  </div>
                  <Link
                    to={bookingHref(salon.slug, { menu: menu.id, staff: staff.slug })}
                    className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-bold text-white hover:bg-brand-800"
                    aria-label={`${menu.name}を${staff.name}の指名で予約する`}
                  >
                    予約する
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
      <section aria-labelledby="staff-salon" className="mt-10 max-w-sm">
        <h2 id="staff-salon" className="text-xl font-bold">
          在籍サロン
        </h2>
        <div className="mt-4">
          <SalonCardItem salon={salon} favorite={favoriteState(loaderData.favorites, salon.slug)} />
        </div>
      </section>
    </div>
  );
}
