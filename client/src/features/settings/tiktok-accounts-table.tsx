import { CalendarClock, LoaderCircle, RefreshCw, Trash2 } from 'lucide-react';
import { accountUsername, type TikTokAccount } from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { accountMessages } from '@/api/tiktok-accounts';

interface AccountRowProps {
  account: TikTokAccount;
  removing: boolean;
  reconnecting: boolean;
  onRemove: (id: string) => void;
  onReconnect: () => void;
  onSchedule: (account: TikTokAccount) => void;
}

/** Columns that give way to a summary under the name on narrow screens. */
// max-md:hidden: the stacked rows of a phone leave these out too (the account cell names the user).
const WIDE_ONLY = 'hidden md:table-cell max-md:hidden';

function username(account: TikTokAccount): string | null {
  return accountUsername(account.username);
}

/** On narrow screens the Username, Linked Streamers and Added columns are folded under the name. */
function NarrowSummary({ account }: { account: TikTokAccount }) {
  return (
    <div className="space-y-1 text-xs text-muted-foreground md:hidden">
      <p>
        {username(account) ?? '—'} · <span className="whitespace-nowrap">Added {formatDate(account.created_at)}</span>
      </p>
      <p className="whitespace-normal">
        {account.linked_streamers.length > 0 ? account.linked_streamers.join(', ') : accountMessages.noLinkedStreamers}
      </p>
    </div>
  );
}

function AccountCell({ account }: { account: TikTokAccount }) {
  return (
    <div className="flex items-center gap-3">
      <AccountAvatar src={account.avatar_url} />
      <div className="flex min-w-0 flex-col items-start gap-1">
        <span className="font-medium" data-testid="account-name">
          {account.display_name}
        </span>
        {account.needs_reconnect && <Badge variant="warning">{accountMessages.reconnectNeeded}</Badge>}
        <NarrowSummary account={account} />
      </div>
    </div>
  );
}

function LinkedStreamers({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="text-muted-foreground">{accountMessages.noLinkedStreamers}</span>;
  return (
    <ul className="flex max-w-xs flex-wrap gap-1" aria-label="Linked streamers">
      {names.map((name) => (
        <li key={name}>
          <Badge variant="secondary">{name}</Badge>
        </li>
      ))}
    </ul>
  );
}

function AccountRow({ account, removing, reconnecting, onRemove, onReconnect, onSchedule }: AccountRowProps) {
  return (
    <TableRow data-testid="tiktok-account-row" aria-label={account.display_name}>
      <TableCell className="whitespace-normal md:whitespace-nowrap">
        <AccountCell account={account} />
      </TableCell>
      <TableCell className={WIDE_ONLY} data-testid="account-username">
        {username(account) ?? <span className="text-muted-foreground">—</span>}
      </TableCell>
      <TableCell className={WIDE_ONLY}>
        <LinkedStreamers names={account.linked_streamers} />
      </TableCell>
      <TableCell className={`${WIDE_ONLY} text-muted-foreground`}>
        <time dateTime={account.created_at}>{formatDate(account.created_at)}</time>
      </TableCell>
      <TableCell>
        <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end max-md:flex-row max-md:justify-start">
          {account.needs_reconnect && (
            <Button
              variant="outline"
              size="sm"
              disabled={reconnecting}
              aria-label={`Reconnect ${account.display_name}`}
              onClick={onReconnect}
            >
              <RefreshCw aria-hidden="true" />
              <span className="hidden sm:inline">Reconnect</span>
            </Button>
          )}
          <Button variant="outline" size="sm" aria-label={`Posting schedule of ${account.display_name}`} onClick={() => onSchedule(account)}>
            <CalendarClock aria-hidden="true" />
            <span className="hidden sm:inline">Schedule</span>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-danger-soft-foreground hover:bg-danger-soft hover:text-danger-soft-foreground"
            disabled={removing}
            aria-label={`Remove ${account.display_name}`}
            onClick={() => onRemove(account.id)}
          >
            {removing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
            <span className="hidden sm:inline">Remove</span>
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}

interface TikTokAccountsTableProps {
  accounts: readonly TikTokAccount[];
  isRemoving: (id: string) => boolean;
  reconnecting: boolean;
  onRemove: (id: string) => void;
  onReconnect: () => void;
  onSchedule: (account: TikTokAccount) => void;
}

export function TikTokAccountsTable({ accounts, isRemoving, reconnecting, onRemove, onReconnect, onSchedule }: TikTokAccountsTableProps) {
  return (
    <div className="rounded-lg border">
      <Table stacked aria-label="TikTok accounts">
        <TableHeader>
          <TableRow>
            <TableHead>Account</TableHead>
            <TableHead className={WIDE_ONLY}>Username</TableHead>
            <TableHead className={WIDE_ONLY}>Linked Streamers</TableHead>
            <TableHead className={WIDE_ONLY}>Added</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {accounts.map((account) => (
            <AccountRow
              key={account.id}
              account={account}
              removing={isRemoving(account.id)}
              reconnecting={reconnecting}
              onRemove={onRemove}
              onReconnect={onReconnect}
              onSchedule={onSchedule}
            />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
