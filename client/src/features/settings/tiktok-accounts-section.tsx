import { useState } from 'react';
import { LoaderCircle, Plus, UsersRound } from 'lucide-react';
import type { TikTokAccount } from '@clipshift/shared';
import { accountMessages, useDeleteAccount, useTikTokAccounts } from '@/api/tiktok-accounts';
import { useConnectAccount } from '@/api/tiktok-connect';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { GuestCode } from './guest-code';
import { PostingScheduleDialog } from './posting-schedule-dialog';
import { TikTokAccountsTable } from './tiktok-accounts-table';

interface AccountsListProps {
  connecting: boolean;
  onReconnect: () => void;
}

function TikTokAccountsList({ connecting, onReconnect }: AccountsListProps) {
  const accounts = useTikTokAccounts({ toastOnError: true });
  const { remove, isRemoving } = useDeleteAccount();
  const [scheduling, setScheduling] = useState<TikTokAccount | null>(null);

  if (accounts.isPending) return <Skeleton className="h-24 w-full" />;
  if (accounts.isError) return <LoadFailed icon={UsersRound} title={accountMessages.loadFailed} onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) {
    return <EmptyState icon={UsersRound} title={accountMessages.emptyTitle} description={accountMessages.emptyDescription} />;
  }
  return (
    <>
      <TikTokAccountsTable
        accounts={accounts.data}
        isRemoving={isRemoving}
        reconnecting={connecting}
        onRemove={remove}
        onReconnect={onReconnect}
        onSchedule={setScheduling}
      />
      <PostingScheduleDialog account={scheduling} onClose={() => setScheduling(null)} />
    </>
  );
}

/** The user's TikTok accounts: connect one in a popup, see where each posts, remove it; and the guest code. */
export function TikTokAccountsSection() {
  const { connect, waiting } = useConnectAccount();
  return (
    <Card role="region" aria-labelledby="settings-tiktok-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-tiktok-title">TikTok Accounts</CardTitle>
          <CardDescription>The TikTok accounts Clipshift posts your clips to, and when each one posts automatically.</CardDescription>
        </div>
        <CardAction>
          <Button variant="brand" size="sm" disabled={waiting} onClick={connect}>
            {waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
            Connect Account
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        {waiting && <PopupWaitingNote />}
        <TikTokAccountsList connecting={waiting} onReconnect={connect} />
        <GuestCode />
      </CardContent>
    </Card>
  );
}
