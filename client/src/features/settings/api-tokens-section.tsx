import { useState } from 'react';
import { Copy, KeyRound, Plus, Trash2 } from 'lucide-react';
import type { ApiToken } from '@clipshift/shared';
import { useSession } from '@/api/auth';
import { tokenMessages, useApiTokens, useRevokeApiToken } from '@/api/tokens';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatDateTime } from '@/lib/format';
import { ApiTokenDialog } from './api-token-dialog';
import { useCopyWithToast } from './use-copy';

function Expiry({ token }: { token: ApiToken }) {
  if (token.expires_at === null) return <>never expires</>;
  const past = Date.parse(token.expires_at) <= Date.now();
  return past ? <Badge variant="warning">Expired {formatDate(token.expires_at)}</Badge> : <>expires {formatDate(token.expires_at)}</>;
}

function TokenItem({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="api-token-row" aria-label={token.name}>
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{token.name}</span>
          {token.scopes.map((scope) => (
            <Badge key={scope} variant="secondary">
              {scope}
            </Badge>
          ))}
        </div>
        <p className="text-xs text-muted-foreground">
          Created {formatDate(token.created_at)} · <Expiry token={token} /> · {token.last_used_at ? `last used ${formatDateTime(token.last_used_at)}` : 'never used'}
        </p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="shrink-0 self-start text-danger-soft-foreground hover:bg-danger-soft hover:text-danger-soft-foreground"
        aria-label={`Revoke ${token.name}`}
        onClick={onRevoke}
      >
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}

function TokenList() {
  const tokens = useApiTokens();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = useRevokeApiToken(() => setRevoking(null));
  if (tokens.isPending) return <Skeleton className="h-20 w-full" />;
  if (tokens.isError) return <LoadFailed icon={KeyRound} title={tokenMessages.loadFailed} onRetry={() => void tokens.refetch()} />;
  if (tokens.data.length === 0) return <EmptyState icon={KeyRound} title={tokenMessages.emptyTitle} description={tokenMessages.emptyDescription} />;
  return (
    <>
      <ul className="space-y-2" aria-label="API tokens">
        {tokens.data.map((token) => (
          <TokenItem key={token.id} token={token} onRevoke={() => setRevoking(token)} />
        ))}
      </ul>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this token?"
        description={`“${revoking?.name ?? ''}” stops working at once: scripts and assistants using it get 401 on their next request.`}
        confirmLabel="Revoke token"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        destructive
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      />
    </>
  );
}

/** The address an assistant's MCP configuration names, with a copy button. */
function McpEndpoint() {
  const url = `${window.location.origin}/api/mcp`;
  const copy = useCopyWithToast('MCP address copied', 'Could not copy the MCP address');
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">MCP server:</span>
      <span className="font-mono break-all" data-testid="mcp-endpoint">
        {url}
      </span>
      <Button type="button" variant="ghost" size="sm" aria-label="Copy MCP address" onClick={() => void copy(url)}>
        <Copy aria-hidden="true" />
        Copy
      </Button>
    </div>
  );
}

/** Settings › API tokens: tokens for scripts and AI assistants (REST and MCP), each with its scopes. */
export function ApiTokensSection() {
  const session = useSession();
  const isAdmin = session.data?.authenticated === true && session.data.user.is_admin;
  const [creating, setCreating] = useState(false);
  return (
    <Card role="region" aria-labelledby="settings-api-tokens-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-api-tokens-title">API tokens</CardTitle>
          <CardDescription>
            Let scripts and AI assistants use Clipshift as you: the REST API and the MCP server, with <span className="font-mono">Authorization: Bearer</span> and the token.
          </CardDescription>
        </div>
        <CardAction>
          <Button variant="brand" size="sm" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            Create token
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        <McpEndpoint />
        <TokenList />
      </CardContent>
      <ApiTokenDialog open={creating} isAdmin={isAdmin} onOpenChange={setCreating} />
    </Card>
  );
}
