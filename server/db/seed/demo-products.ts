import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { products } from "../schema";
import { demoOwnerSalons } from "./demo-week";

/**
 * A few retail items (店販) on the demo owner's first salon, so 会計 can be
 * tried with them after `npm start` (issue 40, §4; decision 0079). Written
 * only while the salon has none: items the demo owner changed are kept.
 */
export const demoProducts = [
  { name: "ヘアオイル 100mL", price: 3300 },
  { name: "シャンプー 300mL", price: 2860 },
  { name: "ヘアワックス", price: 1980 },
] as const;

export async function seedDemoProducts(db: Database): Promise<number> {
  const salon = (await demoOwnerSalons(db))[0];
  if (!salon) return 0;
  const [any] = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.salonId, salon.id))
    .limit(1);
  if (any) return 0;
  await db.insert(products).values(demoProducts.map((p) => ({ salonId: salon.id, ...p })));
  return demoProducts.length;
}
