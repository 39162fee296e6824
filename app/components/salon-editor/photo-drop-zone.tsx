import { type DragEvent, useEffect, useRef, useState } from "react";

export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";

/**
 * The upload form's file picker. Without JavaScript it is a plain file
 * input in a multipart form; once hydrated the frame around it also takes a
 * dropped file, puts it in the input and submits the form, so both ways
 * send the same request. Keyboard and screen-reader users keep the input.
 */
export function PhotoDropZone({ id, error }: { id: string; error?: string }) {
  const [enhanced, setEnhanced] = useState(false);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setEnhanced(true), []);

  const onDragOver = (event: DragEvent<HTMLFieldSetElement>) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  const onDrop = (event: DragEvent<HTMLFieldSetElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    const field = input.current;
    if (!file || !field) return;
    const one = new DataTransfer();
    one.items.add(file);
    field.files = one.files;
    field.form?.requestSubmit();
  };

  return (
    <fieldset
      onDragOver={enhanced ? onDragOver : undefined}
      onDragLeave={enhanced ? () => setOver(false) : undefined}
      onDrop={enhanced ? onDrop : undefined}
      className={`flex flex-col gap-2 rounded-lg border-2 border-dashed p-6 ${
        over ? "border-brand-700 bg-brand-50" : "border-neutral-400"
      }`}
    >
      <legend className="sr-only">写真のアップロード</legend>
      <label htmlFor={id} className="font-bold">
        写真のファイル
        <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">必須</span>
      </label>
      <p id={`${id}-hint`} className="text-sm text-neutral-700">
        JPEG・PNG・WebP・HEIC、10MBまで。位置情報などの撮影情報は削除して保存します。
        {enhanced ? "この枠の中に写真をドラッグ＆ドロップしてもアップロードできます。" : null}
      </p>
      <input
        ref={input}
        id={id}
        name="photo"
        type="file"
        accept={PHOTO_ACCEPT}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ")}
        aria-invalid={error ? true : undefined}
        className="block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-neutral-500 file:bg-white file:px-3 file:py-1.5 file:font-bold"
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-bold text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
