import type { ReactNode } from 'react';
import {
  ACCOUNT_PLATFORMS,
  descriptionStats,
  disclosureLabels,
  formatAccountHandle,
  PLATFORM_LABELS,
  YOUTUBE_PRIVACY_LABELS,
  type AccountPlatform,
  type Clip,
  type ConnectedAccount,
  type InstagramPostOptions,
  type TikTokCommercial,
} from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { PlatformIcon } from '@/components/platform-icon';
import { plural } from '@/lib/format';
import { isVertical } from '../shared/clip-format';
import { ClipThumbnail } from '../shared/clip-thumbnail';
import { ConsentLine } from '../shared/consent-line';
import { privacyLabel, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';
import type { PlatformProblems } from './preflight';
import { PreflightProblems } from './preflight-problems';
import type { YouTubePrivacy } from './wizard-rules';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase sm:pt-0.5">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

function DescriptionSummary({ text }: { text: string }) {
  const stats = descriptionStats(text);
  return (
    <div className="space-y-1.5">
      <p className="max-h-40 overflow-y-auto rounded-md bg-muted/50 px-3 py-2 break-words whitespace-pre-wrap" data-testid="review-description">
        {text.trim()}
      </p>
      <p className="text-xs text-muted-foreground tabular-nums" data-testid="review-stats">
        <span data-testid="review-hashtags">{plural(stats.hashtags, 'hashtag')}</span>
        {' · '}
        <span data-testid="review-words">{plural(stats.words, 'word')}</span>
        {' · '}
        <span data-testid="review-characters">{plural(stats.characters, 'character')}</span>
      </p>
    </div>
  );
}

function AccountsSummary({ platform, accounts }: { platform: AccountPlatform; accounts: readonly ConnectedAccount[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={`${PLATFORM_LABELS[platform]} accounts to post to`}>
      {accounts.map((account) => (
        <li key={account.id} className="flex min-w-0 items-center gap-2 rounded-full border py-1 pr-3 pl-1 text-xs font-medium">
          <AccountAvatar src={account.avatar_url} className="size-5" />
          <span className="truncate">{formatAccountHandle(account)}</span>
        </li>
      ))}
    </ul>
  );
}

/** One of a platform's settings: its name, then what goes. */
function Setting({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** A platform's row: its mark and name, the accounts of it that were chosen, and its own settings. */
function PlatformRow({ platform, accounts, children }: { platform: AccountPlatform; accounts: readonly ConnectedAccount[]; children: ReactNode }) {
  return (
    <div className="grid gap-2 py-3 sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-4" data-testid="review-platform" data-platform={platform}>
      <dt className="flex items-center gap-1.5 self-start text-xs font-medium tracking-wide text-muted-foreground uppercase sm:pt-1">
        <PlatformIcon platform={platform} decorative />
        {PLATFORM_LABELS[platform]}
      </dt>
      <dd className="min-w-0 space-y-2 text-sm">
        <AccountsSummary platform={platform} accounts={accounts} />
        <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1 sm:grid-cols-[9.5rem_minmax(0,1fr)]">{children}</dl>
      </dd>
    </div>
  );
}

const onOff = (on: boolean) => (on ? 'On' : 'Off');

function interactionsText(interactions: Interactions): string {
  const on = (allowed: boolean) => (allowed ? 'on' : 'off');
  return `Comments ${on(interactions.comments)} · Duet ${on(interactions.duet)} · Stitch ${on(interactions.stitch)}`;
}

interface ReviewStepProps {
  clip: Clip;
  description: string;
  accounts: readonly ConnectedAccount[];
  privacy: PrivacyLevel | null;
  interactions: Interactions;
  title: string;
  youtubePrivacy: YouTubePrivacy | null;
  notifySubscribers: boolean;
  instagram: InstagramPostOptions;
  problems: readonly PlatformProblems[];
  /** TikTok's commercial content disclosure as it will be sent. */
  commercial: TikTokCommercial;
}

/** The labels TikTok will put on the post, or that nothing is disclosed. */
function DisclosureSummary({ commercial }: { commercial: TikTokCommercial }) {
  const labels = disclosureLabels(commercial);
  if (labels.length === 0) return <span className="text-muted-foreground">Not disclosed as commercial content</span>;
  return (
    <ul className="space-y-0.5">
      {labels.map((label) => (
        <li key={label}>{label}</li>
      ))}
    </ul>
  );
}

interface PlatformSettingsProps {
  platform: AccountPlatform;
  props: ReviewStepProps;
}

/** What goes to one platform besides the video and the description. */
function PlatformSettings({ platform, props }: PlatformSettingsProps) {
  switch (platform) {
    case 'tiktok':
      return (
        <>
          <Setting label="Who can view">
            <span data-testid="review-privacy">{props.privacy ? privacyLabel(props.privacy) : '—'}</span>
          </Setting>
          <Setting label="Interactions">
            <span data-testid="review-interactions">{interactionsText(props.interactions)}</span>
          </Setting>
          <Setting label="Commercial content">
            <div data-testid="review-disclosure">
              <DisclosureSummary commercial={props.commercial} />
            </div>
          </Setting>
        </>
      );
    case 'youtube':
      return (
        <>
          <Setting label="Title">
            <span data-testid="review-youtube-title">{props.title}</span>
          </Setting>
          <Setting label="Who can view">
            <span data-testid="review-youtube-privacy">{props.youtubePrivacy ? YOUTUBE_PRIVACY_LABELS[props.youtubePrivacy] : '—'}</span>
          </Setting>
          <Setting label="Notify subscribers">
            <span data-testid="review-youtube-notify">{onOff(props.notifySubscribers)}</span>
          </Setting>
        </>
      );
    case 'instagram':
      return (
        <>
          <Setting label="Who can view">Everyone (a public Reel)</Setting>
          <Setting label="Also share to feed">
            <span data-testid="review-instagram-feed">{onOff(props.instagram.share_to_feed)}</span>
          </Setting>
          <Setting label="Trial reel">
            <span data-testid="review-instagram-trial">{onOff(props.instagram.trial_reel)}</span>
          </Setting>
          <Setting label="Collaborators">
            <span data-testid="review-instagram-collaborators">
              {props.instagram.collaborators.length > 0 ? props.instagram.collaborators.map((name) => `@${name}`).join(', ') : 'None'}
            </span>
          </Setting>
        </>
      );
    case 'facebook':
      return <Setting label="Who can view">Everyone (a public Reel on the Page)</Setting>;
  }
}

/** Step 4: everything that is about to go to each platform, platform by platform, and the consent TikTok asks for. */
export function ReviewStep(props: ReviewStepProps) {
  const { clip, description, accounts, problems, commercial } = props;
  const platforms = ACCOUNT_PLATFORMS.filter((platform) => accounts.some((account) => account.platform === platform));
  const tiktok = platforms.includes('tiktok');
  return (
    <div className="space-y-3">
      <dl className="divide-y rounded-lg border px-4">
        <Row label="Clip">
          <div className="flex items-center gap-3">
            <ClipThumbnail clip={clip} className={isVertical(clip) ? 'w-12 shrink-0 rounded' : 'w-20 shrink-0 rounded'} />
            <div className="min-w-0">
              <p className="font-medium break-words" data-testid="review-title">
                {clip.title}
              </p>
              <p className="text-xs text-muted-foreground">{clip.broadcaster_name}</p>
            </div>
          </div>
        </Row>
        <Row label="Description">
          <DescriptionSummary text={description} />
        </Row>
        {platforms.length === 0 ? (
          <Row label="Accounts">
            <span className="text-muted-foreground">No account: connect one at Select Accounts to post.</span>
          </Row>
        ) : (
          platforms.map((platform) => (
            <PlatformRow key={platform} platform={platform} accounts={accounts.filter((account) => account.platform === platform)}>
              <PlatformSettings platform={platform} props={props} />
            </PlatformRow>
          ))
        )}
      </dl>
      <PreflightProblems problems={problems} />
      {tiktok && <ConsentLine brandedContent={commercial.branded_content} />}
      <p className="text-xs text-muted-foreground">After a platform accepts the video, it can take a few minutes to appear on the profile, channel or Page.</p>
    </div>
  );
}
