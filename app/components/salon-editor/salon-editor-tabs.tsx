import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { type EditorTab, editorTabLabels, editorTabs } from "../../../common/salon-editor-door";
import type { EditorDoorView } from "../../../server/salon-editor/salon-editor-door.server";
import { AdminFrame } from "../admin/admin-frame";
import { OwnerPage } from "../owner/owner-frame";

/**
 * The salon editor is one salon seen through tabs, as a salon back office
 * shows it: each tab is its own page (and form), so a save touches one part
 * and works without JavaScript. The tabs' addresses are the door's
 * (decision 0047): /admin/salons/edit/{id}/… or /owner/salons/{id}/….
 */
export function SalonEditorTabs({
  paths,
  salonName,
}: {
  paths: Record<EditorTab, string>;
  salonName: string;
}) {
  return (
    <nav aria-label={`${salonName}の編集メニュー`}>
      <ul className="flex flex-wrap gap-1 border-b border-neutral-300">
        {editorTabs.map((tab) => (
          <li key={tab}>
            <NavLink
              to={paths[tab]}
              end
              className={({ isActive }) =>
                `-mb-px inline-block rounded-t-lg border px-3 py-1.5 font-bold ${
                  isActive
                    ? "border-neutral-300 border-b-white bg-white text-brand-700"
                    : "border-transparent text-neutral-700 hover:bg-neutral-100"
                }`
              }
            >
              {editorTabLabels[tab]}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Every editor page's frame behind its door: the admin frame, or a page
 * inside the salon's back-office frame (its name, the switcher, its
 * sections: the layout route of /owner/salons/{id} draws it), with the
 * editor's tabs first.
 */
export function SalonEditorFrame({
  door,
  salon,
  actions,
  children,
}: {
  door: EditorDoorView;
  salon: { id: string; name: string };
  actions?: ReactNode;
  children: ReactNode;
}) {
  const tabs = <SalonEditorTabs paths={door.paths} salonName={salon.name} />;
  if (door.kind === "owner") {
    return (
      <OwnerPage title="サロン情報の編集" actions={actions}>
        {tabs}
        {children}
      </OwnerPage>
    );
  }
  return (
    <AdminFrame title={`${salon.name}の編集`} actions={actions}>
      {tabs}
      {children}
    </AdminFrame>
  );
}
