import { z } from "zod";
import { uuidText } from "../../common/field-rules";

const photoId = uuidText("写真");
const version = z.coerce
  .number({ error: "ページを再読み込みしてから、もう一度操作してください。" })
  .int()
  .min(0);
/** A select's choice: "" is none (the photo untagged), else the id. */
const optionalId = (label: string) =>
  z.union([
    z.literal("").transform(() => null),
    uuidText(label).transform((id) => id.toLowerCase()),
  ]);
const altText = z.string().trim().max(120, "写真の説明は120文字以内で入力してください。");

/**
 * The forms of /admin/salons/edit/:id/photos. The file itself is read from
 * the form apart (a File is not text); its content is checked by processPhoto.
 */
export const salonPhotoActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("upload"), version, alt: altText.default("") }),
    z.object({
      intent: z.literal("move"),
      version,
      photoId,
      direction: z.enum(["up", "down"], { error: "移動の向きが正しくありません。" }),
    }),
    z.object({
      intent: z.literal("alt"),
      version,
      photoId,
      alt: altText.min(1, "写真の説明を入力してください（画面を読み上げる方に伝わります）。"),
    }),
    z.object({ intent: z.literal("delete"), version, photoId }),
    // スタイル (issue 31): the stylist who did the style shown and its menu, both optional.
    z.object({
      intent: z.literal("tag"),
      version,
      photoId,
      staffId: optionalId("スタイリスト").default(""),
      menuId: optionalId("メニュー").default(""),
    }),
  ],
  { error: "操作の指定が正しくありません。" },
);
export type SalonPhotoAction = z.infer<typeof salonPhotoActionSchema>;
