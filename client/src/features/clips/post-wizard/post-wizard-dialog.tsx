import { ChevronLeft, ChevronRight, LoaderCircle, Send } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useFreshClipDetails } from '@/api/clips';
import { failureText } from '@/api/errors';
import { useConnectedAccounts } from '@/api/accounts';
import { useConnectAnyPlatform } from '@/api/platform-connect';
import { AccountsStep } from './accounts-step';
import { ClipPreviewStep } from './clip-preview-step';
import { DescriptionStep } from './description-step';
import { ReviewStep } from './review-step';
import { StepIndicator } from './step-indicator';
import { usePostWizard, type PostWizard } from './use-post-wizard';
import { LAST_STEP, stepLabel } from './wizard-rules';

/** 'Error loading accounts' comes with the server's message, else the spec's default. */
const ACCOUNTS_LOAD_FAILED = 'Failed to load accounts.';

function WizardFooter({ wizard }: { wizard: PostWizard }) {
  return (
    <div className="flex shrink-0 items-center justify-between gap-2 border-t pt-4">
      <Button variant="outline" onClick={wizard.previous} disabled={wizard.step === 1 || wizard.posting}>
        <ChevronLeft aria-hidden="true" />
        Previous
      </Button>
      {wizard.step < LAST_STEP ? (
        <Button variant="brand" onClick={wizard.next} disabled={!wizard.canNext}>
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      ) : (
        <Button variant="brand" onClick={wizard.submit} disabled={!wizard.canPost} aria-busy={wizard.posting || undefined}>
          {wizard.posting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          {wizard.posting ? 'Posting…' : 'Post Clip'}
        </Button>
      )}
    </div>
  );
}

interface PostWizardBodyProps {
  listed: Clip;
  /** The text the details modal was editing when it opened the wizard; absent: the clip's own. */
  initialDescription?: string;
  isGenerating: (clip: Clip) => boolean;
  onGenerateSubtitles: (clip: Clip) => void;
  onClose: () => void;
}

/**
 * Mounted while the dialog is open, so each opening starts afresh and loads the accounts again.
 * The clip's details are fetched too: a subtitle run or a saved description since the list loaded
 * shows here.
 */
function PostWizardBody({ listed, initialDescription, isGenerating, onGenerateSubtitles, onClose }: PostWizardBodyProps) {
  const details = useFreshClipDetails(listed.clip_id);
  const clip = details.data ?? listed;
  const accounts = useConnectedAccounts({ fresh: true });
  const platforms = useConnectAnyPlatform();
  const wizard = usePostWizard(clip, accounts.data, onClose, initialDescription);

  return (
    <>
      <DialogHeader className="shrink-0 gap-3 pr-6">
        <DialogTitle>Post clip</DialogTitle>
        <DialogDescription>
          Step {wizard.step} of {LAST_STEP}: {stepLabel(wizard.step)}
        </DialogDescription>
      </DialogHeader>
      <StepIndicator step={wizard.step} />
      {/* The step scrolls on its own, so the buttons stay in view when a step is taller than the screen. */}
      <div className="-mx-1 min-h-48 flex-1 overflow-y-auto px-1 pb-1" data-testid={`wizard-step-${wizard.step}`}>
        {wizard.step === 1 && <ClipPreviewStep clip={clip} generating={isGenerating(clip)} onGenerateSubtitles={() => onGenerateSubtitles(clip)} />}
        {wizard.step === 2 && <DescriptionStep suggestions={wizard.suggestions} description={wizard.description} onChange={wizard.setDescription} />}
        {wizard.step === 3 && (
          <AccountsStep
            streamer={clip.streamer}
            accounts={accounts.data}
            loading={accounts.isPending}
            error={accounts.isError ? failureText(accounts.error, { fallback: ACCOUNTS_LOAD_FAILED }) : null}
            onRetry={() => void accounts.refetch()}
            connect={{ waiting: platforms.waiting, reasonOff: platforms.reasonOff, onConnect: (platform) => platforms.connects[platform].connect() }}
            isChosen={wizard.isChosen}
            onToggle={wizard.toggleAccount}
            privacy={wizard.privacy}
            onPrivacyChange={wizard.setPrivacy}
            interactions={wizard.interactions}
            limits={wizard.limits}
            onInteractionsChange={wizard.setInteractions}
            tiktokChosen={wizard.platforms.has('tiktok')}
            youtubeChosen={wizard.platforms.has('youtube')}
            instagramChosen={wizard.platforms.has('instagram')}
            facebookChosen={wizard.platforms.has('facebook')}
            title={wizard.title}
            titleProblem={wizard.titleProblem}
            onTitleChange={wizard.setTitle}
            youtubePrivacy={wizard.youtubePrivacy}
            onYouTubePrivacyChange={wizard.setYouTubePrivacy}
            notifySubscribers={wizard.notifySubscribers}
            onNotifySubscribersChange={wizard.setNotifySubscribers}
            problems={wizard.problems}
            disclosure={wizard.disclosure}
            onDisclosureChange={wizard.setDisclosure}
            instagram={wizard.instagram}
            onInstagramChange={wizard.setInstagram}
          />
        )}
        {wizard.step === 4 && (
          <ReviewStep
            clip={clip}
            description={wizard.description}
            accounts={wizard.selectedAccounts}
            privacy={wizard.privacy}
            interactions={wizard.interactions}
            title={wizard.title}
            youtubePrivacy={wizard.youtubePrivacy}
            notifySubscribers={wizard.notifySubscribers}
            instagram={wizard.instagram}
            problems={wizard.problems}
            commercial={wizard.commercial}
          />
        )}
      </div>
      <WizardFooter wizard={wizard} />
    </>
  );
}

interface PostWizardDialogProps {
  clip: Clip | null;
  /** The details modal's description, carried into step 2. */
  initialDescription?: string;
  onClose: () => void;
  generating: (clip: Clip) => boolean;
  onGenerateSubtitles: (clip: Clip) => void;
}

/** The 4-step post dialog (every platform) (spec sections 2 and 4): Clip Preview, Add Description, Select Accounts, Review & Post. */
export function PostWizardDialog({ clip, initialDescription, onClose, generating, onGenerateSubtitles }: PostWizardDialogProps) {
  return (
    <Dialog open={clip !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="flex max-w-2xl flex-col gap-5 overflow-hidden sm:p-7">
        {clip && (
          <PostWizardBody
            key={clip.clip_id}
            listed={clip}
            initialDescription={initialDescription}
            isGenerating={generating}
            onGenerateSubtitles={onGenerateSubtitles}
            onClose={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
