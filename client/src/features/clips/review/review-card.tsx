import { useId, useState } from 'react';
import { Check, Link2, LoaderCircle, X } from 'lucide-react';
import {
  approvalCommercialProblem,
  approvalPrivacyProblem,
  commercialOf,
  DEFAULT_INSTAGRAM_OPTIONS,
  DESCRIPTION_MAX_LENGTH,
  disclosureProblem,
  formatAccountHandle,
  instagramCaptionProblems,
  NO_DISCLOSURE,
  type AccountPlatform,
  type AccountPostSettings,
  type ApprovalLinkState,
  type ApproveClipInput,
  type Clip,
  type ConnectedAccount,
  type DisclosureChoice,
  type InstagramPostOptions,
  type ShareClipResult,
} from '@clipshift/shared';
import { useAccountPostSettings, useApproveClip, useRejectClip, useShareClip } from '@/api/review';
import { isLinkedTo } from '@/api/tiktok-accounts';
import { PlatformIcon } from '@/components/platform-icon';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { formatViewsFull } from '../shared/clip-format';
import { ClipMoment } from '../shared/clip-moment';
import { ClipVideo } from '../shared/clip-video';
import { CommercialDisclosure } from '../shared/commercial-disclosure';
import { ConsentLine } from '../shared/consent-line';
import { DescriptionEditor } from '../shared/description-editor';
import { DescriptionOptions } from '../shared/description-options';
import { HookField } from './hook-field';
import { InstagramOptions } from '../shared/instagram-options';
import { instagramOptionsProblem } from '../shared/instagram-posting';
import { LinkStatus } from './link-status';
import { ShareLinkDialog } from './share-link-dialog';

interface ApprovalChoice {
  accountIds: readonly string[];
  settings: readonly AccountPostSettings[];
  disclosure: DisclosureChoice;
  tiktokChosen: boolean;
  /** The Instagram options, when an Instagram account is chosen. */
  instagram: InstagramPostOptions | null;
  description: string;
}

/**
 * Why Approve waits, in the server's words where it would refuse (a privacy nobody chose where the
 * platform asks for one, branded content to an account that posts privately, collaborators or a
 * caption Instagram would not take), or the disclosure left incomplete; null when it may go.
 */
function approvalProblem({ accountIds, settings, disclosure, tiktokChosen, instagram, description }: ApprovalChoice): string | null {
  const privacy = approvalPrivacyProblem(accountIds, settings);
  if (privacy) return `${privacy}: see “Post settings per account” above.`;
  // Instagram's own refusals: its post would otherwise fail later, after the approval.
  const reels = instagram ? (instagramOptionsProblem(instagram) ?? instagramCaptionProblems(description)[0] ?? null) : null;
  if (reels) return reels;
  if (!tiktokChosen) return null;
  const commercial = approvalCommercialProblem(accountIds, settings, commercialOf(disclosure));
  if (commercial) return `${commercial}: choose another privacy for the account in “Post settings per account” above.`;
  return disclosureProblem(disclosure);
}

interface ReviewCardProps {
  clip: Clip;
  accounts: readonly ConnectedAccount[];
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  /** The clip's latest approval link, when one was made lately. */
  link?: ApprovalLinkState;
  /** A link named this clip: its card stands out. */
  highlighted?: boolean;
}

/** The element id of a clip's card, which a link to the clip scrolls to. */
export function reviewCardId(clipId: string): string {
  return `review-clip-${clipId}`;
}

/**
 * One clip waiting for review: its player, the suggestions to pick from (or edit), the accounts it
 * goes to (those linked to its streamer at first), Approve and Reject.
 */
