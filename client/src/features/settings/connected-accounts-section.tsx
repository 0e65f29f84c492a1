import { useCallback, useState } from 'react';
import { LoaderCircle, Plus, UsersRound } from 'lucide-react';
import { PLATFORM_LABELS, type AccountPlatform, type ConnectedAccount } from '@clipshift/shared';
import { connectedAccountMessages as messages, useConnectedAccounts, useRemoveConnectedAccount } from '@/api/accounts';
import { useConnectPlatform, useYouTubeAvailability } from '@/api/platform-connect';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PlatformIcon } from '@/components/platform-icon';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { AccountStatsDialog } from './account-stats-dialog';
import { ConnectedAccountsList } from './connected-accounts-table';
import { GuestCode } from './guest-code';
import { PostingScheduleDialog } from './posting-schedule-dialog';

type Connect = ReturnType<typeof useConnectPlatform>;

interface AccountsBodyProps {
  connects: Record<AccountPlatform, Connect>;
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

function ConnectButton({ platform, connect, disabled, hintId }: { platform: AccountPlatform; connect: Connect; disabled: boolean; hintId?: string }) {
  return (
    <Button variant="outline" size="sm" disabled={disabled || connect.waiting} onClick={connect.connect} aria-describedby={hintId}>
      {connect.waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
      <PlatformIcon platform={platform} decorative />
      Connect {PLATFORM_LABELS[platform]}
    </Button>
  );
}

/**
 * Settings' "Connected accounts": TikTok accounts and YouTube channels in one list, each connected
 * in a popup; linked streamers, status, schedule, statistics, remove; and the guest code.
 */
export function ConnectedAccountsSection() {
  const availability = useYouTubeAvailability();
  // A click can learn what the first look did not (the server's configuration changed meanwhile).
  const [youtubeRefusal, setYouTubeRefusal] = useState<string | null>(null);
  const onYouTubeUnavailable = useCallback((reason: string) => setYouTubeRefusal(reason), []);
  const tiktok = useConnectPlatform('tiktok');
  const youtube = useConnectPlatform('youtube', onYouTubeUnavailable);
  const instagram = useConnectPlatform('instagram');
  const facebook = useConnectPlatform('facebook');
  const youtubeOff = youtubeRefusal ?? (availability.data?.available === false ? availability.data.reason : null);
  const waiting = tiktok.waiting || youtube.waiting;

  return (
    <Card role="region" aria-labelledby="settings-accounts-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-accounts-title">Connected accounts</CardTitle>
          <CardDescription>The TikTok accounts and YouTube channels Clipshift posts your clips to, and when each one posts automatically.</CardDescription>
        </div>
        <CardAction className="flex flex-col items-stretch gap-2 sm:items-end">
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <ConnectButton platform="tiktok" connect={tiktok} disabled={false} />
            <ConnectButton platform="youtube" connect={youtube} disabled={youtubeOff !== null} hintId={youtubeOff !== null ? 'youtube-off-hint' : undefined} />
          </div>
          {youtubeOff !== null && (
            <p id="youtube-off-hint" className="max-w-xs text-xs text-muted-foreground sm:text-right" data-testid="youtube-off-hint">
              {youtubeOff}
            </p>
          )}
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        {waiting && <PopupWaitingNote platform={PLATFORM_LABELS[youtube.waiting ? 'youtube' : 'tiktok']} />}
        <AccountsBody connects={{ tiktok, youtube, instagram, facebook }} />
        <GuestCode />
      </CardContent>
    </Card>
  );
}
