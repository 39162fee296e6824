import { Link } from "react-router";
import { formatYen } from "../../../common/format";
import { photoSrcSet } from "../../../common/photo-variants";
import type { SalonPhoto } from "../../../server/salons/salon-detail";
import { bookingHref } from "./salon-detail-sections";

/**
 * /salons/:id/styles: the salon's photos as a gallery, each with the stylist
 * who did the style and its menu (with a way to book it) where the salon
 * tagged them.
 */
export function SalonStylesView({ slug, photos }: { slug: string; photos: SalonPhoto[] }) {
  return (
    <section aria-labelledby="salon-styles" className="mt-10">
      <h2 id="salon-styles" className="border-l-4 border-brand-700 pl-3 text-xl font-bold">
        スタイル（{photos.length}枚）
      </h2>
      {photos.length === 0 ? (
        <p className="mt-4">このサロンのスタイル写真はまだありません。</p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {photos.map((photo, index) => (
            <li key={photo.url} className="flex flex-col rounded-lg border border-neutral-200">
              <img
                src={photo.url}
                srcSet={photoSrcSet(photo.variants)}
                sizes={
                  photo.variants.length === 0
                    ? undefined
                    : "(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
                }
                alt={photo.alt}
                width={photo.width}
                height={photo.height}
                loading={index < 2 ? "eager" : "lazy"}
                decoding="async"
                className="h-auto w-full rounded-t-lg object-cover"
              />
              {photo.stylistSlug || photo.menuId ? (
                <dl className="flex flex-1 flex-col gap-1 p-3 text-sm">
                  {photo.stylistSlug ? (
                    <div className="flex gap-2">
                      <dt className="font-bold">スタイリスト</dt>
                      <dd>
                        <Link to={`/salons/staffs/${photo.stylistSlug}`} className="underline">
                          {photo.stylistName}
                        </Link>
                      </dd>
                    </div>
                  ) : null}
                  {photo.menuId ? (
                    <div className="flex flex-wrap items-center gap-2">
                      <dt className="font-bold">メニュー</dt>
                      <dd>
                        {photo.menuName} {formatYen(photo.menuPrice ?? 0)}
                      </dd>
                      <dd className="w-full">
                        <Link
                          to={bookingHref(slug, { menu: photo.menuId })}
                          className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800"
                          aria-label={`このメニューで予約（${photo.menuName}）`}
                        >
                          このメニューで予約
                        </Link>
                      </dd>
                    </div>
                  ) : null}
                </dl>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
