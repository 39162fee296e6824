import { Form, Link, useNavigation } from "react-router";
import { memberRoleHints, memberRoleLabels } from "../../../common/member-roles";
import type {
  MemberFormValues,
  MembersPageData,
  SalonMember,
} from "../../../server/owner/members.server";
import { buttonClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, SelectField, TextField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { OwnerPage } from "./owner-frame";

export type MembersResult = {
  errors: Record<string, string | undefined>;
  values: MemberFormValues;
};

const roleOptions = Object.entries(memberRoleLabels).map(([value, label]) => ({ value, label }));

/**
 * /owner/salons/{id}/members: the salon's owners, its staff with their
 * roles (change, remove), the invitations not yet accepted (cancel), and
 * the invitation form (decision 0045).
 */
export function MembersPage({ data, result }: { data: MembersPageData; result?: MembersResult }) {
  const busy = useNavigation().state === "submitting";
  const { people } = data;
  const base = `/owner/salons/${data.salon.id}/members`;
  const errors = result?.errors ?? {};
  const typed = result?.values;
  const inviteTyped = typed?.intent === "invite" ? typed : undefined;
  return (
    <OwnerPage title="メンバー">
      {data.done && !result ? <FocusedNotice>{data.done}</FocusedNotice> : null}
      {result && typed?.intent !== "invite" ? <ErrorSummary errors={errors} /> : null}

      {data.removing ? (
        <section
          aria-labelledby="remove-heading"
          className="flex max-w-2xl flex-col gap-3 rounded-lg border-2 border-red-700 p-4"
        >
          <h2 id="remove-heading" className="text-xl font-bold">
            {data.removing.name || data.removing.email} さんをメンバーから外しますか？
          </h2>
          <p>外すと、このサロンの管理画面をすぐに開けなくなります。アカウント自体は残ります。</p>
          <Form method="post" className="flex flex-wrap gap-3">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="userId" value={data.removing.userId} />
            <input type="hidden" name="version" value={data.removing.version} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" className={buttonClass} disabled={busy}>
              メンバーから外す
            </button>
            <Link to={base} className="self-center font-bold text-brand-700 underline">
              やめる
            </Link>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby="owners-heading" className="flex flex-col gap-2">
        <h2 id="owners-heading" className="text-xl font-bold">
          オーナー
        </h2>
        {people.owners.length === 0 ? (
          <p>オーナーは登録されていません。</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {people.owners.map((owner) => (
              <li key={owner.userId}>
                <span className="font-bold">{owner.name || "（お名前なし）"}</span>{" "}
                <span className="break-all text-neutral-700">{owner.email}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="members-heading" className="flex flex-col gap-3">
        <h2 id="members-heading" className="text-xl font-bold">
          スタッフ（{people.members.length}人）
        </h2>
        {people.members.length === 0 ? (
          <p>スタッフはまだいません。下のフォームから招待できます。</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {people.members.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                stylists={people.stylistsWithoutAccount}
                base={base}
                busy={busy}
              />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="invitations-heading" className="flex flex-col gap-3">
        <h2 id="invitations-heading" className="text-xl font-bold">
          招待中（{people.invitations.length}件）
        </h2>
        {people.invitations.length === 0 ? (
          <p>承認待ちの招待はありません。</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {people.invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex flex-wrap items-center gap-3 rounded-lg border border-neutral-300 p-3"
              >
                <div className="flex min-w-0 flex-col">
                  <span className="font-bold">{invitation.name || "（お名前なし）"}</span>
                  <span className="break-all text-sm text-neutral-700">{invitation.email}</span>
                  <span className="text-sm">
                    {invitation.roleLabel}
                    {invitation.staffName ? `（${invitation.staffName}）` : ""}・有効期限{" "}
                    {invitation.expiresLabel}
                  </span>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <button
                    type="submit"
                    className={secondaryButtonClass}
                    disabled={busy}
                    aria-label={`${invitation.email} への招待を取り消す`}
                  >
                    招待を取り消す
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="invite-heading" className="flex max-w-2xl flex-col gap-4">
        <h2 id="invite-heading" className="text-xl font-bold">
          メンバーを招待する
        </h2>
        <ul className="list-disc pl-5 text-sm">
          {roleOptions.map((role) => (
            <li key={role.value}>
              <span className="font-bold">{role.label}</span>：
              {memberRoleHints[role.value as keyof typeof memberRoleHints]}
            </li>
          ))}
        </ul>
        <Form method="post" noValidate className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="invite" />
          {inviteTyped ? <ErrorSummary errors={errors} /> : null}
          <TextField
            id="invite-name"
            name="name"
            label="お名前"
            autoComplete="off"
            required
            defaultValue={inviteTyped?.name ?? ""}
            error={inviteTyped ? errors.name : undefined}
          />
          <TextField
            id="invite-email"
            name="email"
            type="email"
            label="メールアドレス"
            autoComplete="off"
            required
            defaultValue={inviteTyped?.email ?? ""}
            error={inviteTyped ? errors.email : undefined}
            hint="招待メールをこのアドレスに送ります。すでにSalon Naviのアカウントがあれば、そのアカウントに追加されます。"
          />
          <SelectField
            id="invite-role"
            name="role"
            label="役割"
            required
            options={roleOptions}
            placeholder="選択してください"
            defaultValue={inviteTyped?.role ?? ""}
            error={inviteTyped ? errors.role : undefined}
          />
          <SelectField
            id="invite-staff"
            name="staffId"
            label="スタイリスト（役割がスタイリストのとき）"
            options={people.stylistsWithoutAccount.map((s) => ({ value: s.id, label: s.name }))}
            placeholder="選択しない"
            defaultValue={inviteTyped?.staffId ?? ""}
            error={inviteTyped ? errors.staffId : undefined}
            hint={
              people.stylistsWithoutAccount.length === 0
                ? "アカウントのないスタイリストはいません。"
                : "掲載中で、まだアカウントのないスタイリストから選びます。"
            }
          />
          <div>
            <button type="submit" className={buttonClass} disabled={busy}>
              招待メールを送る
            </button>
          </div>
        </Form>
      </section>
    </OwnerPage>
  );
}

function MemberRow({
  member,
  stylists,
  base,
  busy,
}: {
  member: SalonMember;
  stylists: MembersPageData["people"]["stylistsWithoutAccount"];
  base: string;
  busy: boolean;
}) {
  const id = `member-${member.userId}`;
  const stylistOptions = [
    ...(member.staffId && member.staffName
      ? [{ value: member.staffId, label: member.staffName }]
      : []),
    ...stylists.map((s) => ({ value: s.id, label: s.name })),
  ];
  const who = member.name || member.email;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-3">
      <div className="flex min-w-0 flex-col">
        <span className="font-bold">{member.name || "（お名前なし）"}</span>
        <span className="break-all text-sm text-neutral-700">{member.email}</span>
        <span>
          {member.roleLabel}
          {member.staffName ? `（${member.staffName}）` : ""}
        </span>
      </div>
      <Form method="post" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="userId" value={member.userId} />
        <input type="hidden" name="version" value={member.version} />
        <SelectField
          id={`${id}-role`}
          name="role"
          label={`${who} さんの役割`}
          options={roleOptions}
          defaultValue={member.role}
        />
        <SelectField
          id={`${id}-staff`}
          name="staffId"
          label={`${who} さんのスタイリスト（役割がスタイリストのとき）`}
          options={stylistOptions}
          placeholder="選択しない"
          defaultValue={member.staffId ?? ""}
        />
        <button type="submit" className={secondaryButtonClass} disabled={busy}>
          役割を変更
        </button>
        <Link
          to={`${base}?remove=${encodeURIComponent(member.userId)}#remove-heading`}
          className="self-center font-bold text-red-700 underline"
          aria-label={`${who} さんをメンバーから外す`}
        >
          メンバーから外す
        </Link>
      </Form>
    </li>
  );
}
