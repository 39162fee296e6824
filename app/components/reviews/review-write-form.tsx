import { useState } from "react";
import { Form, Link } from "react-router";
import {
  REVIEW_BODY_MAX,
  REVIEW_BODY_MIN,
  REVIEW_TITLE_MAX,
  reviewAspects,
} from "../../../common/reviews";
import type {
  ReviewFormPage,
  ReviewFormValues,
} from "../../../server/reviews/review-form-page.server";
import { linkClass, SubmitButton } from "../accounts/account-frame";
import { ErrorSummary, TextField } from "../form/field";
import { Stars } from "./salon-review";

/**
 * The customer's review of one visit (/account/reviews/:bookingId; issue 30,
 * point 1; decision 0054): the visit it stands on, the overall rating and
 * four optional aspects as radio groups (keyboard: arrows within a group),
 * a title and the text with a character counter. Read-only once the edit
 * window closed; a message instead when the visit cannot be reviewed.
 */

export type ReviewFormResult = {
  errors: Partial<Record<keyof ReviewFormValues | "form", string>>;
  values: ReviewFormValues;
};

const emptyValues: ReviewFormValues = {
  rating: "",
  ratingAtmosphere: "",
  ratingService: "",
  ratingTechnique: "",
  ratingFinish: "",
  title: "",
  body: "",
  version: "",
};

/** Characters as the server counts them (code points). */
const length = (text: string) => [...text.replace(/\r\n?/g, "\n").trim()].length;

