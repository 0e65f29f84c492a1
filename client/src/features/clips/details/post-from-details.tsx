import { useState } from 'react';
import { LoaderCircle, Send } from 'lucide-react';
import { type Clip, DESCRIPTION_MAX_LENGTH, formatAccountHandle } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { isLinkedTo, useTikTokAccounts } from '@/api/tiktok-accounts';
import { ConsentLine } from '../shared/consent-line';
import { PrivacySelect } from '../shared/privacy-select';
import type { PrivacyLevel } from '../shared/tiktok-posting';
import { usePostClip } from '@/api/posting';

/** Where a post without chosen accounts goes: the accounts linked to the clip's streamer (the server decides). */
function LinkedTargets({ streamer }: { streamer: string }) {
  const accounts = useTikTokAccounts();
  if (!accounts.data) return null;
  const linked = accounts.data.filter((account) => isLinkedTo(account, streamer));
  if (linked.length === 0) {
    return (
      <p className="text-xs text-muted-foreground" data-testid="post-targets">
        No TikTok account is linked to {streamer} yet: link one on the Streamers screen, or use the Post button to choose accounts.
      </p>
    );
  }
  return (
    <p className="text-xs text-muted-foreground" data-testid="post-targets">
      Goes to the accounts linked to {streamer}: <span className="font-medium text-foreground">{linked.map(formatAccountHandle).join(', ')}</span>
    </p>
  );
}

interface PostFromDetailsProps {
  clip: Clip;
  /** The editor's current text: posting needs it non-blank (spec section 4). */
  description: string;
  /** The modal closes after the post, whether it succeeded or failed. */
  onDone: () => void;
}

/** Post to TikTok from the details modal, with the description being edited and a privacy level. */
export function PostFromDetails({ clip, description, onDone }: PostFromDetailsProps) {
  const [privacy, setPrivacy] = useState<PrivacyLevel | null>(null);
  const { post, posting } = usePostClip();
  const blank = description.trim() === '';
  const ready = !blank && description.length <= DESCRIPTION_MAX_LENGTH && privacy !== null && !posting;

  const submit = () => {
    if (!ready || privacy === null) return;
    post({ id: clip.clip_id, description, privacy_level: privacy }, { onSettled: onDone });
  };

  return (
    <section aria-labelledby="details-post-heading" className="space-y-3 rounded-lg border bg-muted/30 p-3">
      <div className="space-y-1">
        <h3 id="details-post-heading" className="text-sm font-semibold">
          Post to TikTok
        </h3>
        <LinkedTargets streamer={clip.streamer} />
      </div>
      <PrivacySelect value={privacy} onChange={setPrivacy} disabled={posting} compact>
        <Button variant="brand" onClick={submit} disabled={!ready} aria-busy={posting || undefined}>
          {posting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          {posting ? 'Posting…' : 'Post to TikTok'}
        </Button>
      </PrivacySelect>
      {blank && <p className="text-xs text-muted-foreground">Write a description above (or pick a suggestion) to post.</p>}
      <ConsentLine />
    </section>
  );
}
