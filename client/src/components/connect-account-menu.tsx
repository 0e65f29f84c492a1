import { ChevronDown, LoaderCircle, Plus } from 'lucide-react';
import { ACCOUNT_PLATFORMS, PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import { PlatformIcon } from '@/components/platform-icon';
import { Button, type ButtonProps } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

interface ConnectAccountMenuProps {
  /** The button's words, e.g. "Connect Account". */
  label: string;
  variant?: ButtonProps['variant'];
  /** The platform whose window is open, if any: the button waits meanwhile. */
  waiting: AccountPlatform | null;
  /** Why the server cannot connect a platform (shown under its disabled entry), or null. */
  reasonOff: (platform: AccountPlatform) => string | null;
  onConnect: (platform: AccountPlatform) => void;
  /** The button sits in a modal dialog (the wizard, a streamer's accounts). */
  inDialog?: boolean;
}

/**
 * One button that connects an account of any platform: it opens a menu of the four platforms, and
 * the one chosen opens its sign-in window. A platform the server cannot connect is there, disabled,
 * with the server's reason.
 */
export function ConnectAccountMenu({ label, variant = 'outline', waiting, reasonOff, onConnect, inDialog = false }: ConnectAccountMenuProps) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant={variant} disabled={waiting !== null}>
          {waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
          {label}
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="center" className="w-64" inDialog={inDialog}>
        {ACCOUNT_PLATFORMS.map((platform) => {
          const reason = reasonOff(platform);
          return (
            <DropdownMenuItem key={platform} disabled={reason !== null} onSelect={() => onConnect(platform)} className="items-start">
              <PlatformIcon platform={platform} decorative className="mt-0.5" />
              <span className="flex min-w-0 flex-col">
                <span>{PLATFORM_LABELS[platform]}</span>
                {reason !== null && <span className="text-xs whitespace-normal text-muted-foreground">{reason}</span>}
              </span>
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
