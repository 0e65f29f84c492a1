import { BarChart3, CalendarClock, LoaderCircle, RefreshCw, Trash2 } from 'lucide-react';
import { accountUsername, PLATFORM_LABELS, uploadsLeftLabel, type ConnectedAccount } from '@clipshift/shared';
import { accountKind, connectedAccountMessages as messages } from '@/api/accounts';
import { AccountAvatar } from '@/components/account-avatar';
import { PlatformIcon } from '@/components/platform-icon';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';

export interface AccountActions {
  isRemoving: (id: string) => boolean;
  /** A connect flow of that platform is waiting for its popup. */
  isReconnecting: (account: ConnectedAccount) => boolean;
  onRemove: (account: ConnectedAccount) => void;
  onReconnect: (account: ConnectedAccount) => void;
  onSchedule: (account: ConnectedAccount) => void;
  onStatistics: (account: ConnectedAccount) => void;
}

function StatusBadge({ account }: { account: ConnectedAccount }) {
  return account.status === 'ok' ? (
    <Badge variant="success" data-testid="account-status">
      {messages.connected}
    </Badge>
  ) : (
    <Badge variant="warning" data-testid="account-status">
      {messages.reconnectNeeded}
    </Badge>
  );
}

/** A YouTube account's uploads left today; they are the Google project's, so every channel shows the same. */
function UploadsLeft({ account }: { account: ConnectedAccount }) {
  if (account.uploads_left_today === null) return null;
  return (
    <span
      className={account.uploads_left_today === 0 ? 'text-xs text-warning-soft-foreground' : 'text-xs text-muted-foreground'}
      title="YouTube's daily uploads of this server's Google project; they come back at midnight Pacific time"
      data-testid="account-uploads-left"
    >
      {uploadsLeftLabel(account.uploads_left_today)}
    </span>
  );
}

function LinkedStreamers({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="text-muted-foreground">{messages.noLinkedStreamers}</span>;
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

/** Avatar, name and handle; the platform's mark sits on the avatar's corner. */
function AccountName({ account }: { account: ConnectedAccount }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span className="relative shrink-0">
        <AccountAvatar src={account.avatar_url} className="size-9" />
        <span className="absolute -right-1 -bottom-1 flex size-5 items-center justify-center rounded-full border bg-card">
          <PlatformIcon platform={account.platform} className="size-3.5" />
        </span>
      </span>
      <span className="flex min-w-0 flex-col">
        <span className="truncate font-medium" data-testid="account-name">
          {account.display_name}
        </span>
        <span className="truncate text-xs text-muted-foreground" data-testid="account-username">
          {accountUsername(account.username) ?? accountKind(account)}
        </span>
      </span>
    </div>
  );
}

/** Reconnect (when needed), Schedule, Statistics, Remove: each named with the account for screen readers. */
function ActionButtons({ account, actions, compact }: { account: ConnectedAccount; actions: AccountActions; compact: boolean }) {
  const removing = actions.isRemoving(account.id);
  // In the table the buttons keep to their icons (named for screen readers, with a tooltip) until the screen is very wide.
  const text = compact ? 'sr-only 2xl:not-sr-only' : '';
  return (
    <div className={compact ? 'flex items-center justify-end gap-1' : 'flex flex-wrap items-center gap-2'}>
      {account.status === 'reconnect' && (
        <Button
          variant="outline"
          size="sm"
          disabled={actions.isReconnecting(account)}
          aria-label={`Reconnect ${account.display_name}`}
          onClick={() => actions.onReconnect(account)}
        >
          <RefreshCw aria-hidden="true" />
          <span>Reconnect</span>
        </Button>
      )}
      <Button variant="outline" size="sm" aria-label={`Posting schedule of ${account.display_name}`} title="Schedule" onClick={() => actions.onSchedule(account)}>
        <CalendarClock aria-hidden="true" />
        <span className={text}>Schedule</span>
      </Button>
      <Button variant="outline" size="sm" aria-label={`Statistics of ${account.display_name}`} title="Statistics" onClick={() => actions.onStatistics(account)}>
        <BarChart3 aria-hidden="true" />
        <span className={text}>Statistics</span>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-danger-soft-foreground hover:bg-danger-soft hover:text-danger-soft-foreground"
        disabled={removing}
        aria-label={`Remove ${account.display_name}`}
        title="Remove"
        onClick={() => actions.onRemove(account)}
      >
        {removing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
        <span className={text}>Remove</span>
      </Button>
    </div>
  );
}

interface ConnectedAccountsProps {
  accounts: readonly ConnectedAccount[];
  actions: AccountActions;
}

/** Wide screens: one row per account, every platform in one table. */
function AccountsTable({ accounts, actions }: ConnectedAccountsProps) {
  return (
    <div className="hidden rounded-lg border lg:block">
      <Table aria-label="Connected accounts">
        <TableHeader>
          <TableRow>
            <TableHead>Platform</TableHead>
            <TableHead>Account</TableHead>
            <TableHead>Linked Streamers</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Added</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {accounts.map((account) => (
            <TableRow key={account.id} data-testid="account-row" data-platform={account.platform} aria-label={account.display_name}>
              <TableCell>
                <PlatformIcon platform={account.platform} className="size-5" />
              </TableCell>
              <TableCell className="max-w-64">
                <AccountName account={account} />
              </TableCell>
              <TableCell className="whitespace-normal">
                <LinkedStreamers names={account.linked_streamers} />
              </TableCell>
              <TableCell>
                <div className="flex flex-col items-start gap-1">
                  <StatusBadge account={account} />
                  <UploadsLeft account={account} />
                </div>
              </TableCell>
              <TableCell className="text-muted-foreground">
                <time dateTime={account.created_at}>{formatDate(account.created_at)}</time>
              </TableCell>
              <TableCell>
                <ActionButtons account={account} actions={actions} compact />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** Narrow screens: a card per account, the actions under its facts. */
function AccountCards({ accounts, actions }: ConnectedAccountsProps) {
  return (
    <ul className="space-y-3 lg:hidden" aria-label="Connected accounts">
      {accounts.map((account) => (
        <li key={account.id} className="space-y-3 rounded-lg border p-3" data-testid="account-card" data-platform={account.platform} aria-label={account.display_name}>
          <div className="flex items-start justify-between gap-3">
            <AccountName account={account} />
            <StatusBadge account={account} />
          </div>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Platform</dt>
            <dd>{PLATFORM_LABELS[account.platform]}</dd>
            <dt className="text-muted-foreground">Streamers</dt>
            <dd>
              <LinkedStreamers names={account.linked_streamers} />
            </dd>
            <dt className="text-muted-foreground">Added</dt>
            <dd>
              <time dateTime={account.created_at}>{formatDate(account.created_at)}</time>
            </dd>
            {account.uploads_left_today !== null && (
              <>
                <dt className="text-muted-foreground">Uploads</dt>
                <dd>
                  <UploadsLeft account={account} />
                </dd>
              </>
            )}
          </dl>
          <ActionButtons account={account} actions={actions} compact={false} />
        </li>
      ))}
    </ul>
  );
}

/** The accounts of every platform together: a table where it fits, cards on phones and tablets. */
export function ConnectedAccountsList(props: ConnectedAccountsProps) {
  return (
    <>
      <AccountsTable {...props} />
      <AccountCards {...props} />
    </>
  );
}
