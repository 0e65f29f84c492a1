import { useState } from 'react';
import { Clapperboard, LoaderCircle, RefreshCw, Unplug } from 'lucide-react';
import type { TwitchConnection } from '@clipshift/shared';
import { twitchMessages, useConnectTwitch, useDisconnectTwitch, useTwitchConnection } from '@/api/twitch';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadFailed } from '@/components/load-failed';
import { PopupWaitingNote } from '@/components/popup-waiting-note';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

type Connect = ReturnType<typeof useConnectTwitch>;

function ConnectButton({ connect, label }: { connect: Connect; label: string }) {
  return (
    <Button variant="outline" size="sm" disabled={connect.waiting} onClick={connect.connect}>
      {connect.waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RefreshCw aria-hidden="true" />}
      {label}
    </Button>
  );
}

/** The connected account: login, what it may do (its scopes), its state, Reconnect when needed, Disconnect. */
function ConnectedAccount({ connection, connect }: { connection: TwitchConnection & { connected: true }; connect: Connect }) {
  const [confirming, setConfirming] = useState(false);
  const disconnect = useDisconnectTwitch();
  const reconnect = connection.status === 'reconnect';
  return (
    <div className="space-y-3" data-testid="twitch-connection">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium" data-testid="twitch-login">
          {connection.login}
        </span>
        <Badge variant={reconnect ? 'warning' : 'success'} data-testid="twitch-status">
          {reconnect ? twitchMessages.reconnectNeeded : 'Connected'}
        </Badge>
      </div>
      <div className="space-y-1">
        <p className="text-xs text-muted-foreground">Granted scopes</p>
        <ul className="flex flex-wrap gap-1" aria-label="Granted scopes">
          {connection.scopes.map((scope) => (
            <li key={scope}>
              <Badge variant="muted" className="font-mono">
                {scope}
              </Badge>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap gap-2">
        {reconnect && <ConnectButton connect={connect} label="Reconnect Twitch" />}
        <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
          <Unplug aria-hidden="true" />
          Disconnect
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Disconnect Twitch?"
        description={`Clipshift forgets ${connection.login} and asks Twitch to revoke its access. Moments can no longer become clips until you connect again.`}
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting…"
        pending={disconnect.isPending}
        destructive
        onConfirm={() => disconnect.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </div>
  );
}

function TwitchBody({ connect }: { connect: Connect }) {
  const connection = useTwitchConnection();
  if (connection.isPending) return <Skeleton className="h-16 w-full" />;
  if (connection.isError) return <LoadFailed icon={Clapperboard} title={twitchMessages.loadFailed} onRetry={() => void connection.refetch()} />;
  const data = connection.data;
  if (!data.connected) {
    return (
      <div className="space-y-2">
        <p className="text-sm text-muted-foreground">No Twitch account connected.</p>
        <Button variant="outline" size="sm" disabled={connect.waiting} onClick={connect.connect}>
          {connect.waiting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Clapperboard aria-hidden="true" />}
          Connect Twitch
        </Button>
      </div>
    );
  }
  return <ConnectedAccount connection={{ ...data, connected: true }} connect={connect} />;
}

/**
 * Settings' "Twitch": the user's own Twitch account, which turns moments into Twitch clips and
 * fetches the clip files (portrait versions included) of the channels it may edit.
 */
export function TwitchSection() {
  const connect = useConnectTwitch();
  return (
    <Card role="region" aria-labelledby="settings-twitch-title">
      <CardHeader>
        <CardTitle id="settings-twitch-title">Twitch</CardTitle>
        <CardDescription>
          Your own Twitch account: it turns moments into Twitch clips, and downloads the official files (with the streamer&apos;s vertical version) of the
          channels it owns or edits.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <TwitchBody connect={connect} />
        {connect.waiting && <PopupWaitingNote platform="Twitch" />}
      </CardContent>
    </Card>
  );
}
