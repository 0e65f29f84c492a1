import { Check, Link2, Link2Off, LoaderCircle, UsersRound } from 'lucide-react';
import { PLATFORM_LABELS, formatAccountHandle, type ConnectedAccount, type Streamer } from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { PlatformIcon } from '@/components/platform-icon';
import { LoadFailed } from '@/components/load-failed';
import { ConnectAccountMenu } from '@/components/connect-account-menu';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { streamerTitle } from '@/api/streamers';
import { accountKind, connectedAccountMessages, useConnectedAccounts } from '@/api/accounts';
import { useAccountLinks } from '@/api/tiktok-accounts';
import { useConnectAnyPlatform, type AnyPlatformConnect } from '@/api/platform-connect';

interface AccountRowProps {
  account: ConnectedAccount;
  linked: boolean;
  pending: boolean;
  onToggle: () => void;
}

function AccountRow({ account, linked, pending, onToggle }: AccountRowProps) {
  const handle = formatAccountHandle(account);
  return (
    <li className="flex items-center gap-3 py-3" data-testid="manage-account" aria-label={handle}>
      <AccountAvatar src={account.avatar_url} className="size-9" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex min-w-0 items-center gap-1.5 text-sm font-medium">
          <PlatformIcon platform={account.platform} />
          <span className="truncate">{handle}</span>
        </span>
        <span className="truncate text-xs text-muted-foreground">{accountKind(account)}</span>
        <div className="flex flex-wrap gap-1">
          {linked && (
            <Badge variant="success">
              <Check aria-hidden="true" />
              Linked
            </Badge>
          )}
          {account.status === 'reconnect' && <Badge variant="warning">{connectedAccountMessages.reconnectNeeded}</Badge>}
        </div>
      </div>
      <Button
        variant={linked ? 'outline' : 'brand'}
        size="sm"
        className="w-24"
        disabled={pending}
        onClick={onToggle}
        aria-pressed={linked}
        aria-label={`${linked ? 'Unlink' : 'Link'} ${handle}`}
      >
        {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : linked ? <Link2Off aria-hidden="true" /> : <Link2 aria-hidden="true" />}
        {linked ? 'Unlink' : 'Link'}
      </Button>
    </li>
  );
}

interface AccountsListProps {
  streamer: Streamer;
  accounts: ReturnType<typeof useConnectedAccounts>;
  platforms: AnyPlatformConnect;
}

function ConnectMenu({ platforms, label, variant }: { platforms: AnyPlatformConnect; label: string; variant: 'brand' | 'outline' }) {
  return (
    <ConnectAccountMenu
      inDialog
      label={label}
      variant={variant}
      waiting={platforms.waiting}
      reasonOff={platforms.reasonOff}
      onConnect={(platform) => platforms.connects[platform].connect()}
    />
  );
}

function AccountsList({ streamer, accounts, platforms }: AccountsListProps) {
  const links = useAccountLinks();
  const linkedIds = new Set(streamer.tiktok_accounts.map((account) => account.id));

  if (accounts.isPending) {
    return (
      <div className="space-y-2" aria-busy="true">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (accounts.isError) return <LoadFailed icon={UsersRound} title={connectedAccountMessages.loadFailed} onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) {
    return (
      <EmptyState
        icon={UsersRound}
        title={connectedAccountMessages.emptyTitle}
        description="Connect a TikTok or Instagram account, a YouTube channel or a Facebook Page, then link it here."
        action={<ConnectMenu platforms={platforms} label="Connect Account" variant="brand" />}
      />
    );
  }
  return (
    <ul className="divide-y" aria-label="Accounts">
      {accounts.data.map((account) => {
        const linked = linkedIds.has(account.id);
        return (
          <AccountRow
            key={account.id}
            account={account}
            linked={linked}
            pending={links.isPending(account.id)}
            onToggle={() => links.toggle(streamer.name, account, linked)}
          />
        );
      })}
    </ul>
  );
}

interface ManageAccountsDialogProps {
  streamer: Streamer;
  onClose: () => void;
}

/** Which of the user's accounts (any platform) a streamer's clips go to; another account can be connected in place. */
export function ManageAccountsDialog({ streamer, onClose }: ManageAccountsDialogProps) {
  const platforms = useConnectAnyPlatform();
  const accounts = useConnectedAccounts({ fresh: true, toastOnError: true });
  const title = streamerTitle(streamer);
  // With no account at all, the empty state's Connect Account is the one way in.
  const none = accounts.data?.length === 0;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Accounts for {title}</DialogTitle>
          <DialogDescription>
            Link the accounts {title}&apos;s clips are posted to: automatic publishing and review approvals post to them, and the post wizard marks them.
          </DialogDescription>
        </DialogHeader>
        <AccountsList streamer={streamer} accounts={accounts} platforms={platforms} />
        {platforms.waiting && <PopupWaitingNote platform={PLATFORM_LABELS[platforms.waiting]} />}
        <DialogFooter className="sm:justify-between">
          {none ? (
            <span aria-hidden="true" />
          ) : (
            <ConnectMenu platforms={platforms} label="Connect Another Account" variant="outline" />
          )}
          <Button variant="brand" onClick={onClose}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
