import type { Page } from "@playwright/test";
import sharp from "sharp";
import { exactLabel } from "./account-helpers";

/** The outcome of the last save in the salon editor (not the loading overlay, also a status). */
export const notice = (page: Page) => page.locator("main p[role=status]");

/** Types into the field with this label, as a keyboard user does (focus, then type). */
export async function typeInto(page: Page, label: string | RegExp, text: string) {
  const field = page.getByLabel(typeof label === "string" ? exactLabel(label) : label);
  await field.focus();
  await field.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

/** A phone's JPEG, larger than the widest variant, with EXIF a camera writes (a GPS position). */
export async function phonePhoto() {
  const buffer = await sharp({
    create: { width: 1800, height: 1200, channels: 3, background: { r: 200, g: 150, b: 120 } },
  })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 40/1 52/1" },
    })
    .toBuffer();
  return { name: "IMG_0042.JPG", mimeType: "image/jpeg", buffer };
}
