import type { couponsTab } from "../../../server/salon-editor/salon-coupons.server";
import type { EditorSalon } from "../../../server/salon-editor/salon-editor.server";
import type { EditorDoorView } from "../../../server/salon-editor/salon-editor-door.server";
import type { menusTab } from "../../../server/salon-editor/salon-menus.server";
import type { staffTab } from "../../../server/salon-editor/salon-staff-tab.server";
import { CouponForm, CouponList } from "./salon-coupons-tab";
import { MenuForm, MenuList } from "./salon-menus-tab";
import { formVersion, SalonPartPage } from "./salon-part-form";
import { ExceptionSection, ScheduleSection, StaffForm, StaffList } from "./salon-staff-tab";

/**
 * The スタッフ, メニュー and クーポン pages of the salon editor, the same
 * behind either door (decision 0047): the route modules of
 * /admin/salons/edit/{id}/… and /owner/salons/{id}/… render these.
 */

type PageOf<T> = T & { door: EditorDoorView; salon: EditorSalon; done: string | null };

export function SalonStaffPage({
  loaderData,
  actionData,
}: {
  loaderData: PageOf<Awaited<ReturnType<typeof staffTab>>>;
  actionData: unknown;
}) {
  const { door, salon, members, menus, selected, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = door.paths.staff;
  return (
    <SalonPartPage door={door} salon={salon} base={base} done={done} actionData={actionData}>
      <StaffList
        base={base}
        members={members}
        version={version}
        selectedId={selected?.id ?? null}
      />
      <StaffForm member={selected} menus={menus} version={version} actionData={actionData} />
      {selected ? (
        <>
          {selected.upcomingBookings > 0 && !selected.active ? (
            <p className="rounded-lg bg-brand-50 p-4">
              退職中ですが、今後の予約が{selected.upcomingBookings}
              件残っています。予約の担当はそのままです。
            </p>
          ) : null}
          <ScheduleSection member={selected} version={version} actionData={actionData} />
          <ExceptionSection member={selected} version={version} actionData={actionData} />
        </>
      ) : null}
    </SalonPartPage>
  );
}

export function SalonMenusPage({
  loaderData,
  actionData,
}: {
  loaderData: PageOf<Awaited<ReturnType<typeof menusTab>>>;
  actionData: unknown;
}) {
  const { door, salon, menus, staff, categories, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = door.paths.menus;
  return (
    <SalonPartPage door={door} salon={salon} base={base} done={done} actionData={actionData}>
      <MenuList
        base={base}
        menus={menus}
        staff={staff}
        version={version}
        editingId={editing?.id ?? null}
      />
      <MenuForm
        menu={editing}
        staff={staff}
        categories={categories}
        version={version}
        actionData={actionData}
      />
    </SalonPartPage>
  );
}

export function SalonCouponsPage({
  loaderData,
  actionData,
}: {
  loaderData: PageOf<Awaited<ReturnType<typeof couponsTab>>>;
  actionData: unknown;
}) {
  const { door, salon, coupons, menus, stylists, today, editing, done } = loaderData;
  const version = formVersion(salon.version, actionData);
  const base = door.paths.coupons;
  return (
    <SalonPartPage door={door} salon={salon} base={base} done={done} actionData={actionData}>
      <CouponList
        base={base}
        coupons={coupons}
        menus={menus}
        stylists={stylists}
        version={version}
        editingId={editing?.id ?? null}
      />
      <CouponForm
        coupon={editing}
        menus={menus}
        stylists={stylists}
        today={today}
        version={version}
        actionData={actionData}
      />
    </SalonPartPage>
  );
}
