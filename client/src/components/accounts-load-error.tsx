import { UsersRound } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { accountMessages } from '@/lib/tiktok-messages';

/** 'Failed to load TikTok accounts' with a retry, wherever the accounts list is shown. */
export function AccountsLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <EmptyState
      icon={UsersRound}
      title={accountMessages.loadFailed}
      action={
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}
