import type { ReactNode } from 'react';
import { type Clip, descriptionStats, formatAccountHandle, type ConnectedAccount } from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { PlatformIcon } from '@/components/platform-icon';
import { plural } from '@/lib/format';
import { isVertical } from '../shared/clip-format';
import { ClipThumbnail } from '../shared/clip-thumbnail';
import { ConsentLine } from '../shared/consent-line';
import { privacyLabel, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';
import type { PlatformProblems } from './preflight';
import { PreflightProblems } from './preflight-problems';
import { disclosureLabels, YOUTUBE_PRIVACY_LABELS, type TikTokCommercial } from '@clipshift/shared';
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

function AccountsSummary({ accounts }: { accounts: readonly ConnectedAccount[] }) {
  if (accounts.length === 0) {
    return <span className="text-muted-foreground">No account: connect one at Select Accounts to post.</span>;
  }
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Accounts to post to">
      {accounts.map((account) => (
        <li key={account.id} className="flex items-center gap-2 rounded-full border py-1 pr-3 pl-1 text-xs font-medium">
          <AccountAvatar src={account.avatar_url} className="size-5" />
          {formatAccountHandle(account)}
          <PlatformIcon platform={account.platform} className="size-3.5" />
        </li>
      ))}
    </ul>
  );
}

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

/** Step 4: everything that is about to go to each platform, and the consent TikTok asks for. */
export function ReviewStep({ clip, description, accounts, privacy, interactions, title, youtubePrivacy, problems, commercial }: ReviewStepProps) {
  const tiktok = accounts.some((account) => account.platform === 'tiktok');
  const youtube = accounts.some((account) => account.platform === 'youtube');
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
        <Row label="Accounts">
          <AccountsSummary accounts={accounts} />
        </Row>
        {tiktok && (
          <>
            <Row label="Who can view">
              <span data-testid="review-privacy">{privacy ? privacyLabel(privacy) : '—'}</span>
            </Row>
            <Row label="Interactions">
              <span data-testid="review-interactions">{interactionsText(interactions)}</span>
            </Row>
            <Row label="Commercial content">
              <div data-testid="review-disclosure">
                <DisclosureSummary commercial={commercial} />
              </div>
            </Row>
          </>
        )}
        {youtube && (
          <>
            <Row label="YouTube title">
              <span className="break-words" data-testid="review-youtube-title">
                {title}
              </span>
            </Row>
            <Row label="YouTube privacy">
              <span data-testid="review-youtube-privacy">{youtubePrivacy ? YOUTUBE_PRIVACY_LABELS[youtubePrivacy] : '—'}</span>
            </Row>
          </>
        )}
      </dl>
      <PreflightProblems problems={problems} />
      {tiktok && <ConsentLine brandedContent={commercial.branded_content} />}
      <p className="text-xs text-muted-foreground">After a platform accepts the video, it can take a few minutes to appear on the profile or channel.</p>
    </div>
  );
}
