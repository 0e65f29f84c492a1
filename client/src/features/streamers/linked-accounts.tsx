import { useId } from 'react';
import { Settings2 } from 'lucide-react';
import { formatAccountHandle, type Streamer } from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { PlatformIcon } from '@/components/platform-icon';
import { Button } from '@/components/ui/button';

type LinkedAccount = Streamer['tiktok_accounts'][number];

function AccountChip({ account }: { account: LinkedAccount }) {
  return (
    <li className="flex min-w-0 items-center gap-1.5 rounded-full border bg-muted/40 py-1 pr-3 pl-1 text-xs" title={account.display_name} data-testid="linked-account">
      <AccountAvatar src={account.avatar_url} className="size-5 [&_svg]:size-3" />
      <span className="truncate font-medium">{formatAccountHandle(account)}</span>
      <PlatformIcon platform={account.platform} className="size-3.5" />
    </li>
  );
}

interface LinkedAccountsProps {
  streamer: Streamer;
  onManage: () => void;
}

/** The accounts (any platform) a streamer's clips are posted to, with the Manage action that links and unlinks them. */
export function LinkedAccounts({ streamer, onManage }: LinkedAccountsProps) {
  const headingId = useId();
  const accounts = streamer.tiktok_accounts;
  return (
    // Every card has this section: its name says whose it is, so the regions stay distinguishable.
    <section aria-label={`Linked accounts of ${streamer.name}`} className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
          Linked accounts
        </h3>
        <Button variant="ghost" size="sm" className="h-7 px-2" onClick={onManage} aria-label={`Manage accounts of ${streamer.name}`} title="Manage">
          <Settings2 aria-hidden="true" /> Manage
        </Button>
      </div>
      {accounts.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-labelledby={headingId}>
          {accounts.map((account) => (
            <AccountChip key={account.id} account={account} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No linked accounts</p>
      )}
    </section>
  );
}