function StarGroup({
  name,
  legend,
  required,
  value,
  error,
}: {
  name: string;
  legend: string;
  required?: boolean;
  value: string;
  error?: string;
}) {
  const errorId = `${name}-error`;
  const choices = required ? [5, 4, 3, 2, 1] : [5, 4, 3, 2, 1, 0];
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="font-bold">
        {legend}
        {required ? (
          <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">必須</span>
        ) : (
          <span className="ml-2 text-sm font-normal text-neutral-700">（任意）</span>
        )}
      </legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((n) => {
          const id = `${name}-${n}`;
          const choice = n === 0 ? "" : String(n);
          return (
            <label
              key={n}
              htmlFor={id}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-neutral-400 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-700"
            >
              <input
                type="radio"
                id={id}
                name={name}
                value={choice}
                defaultChecked={value === choice}
                required={required}
              />
              {n === 0 ? "評価しない" : <Stars rating={n} />}
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-bold text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function VisitSummary({ page }: { page: ReviewFormPage }) {
  return (
    <section aria-labelledby="review-visit" className="rounded-lg border border-neutral-300 p-4">
      <h2 id="review-visit" className="text-lg font-bold">
        ご来店内容
        <span className="ml-2 rounded border border-brand-700 px-2 py-0.5 text-xs text-brand-700">
          来店済み
        </span>
      </h2>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[7rem_1fr]">
        <dt className="font-bold">サロン</dt>
        <dd>
          <Link to={`/salons/${page.salon.slug}`} className={linkClass}>
            {page.salon.name}
          </Link>
        </dd>
        <dt className="font-bold">日時</dt>
        <dd>{page.visitLabel}</dd>
        <dt className="font-bold">スタッフ</dt>
        <dd>{page.staffName}</dd>
        <dt className="font-bold">メニュー</dt>
        <dd>{page.menus.join("、")}</dd>
        <dt className="font-bold">予約番号</dt>
        <dd>{page.bookingNumber}</dd>
      </dl>
    </section>
  );
}

function ReadOnlyReview({ page, values }: { page: ReviewFormPage; values: ReviewFormValues }) {
  const rated = reviewAspects.filter((aspect) => values[aspect.key] !== "");
  return (
    <section aria-labelledby="review-own" className="flex flex-col gap-2">
      <h2 id="review-own" className="text-lg font-bold">
        投稿した口コミ
      </h2>
      <p>
        総合評価 <Stars rating={Number(values.rating)} />
      </p>
      {rated.length > 0 ? (
        <p className="text-sm">
          {rated.map((aspect) => `${aspect.label} ${values[aspect.key]}`).join("／")}
        </p>
      ) : null}
      {values.title ? <p className="font-bold">{values.title}</p> : null}
      <p className="whitespace-pre-line break-words">{values.body}</p>
      <p className="text-sm text-neutral-700">
        口コミを編集できる期間（投稿から30日間）は{page.editUntilLabel}に終わりました。
      </p>
    </section>
  );
}

export function ReviewWriteForm({
  page,
  result,
  busy,
}: {
  page: ReviewFormPage;
  result?: ReviewFormResult;
  busy: boolean;
}) {
  const values = result?.values ?? page.values ?? emptyValues;
  const errors = result?.errors ?? {};
  const [bodyLength, setBodyLength] = useState(length(values.body));
  const editing = page.action === "edit";
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8">
      <h1 id="review-heading" className="text-2xl font-bold">
        {editing ? "口コミを編集する" : page.action === "write" ? "口コミを書く" : "口コミ"}
      </h1>
      <VisitSummary page={page} />
      {page.hidden ? (
        <p className="rounded-lg border-2 border-amber-700 bg-amber-50 p-4">
          この口コミは運営の判断で非表示になっています。サロンのページには表示されません。
        </p>
      ) : null}
      {page.closedMessage ? (
        <p id="review-closed" role="status" className="rounded-lg bg-neutral-100 p-4">
          {page.closedMessage}
        </p>
      ) : page.action === "written" && page.values ? (
        <ReadOnlyReview page={page} values={page.values} />
      ) : (
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-6"
          aria-labelledby="review-heading"
        >
          <ErrorSummary errors={errors} />
          <p className="text-sm text-neutral-700">
            {editing
              ? `${page.editUntilLabel}まで編集できます。`
              : `${page.writeUntilLabel}まで投稿できます。投稿から30日間は編集できます。`}
            口コミは「来店済み」の口コミとしてサロンのページに表示されます（お名前は表示されません）。
          </p>
          {editing ? <input type="hidden" name="version" value={values.version} /> : null}
          <StarGroup
            name="rating"
            legend="総合評価"
            required
            value={values.rating}
            error={errors.rating}
          />
          {reviewAspects.map((aspect) => (
            <StarGroup
              key={aspect.key}
              name={aspect.key}
              legend={aspect.label}
              value={values[aspect.key]}
              error={errors[aspect.key]}
            />
          ))}
          <TextField
            id="review-title"
            name="title"
            label="タイトル（任意）"
            hint={`${REVIEW_TITLE_MAX}文字以内`}
            defaultValue={values.title}
            error={errors.title}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="review-body" className="font-bold">
              口コミ
              <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">
                必須
              </span>
            </label>
            <p id="review-body-hint" className="text-sm text-neutral-700">
              {REVIEW_BODY_MIN}〜{REVIEW_BODY_MAX.toLocaleString("ja-JP")}
              文字。ご来店の感想、スタッフの対応、仕上がりなどをお書きください。
            </p>
            <textarea
              id="review-body"
              name="body"
              rows={8}
              required
              defaultValue={values.body}
              onChange={(event) => setBodyLength(length(event.currentTarget.value))}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={[
                "review-body-hint",
                "review-body-count",
                errors.body ? "review-body-error" : null,
              ]
                .filter(Boolean)
                .join(" ")}
              className={`w-full rounded-lg border px-3 py-2 ${errors.body ? "border-red-700 bg-red-50" : "border-neutral-400"}`}
            />
            <p
              id="review-body-count"
              className={`text-sm ${bodyLength > REVIEW_BODY_MAX || (bodyLength > 0 && bodyLength < REVIEW_BODY_MIN) ? "font-bold text-red-700" : "text-neutral-700"}`}
            >
              {bodyLength.toLocaleString("ja-JP")} / {REVIEW_BODY_MAX.toLocaleString("ja-JP")}文字
            </p>
            {errors.body ? (
              <p id="review-body-error" className="text-sm font-bold text-red-700">
                {errors.body}
              </p>
            ) : null}
          </div>
          <SubmitButton busy={busy}>
            {editing ? "口コミを更新する" : "口コミを投稿する"}
          </SubmitButton>
        </Form>
      )}
      <p>
        <Link to={`/account/history?booking=${page.bookingId}`} className={linkClass}>
          予約履歴へ戻る
        </Link>
      </p>
    </div>
  );
}
