import { useId } from 'react';
import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import type { ShareClipResult } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { copyText } from '@/lib/clipboard';
import { formatDateTime } from '@/lib/format';

const COPIED = 'Approval link copied to clipboard!';
const COPY_FAILED = 'Failed to copy the link: select it and copy it by hand';

interface ShareLinkDialogProps {
  title: string;
  /** The link just made; null keeps the dialog closed. */
  link: ShareClipResult | null;
  onClose: () => void;
}

/** The approval link just made for a clip: shown this once, with a copy button and its expiry. */
export function ShareLinkDialog({ title, link, onClose }: ShareLinkDialogProps) {
  const id = useId();
  const copy = async (url: string) => {
    if (await copyText(url)) toast.success(COPIED);
    else toast.error(COPY_FAILED);
  };
  return (
    <Dialog open={link !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share for approval</DialogTitle>
          <DialogDescription>
            Send this link to the streamer: they can watch “{title}” with its description and accounts, and approve or reject it without an account.
          </DialogDescription>
        </DialogHeader>
        {link && (
          <div className="space-y-2">
            <Label htmlFor={`${id}-url`}>Approval link</Label>
            <div className="flex gap-2">
              <Input id={`${id}-url`} readOnly value={link.url} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
              <Button variant="outline" onClick={() => void copy(link.url)}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
            <p className="text-sm text-muted-foreground" data-testid="share-link-expiry">
              It takes one answer and works until {formatDateTime(link.expires_at)}. This is the only time it is shown; making a new link for this clip
              ends this one.
            </p>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
