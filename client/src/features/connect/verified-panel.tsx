import { CircleCheck, LoaderCircle } from 'lucide-react';
import { ACCOUNT_PLATFORMS, PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import { PlatformIcon } from '@/components/platform-icon';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Button } from '@/components/ui/button';

interface VerifiedPanelProps {
  passkey: string;
  /** The platform whose window is open, if any. */
  connecting: AccountPlatform | null;
  onConnect: (platform: AccountPlatform) => void;
  onUseDifferent: () => void;
}

function ConnectButton({ platform, busy, disabled, onClick }: { platform: AccountPlatform; busy: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <Button variant="outline" className="w-full" disabled={disabled} onClick={onClick}>
      {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <PlatformIcon platform={platform} decorative />}
      Connect {PLATFORM_LABELS[platform]}
    </Button>
  );
}

/** The passkey is good: connect a TikTok, YouTube, Instagram or Facebook account in the popup, or start over with another code. */
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
          Choose your platform and sign in to it in the window that opens. Your account is added to the Clipshift account this passkey belongs to.
        </p>
      </div>
      {connecting && <PopupWaitingNote className="justify-center" platform={PLATFORM_LABELS[connecting]} />}
      <div className="flex flex-col gap-2">
        <div className="grid gap-2 sm:grid-cols-2">
          {ACCOUNT_PLATFORMS.map((platform) => (
            <ConnectButton key={platform} platform={platform} busy={connecting === platform} disabled={connecting !== null} onClick={() => onConnect(platform)} />
          ))}
        </div>
        <Button variant="ghost" className="w-full" onClick={onUseDifferent}>
          Use Different Passkey
        </Button>
      </div>
    </section>
  );
}
