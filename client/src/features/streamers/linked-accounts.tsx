import { useId } from 'react';
import { Settings2, UserRound } from 'lucide-react';
import type { Streamer } from '@clipshift/shared';
import { Button } from '@/components/ui/button';

/** The Manage dialog arrives with TikTok accounts (the next issue); until then it says so. */
export const MANAGE_ACCOUNTS_SOON = 'TikTok accounts arrive with the next update';

type LinkedAccount = Streamer['tiktok_accounts'][number];

function AccountChip({ account }: { account: LinkedAccount }) {
  return (
    <li className="flex min-w-0 items-center gap-2 rounded-full border bg-muted/40 py-1 pr-3 pl-1 text-xs">
      {account.avatar_url ? (
        <img src={account.avatar_url} alt="" className="size-5 rounded-full object-cover" />
      ) : (
        <span className="flex size-5 items-center justify-center rounded-full bg-muted" aria-hidden="true">
          <UserRound className="size-3 text-muted-foreground" />
        </span>
      )}
      <span className="truncate font-medium">{account.display_name}</span>
      {account.username && <span className="truncate text-muted-foreground">@{account.username}</span>}
    </li>
  );
}

/** The TikTok accounts a streamer's clips are posted to, with the (coming) Manage action. */
export function LinkedAccounts({ streamer }: { streamer: Streamer }) {
  const headingId = useId();
  const hintId = useId();
  const accounts = streamer.tiktok_accounts;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h4 id={headingId} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
          Linked accounts
        </h4>
        {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
        <span title={MANAGE_ACCOUNTS_SOON} className="inline-flex" data-testid="manage-accounts">
          <Button variant="ghost" size="sm" className="h-7 px-2" disabled aria-describedby={hintId}>
            <Settings2 aria-hidden="true" /> Manage
          </Button>
        </span>
        <span id={hintId} className="sr-only">
          {MANAGE_ACCOUNTS_SOON}
        </span>
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
