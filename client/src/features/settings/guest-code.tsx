import { Link } from 'react-router-dom';
import { Copy, ExternalLink } from 'lucide-react';
import { PASSKEY_PLACEHOLDER } from '@clipshift/shared';
import { useCurrentPasskey } from '@/api/guests';
import { Button } from '@/components/ui/button';
import { connectPath } from '@/lib/paths';
import { useCopyWithToast } from './use-copy';
import { WithTooltip } from '@/components/ui/tooltip';

const PASSKEY_COPIED = 'Passkey copied to clipboard!';
const PASSKEY_COPY_FAILED = 'Failed to copy passkey';

/** The user's guest passkey: whoever has it can connect an account of any platform to this user's list. */
export function GuestCode() {
  const passkeyQuery = useCurrentPasskey();
  const passkey = passkeyQuery.data?.passkey ?? null;
  const copy = useCopyWithToast(PASSKEY_COPIED, PASSKEY_COPY_FAILED);
  const link = connectPath(passkey);

  return (
    <div className="rounded-lg border bg-muted/40 p-4 sm:p-5">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <h3 className="text-sm font-semibold">Guest Code</h3>
          <p className="max-w-md text-sm text-muted-foreground">
            Someone without a Clipshift account can connect their TikTok, YouTube, Instagram or Facebook account to yours on
            the guest page with this code.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <output
            aria-label="Guest passkey"
            data-testid="guest-passkey"
            className="rounded-md border bg-background px-4 py-2 font-mono text-lg font-semibold tracking-[0.3em]"
          >
            {passkey ?? PASSKEY_PLACEHOLDER}
          </output>
          <WithTooltip label="Copy passkey">
            <Button
              variant="outline"
              size="icon"
              aria-label="Copy passkey"
              disabled={!passkey}
              onClick={() => passkey && void copy(passkey)}
            >
              <Copy />
            </Button>
          </WithTooltip>
        </div>
      </div>
      <Link
        to={link}
        className="mt-3 inline-flex items-center gap-1.5 text-sm font-medium text-brand-text underline-offset-4 hover:underline"
      >
        <ExternalLink className="size-3.5" aria-hidden="true" />
        {`${window.location.origin}${link}`}
      </Link>
    </div>
  );
}
