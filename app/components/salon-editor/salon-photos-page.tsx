import { Form, Link, useNavigation } from "react-router";
import { photoSrcSet } from "../../../common/photo-variants";
import type { EditorDoorView } from "../../../server/salon-editor/salon-editor-door.server";
import type {
  listSalonPhotos,
  photoTagChoices,
} from "../../../server/salon-editor/salon-photos.server";
import { Notice } from "../accounts/account-frame";
import { buttonClass, linkClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary } from "../form/field";
import { PhotoDropZone } from "./photo-drop-zone";
import { SalonEditorFrame } from "./salon-editor-tabs";

type SalonPhotoRow = Awaited<ReturnType<typeof listSalonPhotos>>[number];

const doneMessages: Record<string, string> = {
  upload: "写真を追加しました。",
  move: "写真の順番を変更しました。",
  alt: "写真の説明を保存しました。",
  delete: "写真を削除しました。",
  tag: "写真のスタイリストとメニューを保存しました。",
};

type TagChoices = Awaited<ReturnType<typeof photoTagChoices>>;
const selectClass = "w-full rounded-lg border border-neutral-400 bg-white px-3 py-1.5";

/** The salon editor's 写真 tab: upload, then each photo's description, order and removal. */
export function SalonPhotosPage({
  door,
  salon,
  photos,
  tagChoices,
  done,
  actionData,
}: {
  /** Which door the editor was opened through (decision 0047). */
  door: EditorDoorView;
  salon: { id: string; name: string; slug: string; status: string; version: number };
  photos: SalonPhotoRow[];
  /** The salon's own stylists and menus a photo can name (スタイル). */
  tagChoices: TagChoices;
  done: string | null;
  actionData:
    | { errors: Record<string, string | undefined>; photoId: string | null; alt: string }
    | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const uploading = busy && navigation.formData?.get("intent") === "upload";
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const base = door.paths.photos;
  return (
    <SalonEditorFrame door={door} salon={salon}>
      {salon.status === "published" ? (
        <p>
          <Link to={`/salons/${salon.slug}`} className={linkClass}>
            公開ページを見る
          </Link>
        </p>
      ) : null}
      {done && doneMessages[done] && !actionData ? <Notice>{doneMessages[done]}</Notice> : null}
      <ErrorSummary errors={errors} />
      <section aria-labelledby="photo-upload-heading" className="flex flex-col gap-4">
        <h2 id="photo-upload-heading" className="text-xl font-bold">
          写真を追加
        </h2>
        <Form
          method="post"
          action={base}
          encType="multipart/form-data"
          className="flex max-w-2xl flex-col gap-4"
        >
          <input type="hidden" name="intent" value="upload" />
          <input type="hidden" name="version" value={salon.version} />
          <PhotoDropZone id="photo-file" error={errors.photo} />
          <div className="flex flex-col gap-1">
            <label htmlFor="photo-alt" className="font-bold">
              写真の説明（代替テキスト）
            </label>
            <p id="photo-alt-hint" className="text-sm text-neutral-700">
              空欄のときは「{salon.name}の写真」になります。あとから変更できます。
            </p>
            <input
              id="photo-alt"
              name="alt"
              maxLength={120}
              aria-describedby="photo-alt-hint"
              defaultValue={actionData && !actionData.photoId ? actionData.alt : ""}
              className="w-full rounded-lg border border-neutral-400 px-3 py-2"
            />
          </div>
          <div className="flex items-center gap-3">
            <button type="submit" disabled={busy} className={buttonClass}>
              アップロードする
            </button>
            <p aria-live="polite" className="text-sm">
              {uploading ? "アップロード中です…" : ""}
            </p>
          </div>
        </Form>
      </section>
      <section aria-labelledby="photo-list-heading" className="flex flex-col gap-4">
        <h2 id="photo-list-heading" className="text-xl font-bold">
          登録済みの写真（{photos.length}枚）
        </h2>
        <p className="text-sm">
          1枚目がカバー写真として検索結果やサロンページの先頭に表示されます。
        </p>
        {photos.length === 0 ? (
          <p>まだ写真がありません。</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {photos.map((photo, index) => {
              const position = `${index + 1}枚目${index === 0 ? "（カバー写真）" : ""}`;
              const altId = `photo-alt-${photo.id}`;
              const altValue =
                actionData?.photoId === photo.id && errors.alt !== undefined
                  ? actionData.alt
                  : photo.alt;
              return (
                <li
                  key={photo.id}
                  aria-label={position}
                  className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-3 sm:flex-row"
                >
                  <img
                    src={photo.url}
                    srcSet={photoSrcSet(photo.variants)}
                    sizes={photo.variants.length > 0 ? "160px" : undefined}
                    alt={photo.alt}
                    width={photo.width}
                    height={photo.height}
                    className="h-auto w-40 shrink-0 rounded object-cover"
                  />
                  <div className="flex flex-1 flex-col gap-2">
                    <p className="font-bold">{position}</p>
                    <Form method="post" action={base} className="flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="alt" />
                      <input type="hidden" name="version" value={salon.version} />
                      <input type="hidden" name="photoId" value={photo.id} />
                      <div className="flex min-w-48 flex-1 flex-col gap-1">
                        <label htmlFor={altId} className="text-sm font-bold">
                          写真の説明
                        </label>
                        <input
                          id={altId}
                          name="alt"
                          maxLength={120}
                          defaultValue={altValue}
                          key={altValue}
                          className="w-full rounded-lg border border-neutral-400 px-3 py-1.5"
                        />
                      </div>
                      <button type="submit" disabled={busy} className={secondaryButtonClass}>
                        説明を保存
                        <span className="sr-only">（{position}）</span>
                      </button>
                    </Form>
                    <Form method="post" action={base} className="flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="tag" />
                      <input type="hidden" name="version" value={salon.version} />
                      <input type="hidden" name="photoId" value={photo.id} />
                      <div className="flex min-w-40 flex-1 flex-col gap-1">
                        <label htmlFor={`photo-staff-${photo.id}`} className="text-sm font-bold">
                          スタイリスト
                        </label>
                        <select
                          id={`photo-staff-${photo.id}`}
                          name="staffId"
                          defaultValue={photo.staffId ?? ""}
                          className={selectClass}
                        >
                          <option value="">指定なし</option>
                          {tagChoices.stylists.map((stylist) => (
                            <option key={stylist.id} value={stylist.id}>
                              {stylist.name}
                            </option>
                          ))}
                        </select>
                      </div>
                      <div className="flex min-w-40 flex-1 flex-col gap-1">
                        <label htmlFor={`photo-menu-${photo.id}`} className="text-sm font-bold">
                          メニュー
                        </label>
                        <select
                          id={`photo-menu-${photo.id}`}
                          name="menuId"
                          defaultValue={photo.menuId ?? ""}
                          className={selectClass}
                        >
                          <option value="">指定なし</option>
                          {tagChoices.menus.map((menu) => (
                            <option key={menu.id} value={menu.id}>
                              {menu.category}：{menu.name}
                            </option>
                          ))}
                        </select>
                      </div>
                      <button type="submit" disabled={busy} className={secondaryButtonClass}>
                        スタイル情報を保存
                        <span className="sr-only">（{position}）</span>
                      </button>
                    </Form>
                    <div className="flex flex-wrap gap-2">
                      {(["up", "down"] as const).map((direction) =>
                        (direction === "up" ? index > 0 : index < photos.length - 1) ? (
                          <Form key={direction} method="post" action={base}>
                            <input type="hidden" name="intent" value="move" />
                            <input type="hidden" name="version" value={salon.version} />
                            <input type="hidden" name="photoId" value={photo.id} />
                            <input type="hidden" name="direction" value={direction} />
                            <button type="submit" disabled={busy} className={secondaryButtonClass}>
                              {direction === "up" ? "前へ移動" : "後ろへ移動"}
                              <span className="sr-only">（{position}）</span>
                            </button>
                          </Form>
                        ) : null,
                      )}
                      <Form method="post" action={base}>
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="version" value={salon.version} />
                        <input type="hidden" name="photoId" value={photo.id} />
                        <button type="submit" disabled={busy} className={secondaryButtonClass}>
                          削除
                          <span className="sr-only">（{position}）</span>
                        </button>
                      </Form>
                    </div>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </SalonEditorFrame>
  );
}
