import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import type { AccountPostSettings } from '@clipshift/shared';
import { useAccountPostSettings, useSaveAccountPostSettings } from '@/api/review';
import { useCreatorOptions } from '@/api/tiktok-accounts';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { InteractionSettings } from '../post-wizard/interaction-settings';
import { PrivacySelect } from '../shared/privacy-select';
import { combineCreatorOptions, interactionFlags, type Interactions, type PrivacyLevel } from '../shared/tiktok-posting';

function interactionsOf(settings: AccountPostSettings): Interactions {
  return { comments: !settings.disable_comment, duet: !settings.disable_duet, stitch: !settings.disable_stitch };
}

/**
 * One account's choices. TikTok's guidelines want the privacy chosen by the user: nothing is
 * preselected, and approvals to the account wait until it is chosen. Each change is saved at once.
 */
function AccountSettingsRow({ settings }: { settings: AccountPostSettings }) {
  const save = useSaveAccountPostSettings();
  const [creator] = useCreatorOptions([settings.tiktok_account_id]);
  const limits = combineCreatorOptions(creator?.data ? [creator.data] : [], creator?.isLoading ?? false);
  const [interactions, setInteractions] = useState<Interactions>(() => interactionsOf(settings));
  const store = (privacy: PrivacyLevel, next: Interactions) => save.mutate({ id: settings.tiktok_account_id, privacy_level: privacy, ...interactionFlags(next) });

  return (
    <li className="space-y-3 rounded-lg border p-3" data-testid="account-post-settings" aria-label={`Post settings of ${settings.account}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{settings.account}</span>
        {settings.privacy_level === null && <Badge variant="warning">Choose before approving</Badge>}
      </div>
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

/** Who can see approved (and automatic) posts, chosen once per account. */
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
            {data?.map((settings) => <AccountSettingsRow key={settings.tiktok_account_id} settings={settings} />)}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
