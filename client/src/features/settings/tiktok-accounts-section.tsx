import { Info, Plus } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { GuestCode } from './guest-code';

/** Account listing and OAuth connect arrive with the TikTok issue; the guest code works today. */
export function TikTokAccountsSection() {
  return (
    <Card role="region" aria-labelledby="settings-tiktok-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-tiktok-title">TikTok Accounts</CardTitle>
          <CardDescription>The TikTok accounts Clipshift posts your clips to.</CardDescription>
        </div>
        <CardAction>
          <Button variant="brand" size="sm" disabled>
            <Plus /> Connect Account
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        <Alert variant="info">
          <Info aria-hidden="true" />
          <div className="space-y-1">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
              Connecting TikTok accounts arrives soon <Badge variant="brand">Coming soon</Badge>
            </p>
            <p className="text-muted-foreground">Your connected accounts and the streamers linked to them will be listed here.</p>
          </div>
        </Alert>
        <GuestCode />
      </CardContent>
    </Card>
  );
}
