import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { genderLabels } from "../../../common/profile.schema";
import { ErrorSummary, SelectField, TextField } from "../form/field";
import { AccountFrame, linkClass, Notice, SubmitButton } from "./account-frame";
import { LineLinkSection, type LineSection, NotificationSettingsLink } from "./line-link-section";

type Profile = {
  name: string;
  nameKana: string;
  phone: string;
  gender: string;
  birthDate: string | null;
  completed: boolean;
} | null;

type Props = {
  email: string;
  profile: Profile;
  /** LINE's section, or null where LINE sign-in is not configured. */
  line: LineSection | null;
  actionData?: { errors: Record<string, string | undefined>; values: Record<string, string> };
};

const genderOptions = Object.entries(genderLabels).map(([value, label]) => ({ value, label }));

/** /account/edit: the account record, then links to the email and password screens. */
export function ProfileForm({ email, profile, line, actionData }: Props) {
  const busy = useNavigation().state === "submitting";
  const [params] = useSearchParams();
  const errors = actionData?.errors ?? {};
  const values = actionData?.values ?? {
    name: profile?.name ?? "",
    nameKana: profile?.nameKana ?? "",
    phone: profile?.phone ?? "",
    gender: profile?.gender ?? "",
    birthDate: profile?.birthDate ?? "",
  };
  return (
    <AccountFrame
      title="アカウント編集"
      lead={
        profile?.completed
          ? undefined
          : "ご予約に使うお客様情報を登録してください。登録が済むまで、ほかのページは利用できません。"
      }
    >
      {params.get("saved") === "1" ? <Notice>お客様情報を保存しました。</Notice> : null}
      <Form method="post" noValidate className="flex flex-col gap-5">
        <ErrorSummary errors={errors} />
        <TextField
          id="profile-name"
          name="name"
          label="お名前"
          autoComplete="name"
          required
          defaultValue={values.name}
          error={errors.name}
        />
        <TextField
          id="profile-kana"
          name="nameKana"
          label="お名前（フリガナ）"
          hint="例：ヤマダ ハナコ"
          required
          defaultValue={values.nameKana}
          error={errors.nameKana}
        />
        <TextField
          id="profile-phone"
          name="phone"
          type="tel"
          label="電話番号"
          autoComplete="tel"
          hint="例：090-1234-5678（ハイフンはあってもなくても構いません）"
          required
          defaultValue={values.phone}
          error={errors.phone}
        />
        <SelectField
          id="profile-gender"
          name="gender"
          label="性別"
          required
          placeholder="選択してください"
          options={genderOptions}
          defaultValue={values.gender}
          error={errors.gender}
        />
        <TextField
          id="profile-birth-date"
          name="birthDate"
          type="date"
          label="生年月日（任意）"
          autoComplete="bday"
          defaultValue={values.birthDate ?? ""}
          error={errors.birthDate}
        />
        <SubmitButton busy={busy}>保存する</SubmitButton>
      </Form>
      <section aria-labelledby="login-settings" className="flex flex-col gap-2">
        <h2 id="login-settings" className="font-bold">
          ログイン設定
        </h2>
        <p className="text-sm">メールアドレス：{email}</p>
        <ul className="flex flex-col gap-2">
          <li>
            <Link to="/account/edit/change-email" className={linkClass}>
              メールアドレスを変更する
            </Link>
          </li>
          <li>
            <Link to="/account/edit/change-password" className={linkClass}>
              パスワードを変更する
            </Link>
          </li>
          <li>
            <NotificationSettingsLink />
          </li>
        </ul>
        {/*
          A confirm step that needs no JavaScript: the disclosure opens the
          question, and only its own button signs every device out.
        */}
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer font-bold text-brand-700 underline">
            すべての端末からログアウトする
          </summary>
          <Form
            method="post"
            action="/signout"
            className="mt-2 flex flex-col gap-3 rounded-lg border border-neutral-400 p-4"
          >
            <p>この端末を含む、ログイン中のすべての端末からログアウトします。よろしいですか？</p>
            <input type="hidden" name="scope" value="all" />
            <button
              type="submit"
              className="rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800"
            >
              はい、すべての端末からログアウトする
            </button>
          </Form>
        </details>
      </section>
      {line ? <LineLinkSection line={line} /> : null}
    </AccountFrame>
  );
}
