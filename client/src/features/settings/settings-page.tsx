import { PageHeader } from '@/components/page-header';
import { ApiTokensSection } from './api-tokens-section';
import { InviteCodesSection } from './invite-codes-section';
import { NotificationsSection } from './notifications-section';
import { ProcessingSection } from './processing-section';
import { RecentLogsSection } from './recent-logs-section';
import { ConnectedAccountsSection } from './connected-accounts-section';
import { TwitchSection } from './twitch-section';

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Accounts, invitations, processing, notifications, API tokens and recent activity." />
      <div className="space-y-6">
        <ConnectedAccountsSection />
        <TwitchSection />
        <InviteCodesSection />
        <ProcessingSection />
        <NotificationsSection />
        <ApiTokensSection />
        <RecentLogsSection />
      </div>
    </>
  );
}