export function ReviewCard({ clip, accounts, selected, onSelectedChange, link, highlighted = false }: ReviewCardProps) {
  const id = useId();
  const suggestions = clip.metadata.descriptions;
  const [chosen, setChosen] = useState(0);
  const [description, setDescription] = useState(suggestions[0]?.description ?? clip.title);
  const [accountIds, setAccountIds] = useState<string[]>(() => accounts.filter((account) => isLinkedTo(account, clip.streamer)).map((account) => account.id));
  const approve = useApproveClip();
  const reject = useRejectClip();
  const share = useShareClip();
  const [shared, setShared] = useState<ShareClipResult | null>(null);
  const busy = approve.isPending || reject.isPending || share.isPending;
  const tooLong = description.length > DESCRIPTION_MAX_LENGTH;
  const titleId = `${id}-title`;
  const reasonId = `${id}-approve-reason`;
  const [disclosure, setDisclosure] = useState<DisclosureChoice>(NO_DISCLOSURE);
  const [instagram, setInstagram] = useState<InstagramPostOptions>(DEFAULT_INSTAGRAM_OPTIONS);
  const chosenOn = (platform: AccountPlatform) => accounts.some((account) => account.platform === platform && accountIds.includes(account.id));
  const tiktokChosen = chosenOn('tiktok');
  const instagramChosen = chosenOn('instagram');
  // What the server would refuse, and an incomplete disclosure: said before the click.
  const settings = useAccountPostSettings().data ?? [];
  const problem = approvalProblem({ accountIds, settings, disclosure, tiktokChosen, instagram: instagramChosen ? instagram : null, description });

  // What Approve posts, and what an approval link shows and posts.
  const choices: ApproveClipInput = {
    clip_id: clip.clip_id,
    description,
    account_ids: accountIds,
    ...(tiktokChosen ? { tiktok_commercial: commercialOf(disclosure) } : {}),
    ...(instagramChosen ? { instagram } : {}),
  };
  const cannotApprove = busy || accountIds.length === 0 || tooLong || !description.trim() || problem !== null;

  const toggleAccount = (accountId: string, on: boolean) => setAccountIds((ids) => (on ? [...ids, accountId] : ids.filter((other) => other !== accountId)));

  return (
    <Card
      id={reviewCardId(clip.clip_id)}
      aria-labelledby={titleId}
      data-testid="review-clip"
      data-clip-id={clip.clip_id}
      data-linked={highlighted || undefined}
      className={cn('scroll-mt-20', highlighted && 'ring-2 ring-brand')}
    >
      <CardContent className="grid gap-5 md:grid-cols-[auto_minmax(0,1fr)]">
        <div className="space-y-3">
          <Label htmlFor={`${id}-select`} className="cursor-pointer font-normal">
            <Checkbox id={`${id}-select`} checked={selected} onCheckedChange={(next) => onSelectedChange(next === true)} disabled={busy} />
            Select for bulk approval
          </Label>
          <ClipVideo clip={clip} className="h-[min(50vh,22rem)] w-auto max-w-full md:w-auto" />
        </div>
        <div className="min-w-0 space-y-4">
          <div className="space-y-1">
            <h2 id={titleId} className="text-lg font-semibold break-words">
              {clip.title}
            </h2>
            <p className="text-sm text-muted-foreground">
              {clip.streamer} · {formatViewsFull(clip.view_count)}
            </p>
          </div>
          {clip.moment && <ClipMoment moment={clip.moment} />}
          <div className="space-y-2">
            <h3 className="text-sm font-medium">Suggestions</h3>
            <DescriptionOptions
              options={suggestions}
              selectedIndex={chosen}
              onChoose={(index) => {
                setChosen(index);
                setDescription(suggestions[index]?.description ?? '');
              }}
            />
          </div>
          <DescriptionEditor label="Description" rows={3} value={description} onChange={setDescription} />
          <HookField clip={clip} />
          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-medium">Post to</legend>
            {accounts.length === 0 ? (
              <p className="text-sm text-muted-foreground">No account is connected: connect one in Settings to approve.</p>
            ) : (
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {accounts.map((account) => (
                  <Label key={account.id} htmlFor={`${id}-account-${account.id}`} className="cursor-pointer font-normal">
                    <Checkbox
                      id={`${id}-account-${account.id}`}
                      checked={accountIds.includes(account.id)}
                      disabled={busy}
                      onCheckedChange={(next) => toggleAccount(account.id, next === true)}
                    />
                    <PlatformIcon platform={account.platform} />
                    {formatAccountHandle(account)}
                  </Label>
                ))}
              </div>
            )}
          </fieldset>
          {tiktokChosen && <CommercialDisclosure value={disclosure} onChange={setDisclosure} disabled={busy} />}
          {instagramChosen && <InstagramOptions value={instagram} onChange={setInstagram} disabled={busy} />}
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="brand" disabled={cannotApprove} aria-describedby={problem ? reasonId : undefined} onClick={() => approve.mutate(choices)}>
              {approve.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
              Approve
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => reject.mutate({ clip_id: clip.clip_id })}>
              {reject.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
              Reject
            </Button>
            <Button
              variant="outline"
              disabled={cannotApprove}
              aria-describedby={problem ? reasonId : undefined}
              onClick={() => share.mutate(choices, { onSuccess: setShared })}
            >
              {share.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Link2 aria-hidden="true" />}
              Share for approval
            </Button>
          </div>
          {link && <LinkStatus link={link} />}
          {problem && (
            <p id={reasonId} className="text-sm text-warning-soft-foreground" data-testid="approve-reason">
              {problem}
            </p>
          )}
          {tiktokChosen && <ConsentLine brandedContent={commercialOf(disclosure).branded_content} />}
        </div>
      </CardContent>
      <ShareLinkDialog title={clip.title} link={shared} onClose={() => setShared(null)} />
    </Card>
  );
}
