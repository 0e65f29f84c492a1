import { Send } from 'lucide-react';
import { DESCRIPTION_MAX_LENGTH } from '@clipshift/shared';
import { Button } from '@/components/ui/button';

interface PostFromDetailsProps {
  /** The editor's current text: it goes on to the wizard's description step. */
  description: string;
  /** Opens the post wizard for this clip with that text (the modal closes). */
  onPost: (description: string) => void;
}

/**
 * Posting from the details modal goes through the post wizard, so that the accounts of every
 * platform can be chosen, each with its own options and checks: a post from here without chosen
 * accounts would go to every linked account with TikTok's options only.
 */
export function PostFromDetails({ description, onPost }: PostFromDetailsProps) {
  // A blank or over-long text is left for the wizard to replace or fix (its step 2 holds it back).
  const carried = description.trim() !== '' && description.length <= DESCRIPTION_MAX_LENGTH ? description : undefined;
  return (
    <section aria-labelledby="details-post-heading" className="space-y-3 rounded-lg border bg-muted/30 p-3">
      <div className="space-y-1">
        <h3 id="details-post-heading" className="text-sm font-semibold">
          Post this clip
        </h3>
        <p className="text-xs text-muted-foreground" data-testid="post-targets">
          Choose the accounts to post to (TikTok, YouTube, Instagram, Facebook), with each platform&apos;s options, in the post wizard. The description above goes with it.
        </p>
      </div>
      <Button variant="brand" onClick={() => onPost(carried ?? '')}>
        <Send aria-hidden="true" />
        Post…
      </Button>
    </section>
  );
}
