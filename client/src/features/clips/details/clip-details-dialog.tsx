import { Link } from 'react-router-dom';
import { Clapperboard, Download, Trash2 } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { clipStudioPath } from '@/lib/paths';
import { cn } from '@/lib/utils';
import type { ClipActions } from '../shared/clip-actions';
import { ClipBadges } from '../shared/clip-badges';
import { ClipDescriptions } from './clip-descriptions';
import { ClipFacts } from './clip-facts';
import { ClipMoment } from '../shared/clip-moment';
import { isVertical } from '../shared/clip-format';
import { ClipTranscript } from './clip-transcript';
import { ClipVideo } from '../shared/clip-video';
import { PostFromDetails } from './post-from-details';
import { PostedTo } from './posted-to';
import { SubtitleButton } from '../shared/subtitle-button';
import { WorkProgress } from '../shared/work-progress';
import { useClipDetails } from '@/api/clips';

function DetailsActions({ clip, actions }: { clip: Clip; actions: ClipActions }) {
  // Retention deleted the video: there is nothing left to download, edit or render.
  const hasMedia = clip.media_expired_at === null;
  return (
    <div className="flex flex-wrap gap-2">
      {hasMedia && (
        <>
          <Button variant="outline" size="sm" onClick={() => actions.download(clip)}>
            <Download aria-hidden="true" />
            Download MP4
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link to={clipStudioPath(clip.clip_id)}>
              <Clapperboard aria-hidden="true" />
              Open studio
            </Link>
          </Button>
          <SubtitleButton withLabel generating={actions.isGenerating(clip)} render={clip.render} onClick={() => actions.generateSubtitles(clip)} />
        </>
      )}
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:bg-danger-soft hover:text-destructive"
        onClick={() => actions.requestDelete(clip)}
      >
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
    </div>
  );
}

function DescriptionsSkeleton() {
  return (
    <div className="space-y-2" aria-hidden="true">
      <Skeleton className="h-4 w-28" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-28 w-full" />
    </div>
  );
}

interface DetailsBodyProps {
  listed: Clip;
  actions: ClipActions;
  /** Closes the modal: after a failed load, and when the post wizard opens from it. */
  onClose: () => void;
}

/** Mounted while the modal is open: the list's copy shows at once, the details fill in. */
function DetailsBody({ listed, actions, onClose }: DetailsBodyProps) {
  // While this page's subtitle call runs, the details reload like the list, so its progress moves here too.
  const details = useClipDetails(listed.clip_id, onClose, actions.isGenerating(listed));
  const loaded = details.data;
  const clip = loaded ?? listed;
  const vertical = isVertical(clip);
  // The wizard is a dialog of its own: this one closes first, so that only one traps the focus.
  const openWizard = (target: Clip, description: string) => {
    onClose();
    actions.requestPost(target, description || undefined);
  };
  return (
    <div className={cn('grid gap-6', vertical && 'md:grid-cols-[auto_minmax(0,1fr)]')}>
      <div className={cn(vertical && 'md:sticky md:top-0 md:self-start')}>
        <ClipVideo clip={clip} />
      </div>
      <div className="min-w-0 space-y-5">
        <DialogHeader className="gap-2 pr-6">
          <DialogTitle className="text-xl leading-snug break-words">{clip.title}</DialogTitle>
          <DialogDescription>
            {clip.broadcaster_name}
            {clip.game_name ? ` · ${clip.game_name}` : ''}
          </DialogDescription>
          <ClipBadges clip={clip} />
        </DialogHeader>
        {clip.moment && <ClipMoment moment={clip.moment} />}
        <ClipFacts clip={clip} />
        <DetailsActions clip={clip} actions={actions} />
        <WorkProgress clip={clip} detailed />
        <PostedTo entries={clip.posted_to} />
        {loaded ? (
          <ClipDescriptions
            key={loaded.clip_id}
            clip={loaded}
            renderAfter={(text) => <PostFromDetails description={text} onPost={(description) => openWizard(loaded, description)} />}
          />
        ) : (
          <DescriptionsSkeleton />
        )}
        {loaded?.transcript && <ClipTranscript text={loaded.transcript} clipId={loaded.clip_id} />}
      </div>
    </div>
  );
}

interface ClipDetailsDialogProps {
  clip: Clip | null;
  onClose: () => void;
  actions: ClipActions;
}

/** The details modal (spec section 2, Reading B): player, facts, descriptions, transcript, actions. */
export function ClipDetailsDialog({ clip, onClose, actions }: ClipDetailsDialogProps) {
  const vertical = clip !== null && isVertical(clip);
  return (
    <Dialog open={clip !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={cn('pt-12 sm:p-8', vertical ? 'max-w-5xl' : 'max-w-3xl')}>
        {clip && <DetailsBody key={clip.clip_id} listed={clip} actions={actions} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
