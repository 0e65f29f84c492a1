import { CircleAlert, Link2, UsersRound } from 'lucide-react';
import { formatAccountHandle, type AccountPlatform, type ConnectedAccount, type DisclosureChoice, type InstagramPostOptions } from '@clipshift/shared';
import { AccountAvatar } from '@/components/account-avatar';
import { ConnectAccountMenu } from '@/components/connect-account-menu';
import { PlatformIcon } from '@/components/platform-icon';
import { EmptyState } from '@/components/empty-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { accountKind } from '@/api/accounts';
import { isLinkedTo } from '@/api/tiktok-accounts';
import { cn } from '@/lib/utils';
import { CommercialDisclosure } from '../shared/commercial-disclosure';
import { InstagramOptions } from '../shared/instagram-options';
import { PrivacySelect } from '../shared/privacy-select';
import type { CreatorLimits, Interactions, PrivacyLevel } from '../shared/tiktok-posting';
import { InteractionSettings } from '../shared/interaction-settings';
import type { PlatformProblems } from './preflight';
import { PreflightProblems } from './preflight-problems';
import { canPostWith, type YouTubePrivacy } from './wizard-rules';
import { YouTubeOptions } from './youtube-options';

const ACCOUNTS_LOAD_ERROR = 'Error loading accounts';

interface AccountOptionProps {
  account: ConnectedAccount;
  streamer: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

function AccountOption({ account, streamer, checked, onCheckedChange }: AccountOptionProps) {
  const id = `post-account-${account.id}`;
  const usable = canPostWith(account);
  const linked = isLinkedTo(account, streamer);
  return (
    <li>
      <label
        htmlFor={id}
        data-testid="wizard-account"
        className={cn(
          'flex items-center gap-3 rounded-lg border px-3 py-2.5 transition-colors',
          usable ? 'cursor-pointer hover:bg-accent/60' : 'cursor-not-allowed opacity-70',
          checked && 'border-brand bg-brand-soft',
        )}
      >
        <Checkbox id={id} checked={checked} disabled={!usable} onCheckedChange={(next) => onCheckedChange(next === true)} />
        <AccountAvatar src={account.avatar_url} />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="truncate text-sm font-medium">{formatAccountHandle(account)}</span>
          <span className="truncate text-xs text-muted-foreground">{accountKind(account)}</span>
          {linked && (
            <span className="flex items-center gap-1 text-xs text-brand-text" data-testid="linked-note">
              <Link2 className="size-3 shrink-0" aria-hidden="true" />
              linked to {streamer}
            </span>
          )}
          {!usable && <span className="text-xs font-medium text-warning-soft-foreground">Reconnect needed: reconnect this account in Settings to post with it.</span>}
        </span>
        <PlatformIcon platform={account.platform} className="size-5" />
      </label>
    </li>
  );
}

/** Connecting an account from the wizard: which platform's window is open, which cannot be connected here and why. */
export interface WizardConnect {
  waiting: AccountPlatform | null;
  reasonOff: (platform: AccountPlatform) => string | null;
  onConnect: (platform: AccountPlatform) => void;
}

/** Nothing to post to yet: connect an account of any platform in the OAuth popup, without leaving the wizard. */
function NoAccounts({ connect }: { connect: WizardConnect }) {
  return (
    <EmptyState
      icon={UsersRound}
      title="No accounts connected"
      description="Connect a TikTok or Instagram account, a YouTube channel or a Facebook Page to post this clip. It appears here as soon as you are done."
      action={<ConnectAccountMenu inDialog label="Connect Account" variant="brand" waiting={connect.waiting} reasonOff={connect.reasonOff} onConnect={connect.onConnect} />}
    />
  );
}

/** Facebook Page Reels have nothing to choose: said so, so that no option looks forgotten. */
function FacebookNote() {
  return (
    <div className="flex items-center gap-2 rounded-lg border px-3 py-2.5 text-sm" data-testid="facebook-options">
      <PlatformIcon platform="facebook" decorative />
      <p className="text-muted-foreground">
        <span className="font-medium text-foreground">Facebook</span>: posted as a public Reel on each chosen Page; there is nothing to set.
      </p>
    </div>
  );
}

function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert variant="destructive" role="alert">
      <CircleAlert aria-hidden="true" />
      <div className="flex-1 space-y-2">
        <p className="font-medium">{ACCOUNTS_LOAD_ERROR}</p>
        <p data-testid="accounts-error">{message}</p>
        <Button variant="outline" size="sm" onClick={onRetry} className="bg-background">
          Try again
        </Button>
      </div>
    </Alert>
  );
}

