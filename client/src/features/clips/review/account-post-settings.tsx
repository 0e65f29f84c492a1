import { useId, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import type { AccountPlatform, AccountPostSettings } from '@clipshift/shared';
import { useAccountPostSettings, useSaveAccountPostSettings } from '@/api/review';
import { useCreatorOptions } from '@/api/tiktok-accounts';
import { PlatformIcon } from '@/components/platform-icon';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { InteractionSettings } from '../shared/interaction-settings';
import { YouTubePrivacyChoice } from '../shared/youtube-privacy-choice';
import { PrivacySelect } from '../shared/privacy-select';
import { combineCreatorOptions, interactionFlags, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';

function interactionsOf(settings: AccountPostSettings): Interactions {
  return { comments: !settings.disable_comment, duet: !settings.disable_duet, stitch: !settings.disable_stitch };
}

function RowHeader({ settings, platform, chosen }: { settings: AccountPostSettings; platform: AccountPlatform; chosen: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <PlatformIcon platform={platform} />
      <span className="font-medium">{settings.account}</span>
      {!chosen && <Badge variant="warning">Choose before approving</Badge>}
    </div>
  );
}

/**
 * One TikTok account's choices. TikTok's guidelines want the privacy chosen by the user: nothing is
 * preselected, and approvals to the account wait until it is chosen. Each change is saved at once.
 */
function TikTokSettingsRow({ settings }: { settings: AccountPostSettings }) {
  const save = useSaveAccountPostSettings();
  const [creator] = useCreatorOptions([settings.tiktok_account_id]);
  const limits = combineCreatorOptions(creator?.data ? [creator.data] : [], creator?.isLoading ?? false);
  const [interactions, setInteractions] = useState<Interactions>(() => interactionsOf(settings));
  const store = (privacy: PrivacyLevel, next: Interactions) => save.mutate({ id: settings.tiktok_account_id, privacy_level: privacy, ...interactionFlags(next) });

  return (
    <li className="space-y-3 rounded-lg border p-3" data-testid="account-post-settings" data-platform="tiktok" aria-label={`Post settings of ${settings.account}`}>
      <RowHeader settings={settings} platform="tiktok" chosen={settings.privacy_level !== null} />
      <PrivacySelect
        value={settings.privacy_level}
        options={limits.privacyLevels}
        compact
        disabled={save.isPending}
        onChange={(level) => store(level, interactions)}
      />
      <InteractionSettings
        value={interactions}
        locked={limits.locked}
        disabled={save.isPending || settings.privacy_level === null}
        onChange={(next) => {
          setInteractions(next);
          if (settings.privacy_level !== null) store(settings.privacy_level, next);
        }}
      />
    </li>
  );
}

/**
 * One YouTube channel's choices for approved and automatic Shorts: private, unlisted or public (no
 * default), and whether subscribers are notified (off; saved with the privacy, so once it is chosen).
 */
function YouTubeSettingsRow({ settings }: { settings: AccountPostSettings }) {
  const id = useId();
  const save = useSaveAccountPostSettings();
  const privacy = settings.youtube_privacy;
  const notify = settings.youtube_notify_subscribers;
  return (
    <li className="space-y-3 rounded-lg border p-3" data-testid="account-post-settings" data-platform="youtube" aria-label={`Post settings of ${settings.account}`}>
      <RowHeader settings={settings} platform="youtube" chosen={privacy !== null} />
      <YouTubePrivacyChoice
        privacy={privacy}
        disabled={save.isPending}
        onChange={(next) => save.mutate({ id: settings.tiktok_account_id, youtube_privacy: next, youtube_notify_subscribers: notify })}
      />
      <div className="flex items-center gap-2">
        <Checkbox
          id={`${id}-notify`}
          checked={notify}
          disabled={save.isPending || privacy === null}
          onCheckedChange={(next) => {
            if (privacy !== null) save.mutate({ id: settings.tiktok_account_id, youtube_privacy: privacy, youtube_notify_subscribers: next === true });
          }}
        />
        <Label htmlFor={`${id}-notify`}>Notify subscribers</Label>
      </div>
    </li>
  );
}

/** An Instagram account or a Facebook Page: Reels are public, so nothing waits for a choice here. */
function ReelsSettingsRow({ settings }: { settings: AccountPostSettings }) {
  return (
    <li className="space-y-2 rounded-lg border p-3" data-testid="account-post-settings" data-platform={settings.platform} aria-label={`Post settings of ${settings.account}`}>
      <RowHeader settings={settings} platform={settings.platform} chosen />
      <p className="text-sm text-muted-foreground">Public Reels: there is nothing to choose before approving.</p>
    </li>
  );
}

function SettingsRow({ settings }: { settings: AccountPostSettings }) {
  switch (settings.platform) {
    case 'tiktok':
      return <TikTokSettingsRow settings={settings} />;
    case 'youtube':
      return <YouTubeSettingsRow settings={settings} />;
    case 'instagram':
    case 'facebook':
      return <ReelsSettingsRow settings={settings} />;
  }
}

/** Who can see approved (and automatic) posts, chosen once per account where its platform asks (TikTok, YouTube). */
export function AccountPostSettingsCard() {
  const { data, isLoading } = useAccountPostSettings();
  if (!isLoading && (!data || data.length === 0)) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-brand-text" aria-hidden="true" />
          Post settings per account
        </CardTitle>
        <CardDescription>Approved and automatic posts use these. Choose who can see the posts of each account once; you can change it any time.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {data?.map((settings) => (
              <SettingsRow key={settings.tiktok_account_id} settings={settings} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
