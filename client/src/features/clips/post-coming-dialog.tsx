import { Send } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { clipMessages } from './clip-messages';

/** Holds the Post button's place until the posting wizard arrives with the TikTok update. */
export function PostComingDialog({ clip, onClose }: { clip: Clip | null; onClose: () => void }) {
  return (
    <Dialog open={clip !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-brand-soft text-brand">
            <Send className="size-5" aria-hidden="true" />
          </div>
          <DialogTitle>Post to TikTok</DialogTitle>
          <DialogDescription>{clipMessages.postingLater}</DialogDescription>
        </DialogHeader>
        {clip && <p className="line-clamp-2 rounded-md bg-muted px-3 py-2 text-sm font-medium">{clip.title}</p>}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Got it
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