interface AccountsStepProps {
  streamer: string;
  accounts: readonly ConnectedAccount[] | undefined;
  loading: boolean;
  /** The load failed: the server's message, or the spec's default. */
  error: string | null;
  onRetry: () => void;
  connect: WizardConnect;
  isChosen: (id: string) => boolean;
  onToggle: (id: string, on: boolean) => void;
  privacy: PrivacyLevel | null;
  onPrivacyChange: (level: PrivacyLevel) => void;
  interactions: Interactions;
  onInteractionsChange: (value: Interactions) => void;
  limits: CreatorLimits;
  /** Which platforms the chosen accounts are on: each shows its own options. */
  tiktokChosen: boolean;
  youtubeChosen: boolean;
  instagramChosen: boolean;
  facebookChosen: boolean;
  title: string;
  titleProblem: string | null;
  onTitleChange: (title: string) => void;
  youtubePrivacy: YouTubePrivacy | null;
  onYouTubePrivacyChange: (privacy: YouTubePrivacy) => void;
  notifySubscribers: boolean;
  onNotifySubscribersChange: (notify: boolean) => void;
  problems: readonly PlatformProblems[];
  disclosure: DisclosureChoice;
  onDisclosureChange: (value: DisclosureChoice) => void;
  instagram: InstagramPostOptions;
  onInstagramChange: (value: InstagramPostOptions) => void;
}

/** Step 3: which accounts (any platform), each chosen platform's options, and what the platforms would refuse. */
export function AccountsStep(props: AccountsStepProps) {
  if (props.error !== null) return <LoadError message={props.error} onRetry={props.onRetry} />;
  if (props.loading || !props.accounts) {
    return (
      <div className="space-y-2" aria-busy="true">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (props.accounts.length === 0) return <NoAccounts connect={props.connect} />;
  return (
    <div className="space-y-5">
      <fieldset className="min-w-0 space-y-2">
        <legend className="mb-2 text-sm font-medium">Post to</legend>
        <ul className="space-y-2" aria-label="Accounts">
          {props.accounts.map((account) => (
            <AccountOption
              key={account.id}
              account={account}
              streamer={props.streamer}
              checked={props.isChosen(account.id) && canPostWith(account)}
              onCheckedChange={(on) => props.onToggle(account.id, on)}
            />
          ))}
        </ul>
      </fieldset>
      {props.tiktokChosen && (
        <fieldset className="min-w-0 space-y-4 rounded-lg border p-3" data-testid="tiktok-options">
          <legend className="flex items-center gap-1.5 px-1 text-sm font-medium">
            <PlatformIcon platform="tiktok" decorative />
            TikTok
          </legend>
          <PrivacySelect
            value={props.privacy}
            options={props.limits.privacyLevels}
            onChange={props.onPrivacyChange}
            disabled={props.limits.loading}
            brandedContent={props.disclosure.disclose && props.disclosure.branded_content}
          />
          <InteractionSettings value={props.interactions} locked={props.limits.locked} onChange={props.onInteractionsChange} />
          <CommercialDisclosure value={props.disclosure} onChange={props.onDisclosureChange} />
        </fieldset>
      )}
      {props.youtubeChosen && (
        <YouTubeOptions
          title={props.title}
          titleProblem={props.titleProblem}
          onTitleChange={props.onTitleChange}
          privacy={props.youtubePrivacy}
          onPrivacyChange={props.onYouTubePrivacyChange}
          notifySubscribers={props.notifySubscribers}
          onNotifySubscribersChange={props.onNotifySubscribersChange}
        />
      )}
      {props.instagramChosen && <InstagramOptions value={props.instagram} onChange={props.onInstagramChange} />}
      {props.facebookChosen && <FacebookNote />}
      <PreflightProblems problems={props.problems} />
    </div>
  );
}
