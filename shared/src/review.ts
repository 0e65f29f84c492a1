import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from './constants.ts';
import { DESCRIPTION_TOO_LONG } from './clips.ts';
import { rowId } from './input.ts';
import { PRIVACY_LEVELS } from './tiktok.ts';
import { upload } from './posting.ts';
import { instagramPostOptions } from './reels.ts';
import { ACCOUNT_PLATFORMS, choosesPrivacy } from './accounts.ts';
import { YOUTUBE_PRIVACY_NEEDED, YOUTUBE_PRIVACY_STATUSES } from './youtube.ts';
import { commercialProblem, tiktokCommercial, type TikTokCommercialInput } from './tiktok-commercial.ts';

/*
 * The review inbox (rest-api.md "Automation"): clips of a streamer in `review` publish mode wait
 * here until the user approves (posts) or rejects them.
 */

/** How many clips one bulk approval may name. */
export const REVIEW_BULK_MAX = 100;

const clipIdField = z.string({ error: 'clip_id is required' }).trim().min(1, 'clip_id is required').max(200);

export const reviewClipInput = z.object({ clip_id: clipIdField });

export const approveClipInput = z.object({
  clip_id: clipIdField,
  /** Blank or absent: the best-ranked suggestion. */
  description: z.string().max(DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG).optional(),
  /** Absent: every account linked to the clip's streamer. */
  account_ids: z.array(rowId('account_ids must be account ids')).min(1, 'Choose at least one account').max(20).optional(),
  /** YouTube's notifySubscribers for the YouTube accounts; absent: each account's own choice (default false). */
  youtube_notify_subscribers: z.boolean().optional(),
  /** TikTok's commercial content disclosure for the TikTok accounts; absent: nothing disclosed. */
  tiktok_commercial: tiktokCommercial.optional(),
  /** Reels options for the Instagram accounts; absent: shared to the feed, no trial, no collaborators. */
  instagram: instagramPostOptions.optional(),
});
export type ApproveClipInput = z.input<typeof approveClipInput>;
export type ApproveClipRequest = z.output<typeof approveClipInput>;

const BULK_RULE = `clip_ids must list 1 to ${REVIEW_BULK_MAX} clips`;
export const approveClipsInput = z.object({
  clip_ids: z.array(clipIdField, { error: BULK_RULE }).min(1, BULK_RULE).max(REVIEW_BULK_MAX, BULK_RULE),
  /** As approveClipInput's, for every clip. */
  youtube_notify_subscribers: z.boolean().optional(),
});
export type ApproveClipsInput = z.input<typeof approveClipsInput>;

export const approveClipResult = z.object({ message: z.string(), uploads: z.array(upload) });
export type ApproveClipResult = z.infer<typeof approveClipResult>;

export const approveClipsResult = z.object({
  approved: z.number().int(),
  uploads: z.array(upload),
  /** Clips of the request that were not approved, with the reason; the others are approved regardless. */
  failed: z.array(z.object({ clip_id: z.string(), message: z.string() })),
});
export type ApproveClipsResult = z.infer<typeof approveClipsResult>;

export const reviewCount = z.object({ count: z.number().int() });

/** The choices made once per account for posts nobody sets up one by one (approvals, auto posts). */
export const accountPostSettings = z.object({
  tiktok_account_id: z.string(),
  account: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** A TikTok account's choice; null until the user chooses (approvals to the account are refused until then), and always for a YouTube account. */
  privacy_level: z.enum(PRIVACY_LEVELS).nullable(),
  /** A YouTube account's choice (private, unlisted, public); null until chosen, and always for a TikTok account. */
  youtube_privacy: z.enum(YOUTUBE_PRIVACY_STATUSES).nullable(),
  /** A YouTube account's choice of notifySubscribers for its approved and automatic posts; false for a TikTok account. */
  youtube_notify_subscribers: z.boolean(),
  disable_comment: z.boolean(),
  disable_duet: z.boolean(),
  disable_stitch: z.boolean(),
});
export type AccountPostSettings = z.infer<typeof accountPostSettings>;

export const saveAccountPostSettingsInput = z.object({
  id: rowId('id is required'),
  /** Required for a TikTok account. */
  privacy_level: z.enum(PRIVACY_LEVELS, { error: `privacy_level must be one of ${PRIVACY_LEVELS.join(', ')}` }).optional(),
  /** Required for a YouTube account (the interactions below are TikTok's: ignored for YouTube). */
  youtube_privacy: z.enum(YOUTUBE_PRIVACY_STATUSES, { error: YOUTUBE_PRIVACY_NEEDED }).optional(),
  /** A YouTube account's notifySubscribers (default false; ignored for TikTok). */
  youtube_notify_subscribers: z.boolean().optional(),
  disable_comment: z.boolean().optional(),
  disable_duet: z.boolean().optional(),
  disable_stitch: z.boolean().optional(),
});
export type SaveAccountPostSettingsInput = z.input<typeof saveAccountPostSettingsInput>;

/** The refusal of an approval to an account whose privacy nobody chose (TikTok's guidelines: no default). */
export function privacyNeededMessage(account: string): string {
  return `Choose who can see posts on ${account} before approving`;
}

/** Whether someone chose who sees the account's approved posts (its platform's privacy field). */
export function privacyChosen(settings: Pick<AccountPostSettings, 'platform' | 'privacy_level' | 'youtube_privacy'>): boolean {
  if (!choosesPrivacy(settings.platform)) return true;
  return settings.platform === 'youtube' ? settings.youtube_privacy !== null : settings.privacy_level !== null;
}

/**
 * Why an approval to these accounts would be refused for a privacy nobody chose, in the server's
 * words (the first such account), or null.
 */
