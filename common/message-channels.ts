import { z } from "zod";
import { choice } from "./field-rules";

/**
 * The kinds of message a visitor chooses a channel for and the channels, as
 * 通知設定 shows them; the kinds and channels themselves are
 * server/db/schema/line.ts's (a test keeps the two lists equal).
 */
export const messageKindLabels = {
  booking: "予約の確定・変更・キャンセル",
  reminder: "前日のリマインダー",
  waitlist: "キャンセル待ちのご案内",
  review: "口コミのお願い",
} as const;
export type MessageKindName = keyof typeof messageKindLabels;
export const messageKindNames = Object.keys(messageKindLabels) as [
  MessageKindName,
  ...MessageKindName[],
];

export const messageChannelLabels = { mail: "メール", line: "LINE", both: "両方" } as const;
export type MessageChannelName = keyof typeof messageChannelLabels;
const channelNames = Object.keys(messageChannelLabels) as [
  MessageChannelName,
  ...MessageChannelName[],
];

/** The 通知設定 form: one channel for every kind, checked in the browser and the action. */
export const messageChannelsSchema = z.object(
  Object.fromEntries(
    messageKindNames.map((kind) => [kind, choice(messageKindLabels[kind], channelNames)]),
  ) as Record<MessageKindName, ReturnType<typeof choice<typeof channelNames>>>,
);
export type MessageChannelsInput = z.infer<typeof messageChannelsSchema>;

/** Why LINE cannot be chosen yet, or null when it can. */
export function lineUnavailableReason(line: { linked: boolean; following: boolean }) {
  if (!line.linked) return "LINE連携後に選べます";
  if (!line.following) return "公式アカウントを友だち追加すると選べます";
  return null;
}
