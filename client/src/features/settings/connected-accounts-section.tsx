import { useState } from 'react';
import { LoaderCircle, UsersRound } from 'lucide-react';
import { ACCOUNT_PLATFORMS, PLATFORM_LABELS, type AccountPlatform, type ConnectedAccount } from '@clipshift/shared';
import { connectedAccountMessages as messages, useConnectedAccounts, useRemoveConnectedAccount } from '@/api/accounts';
import { useConnectAnyPlatform, type AnyPlatformConnect, type PlatformConnect } from '@/api/platform-connect';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PlatformIcon } from '@/components/platform-icon';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { AccountStatsDialog } from './account-stats-dialog';
import { ConnectedAccountsList } from './connected-accounts-table';
import { GuestCode } from './guest-code';
import { PostingScheduleDialog } from './posting-schedule-dialog';

interface AccountsBodyProps {
  connects: Record<AccountPlatform, PlatformConnect>;
}

function AccountsBody({ connects }: AccountsBodyProps) {
  const accounts = useConnectedAccounts({ toastOnError: true });
  const { remove, isRemoving } = useRemoveConnectedAccount();
  const [scheduling, setScheduling] = useState<ConnectedAccount | null>(null);
  const [statistics, setStatistics] = useState<ConnectedAccount | null>(null);

  if (accounts.isPending) return <Skeleton className="h-24 w-full" />;
  if (accounts.isError) return <LoadFailed icon={UsersRound} title={messages.loadFailed} onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) return <EmptyState icon={UsersRound} title={messages.emptyTitle} description={messages.emptyDescription} />;
  return (
    <>
      <ConnectedAccountsList
        accounts={accounts.data}
        actions={{
          isRemoving,
          isReconnecting: (account) => connects[account.platform].waiting,
          onRemove: remove,
          onReconnect: (account) => connects[account.platform].connect(),
          onSchedule: setScheduling,
          onStatistics: setStatistics,
        }}
      />
      <PostingScheduleDialog account={scheduling} onClose={() => setScheduling(null)} />
      <AccountStatsDialog account={statistics} onClose={() => setStatistics(null)} />
    </>
  );
}

interface ConnectButtonProps {
  platform: AccountPlatform;
  connect: PlatformConnect;
  disabled: boolean;
  hintId?: string;
}

function ConnectButton({ platform, connect, disabled, hintId }: ConnectButtonProps) {
  return (
    <Button variant="outline" size="sm" disabled={disabled || connect.waiting} onClick={connect.connect} aria-describedby={hintId} data-platform={platform}>
      {connect.waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <PlatformIcon platform={platform} decorative />}
      Connect {PLATFORM_LABELS[platform]}
    </Button>
  );
}

/**
 * A Connect button per platform. One that the server cannot connect is disabled, with the server's
 * reason beneath; while one platform's window is open the others wait, as they would share it.
 */
function ConnectButtons({ platforms }: { platforms: AnyPlatformConnect }) {
  const off = ACCOUNT_PLATFORMS.flatMap((platform) => {
    const reason = platforms.reasonOff(platform);
    return reason === null ? [] : [{ platform, reason }];
  });
  const hintId = (platform: AccountPlatform) => `${platform}-off-hint`;
  return (
    <div className="space-y-2">
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap" role="group" aria-label="Connect an account">
        {ACCOUNT_PLATFORMS.map((platform) => {
          const reason = platforms.reasonOff(platform);
          return (
            <ConnectButton
              key={platform}
              platform={platform}
              connect={platforms.connects[platform]}
              disabled={reason !== null || (platforms.waiting !== null && platforms.waiting !== platform)}
              hintId={reason !== null ? hintId(platform) : undefined}
            />
          );
        })}
      </div>
      {off.length > 0 && (
        <ul className="space-y-0.5 text-xs text-muted-foreground">
          {off.map(({ platform, reason }) => (
            <li key={platform} id={hintId(platform)} data-testid={hintId(platform)}>
              {reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Settings' "Connected accounts": TikTok accounts, YouTube channels, Instagram professional accounts
 * and Facebook Pages in one list, each connected in a popup; linked streamers, status, schedule,
 * statistics, remove; and the guest code.
 */
export function ConnectedAccountsSection() {
  const platforms = useConnectAnyPlatform();
  return (
    <Card role="region" aria-labelledby="settings-accounts-title">
      <CardHeader>
        <CardTitle id="settings-accounts-title">Connected accounts</CardTitle>
        <CardDescription>
          The TikTok, YouTube, Instagram and Facebook accounts Clipshift posts your clips to, and when each one posts automatically.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ConnectButtons platforms={platforms} />
        {platforms.waiting && <PopupWaitingNote platform={PLATFORM_LABELS[platforms.waiting]} />}
        <AccountsBody connects={platforms.connects} />
        <GuestCode />
      </CardContent>
    </Card>
  );
}