export function approvalPrivacyProblem(accountIds: readonly string[], settings: readonly AccountPostSettings[]): string | null {
  const unchosen = settings.find((entry) => accountIds.includes(entry.tiktok_account_id) && !privacyChosen(entry));
  return unchosen ? privacyNeededMessage(unchosen.account) : null;
}

/**
 * Why an approval with this disclosure would be refused for the privacy chosen for one of its TikTok
 * accounts (branded content cannot be private), or null.
 */
export function approvalCommercialProblem(accountIds: readonly string[], settings: readonly AccountPostSettings[], commercial: TikTokCommercialInput | undefined): string | null {
  const chosen = settings.filter((entry) => accountIds.includes(entry.tiktok_account_id) && entry.platform === 'tiktok');
  return chosen.map((entry) => commercialProblem(commercial, entry.privacy_level)).find((problem) => problem !== null) ?? null;
}

/*
 * Approval links (rest-api.md "Tokens and agents"): a clip waiting for review shared with someone
 * without an account (the streamer), who approves or rejects it once within APPROVAL_LINK_DAYS.
 */

/** Where the client shows an approval link's page: this, a slash, then the link's token. */
export const APPROVAL_PAGE_PATH = '/approve';

/** How long an approval link works. */
export const APPROVAL_LINK_DAYS = 7;
/** The longest note a rejection through a link may carry. */
export const APPROVAL_NOTE_MAX_LENGTH = 500;

/** Why a link cannot be used, as its page puts it: a headline and what to do. */
export const APPROVAL_LINK_PROBLEMS = {
  invalid: { title: 'This link is not valid', detail: 'Check that it was copied whole, or ask for a new one.' },
  expired: { title: 'This link has expired', detail: 'Links work for 7 days. Ask for a new one.' },
  used: { title: 'This link has already been used', detail: 'Each link takes one answer.' },
  replaced: { title: 'This link was replaced', detail: 'A newer link was made for this clip. Use the latest one you were sent.' },
  settled: { title: 'This clip no longer needs an answer', detail: 'It was already reviewed.' },
} as const;
export type ApprovalLinkProblem = keyof typeof APPROVAL_LINK_PROBLEMS;

const problemMessage = (problem: ApprovalLinkProblem) => `${APPROVAL_LINK_PROBLEMS[problem].title}. ${APPROVAL_LINK_PROBLEMS[problem].detail}`;

/** What the API answers (each a 4xx) when a link cannot be used: the page's headline and advice in one. */
export const APPROVAL_LINK_MESSAGES = {
  invalid: problemMessage('invalid'),
  expired: problemMessage('expired'),
  used: problemMessage('used'),
  replaced: problemMessage('replaced'),
  settled: problemMessage('settled'),
} as const satisfies Record<ApprovalLinkProblem, string>;

/** The problem an API message names, or null for any other failure. */
export function approvalLinkProblemOf(message: string | null): ApprovalLinkProblem | null {
  const found = Object.entries(APPROVAL_LINK_MESSAGES).find(([, text]) => text === message);
  return found ? (found[0] as ApprovalLinkProblem) : null;
}

/** Sharing takes the choices an approval takes (they are what the link approves), the clip in the path. */
export const shareClipInput = approveClipInput;
export type ShareClipInput = z.input<typeof shareClipInput>;

export const shareClipResult = z.object({
  /** The page to send; it holds the link's token, shown this once. */
  url: z.string(),
  expires_at: z.string(),
});
export type ShareClipResult = z.infer<typeof shareClipResult>;

const APPROVAL_TOKEN_MAX_LENGTH = 200;
export const approvalLinkInput = z.object({
  token: z.string({ error: APPROVAL_LINK_MESSAGES.invalid }).max(APPROVAL_TOKEN_MAX_LENGTH, APPROVAL_LINK_MESSAGES.invalid),
});
export const rejectByLinkInput = approvalLinkInput.extend({
  /** Why, for the clip's owner (optional). */
  note: z
    .string()
    .trim()
    .max(APPROVAL_NOTE_MAX_LENGTH, `The note must be at most ${APPROVAL_NOTE_MAX_LENGTH} characters`)
    .optional(),
});
export type RejectByLinkInput = z.input<typeof rejectByLinkInput>;

export const APPROVAL_ANSWERS = ['approved', 'rejected'] as const;
export type ApprovalAnswer = (typeof APPROVAL_ANSWERS)[number];

/** What a link's page shows: the clip as it will be posted, or, once answered, the answer. */
export const approvalPage = z.object({
  /** open: waiting for the answer; approved or rejected: answered through this link. */
  status: z.enum(['open', ...APPROVAL_ANSWERS]),
  title: z.string(),
  streamer: z.string(),
  description: z.string(),
  accounts: z.array(z.object({ name: z.string(), platform: z.enum(ACCOUNT_PLATFORMS) })),
  format_type: z.enum(['vertical', 'horizontal']),
  /** The clip's video and picture while the link is open; null once answered. */
  video_url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  expires_at: z.string(),
  answered_at: z.string().nullable(),
  note: z.string().nullable(),
});
export type ApprovalPage = z.infer<typeof approvalPage>;

export const approvalAnswerResult = z.object({ status: z.enum(APPROVAL_ANSWERS), message: z.string() });
export type ApprovalAnswerResult = z.infer<typeof approvalAnswerResult>;

/** A clip's latest link as its owner sees it in the inbox: out, answered or expired. */
export const approvalLinkState = z.object({
  clip_id: z.string(),
  title: z.string(),
  status: z.enum(['open', 'expired', ...APPROVAL_ANSWERS]),
  created_at: z.string(),
  expires_at: z.string(),
  answered_at: z.string().nullable(),
  note: z.string().nullable(),
});
export type ApprovalLinkState = z.infer<typeof approvalLinkState>;
