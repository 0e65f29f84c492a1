import { CircleCheck, LoaderCircle } from 'lucide-react';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Button } from '@/components/ui/button';

interface VerifiedPanelProps {
  passkey: string;
  connecting: boolean;
  onConnect: () => void;
  onUseDifferent: () => void;
}

/** The passkey is good: connect a TikTok account in the popup, or start over with another code. */
export function VerifiedPanel({ passkey, connecting, onConnect, onUseDifferent }: VerifiedPanelProps) {
  return (
    <section aria-labelledby="passkey-verified-title" className="space-y-5">
      <div className="flex flex-col items-center gap-2 rounded-lg border border-success-border bg-success-soft px-4 py-5 text-center">
        <CircleCheck className="size-7 text-success-icon" aria-hidden="true" />
        <h2 id="passkey-verified-title" className="font-semibold text-success-soft-foreground">
          Passkey verified
        </h2>
        <p className="font-mono text-lg font-semibold tracking-[0.3em] text-success-soft-foreground" data-testid="verified-passkey">
          {passkey}
        </p>
        <p className="max-w-xs text-sm text-success-soft-foreground">
          Sign in to TikTok in the window that opens. Your account is added to the Clipshift account this passkey belongs to.
        </p>
      </div>
      {connecting && <PopupWaitingNote className="justify-center" />}
      <div className="flex flex-col gap-2">
        <Button variant="brand" className="w-full" disabled={connecting} onClick={onConnect}>
          {connecting && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Connect TikTok
        </Button>
        <Button variant="outline" className="w-full" onClick={onUseDifferent}>
          Use Different Passkey
        </Button>
      </div>
    </section>
  );
}
