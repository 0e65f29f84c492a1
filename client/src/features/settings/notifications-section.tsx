import { useState } from 'react';
import { BellRing, LoaderCircle, Plus, Send, Trash2 } from 'lucide-react';
import { WEBHOOK_KIND_LABELS, type Webhook } from '@clipshift/shared';
import { useDeleteWebhook, useTestWebhook, useWebhooks, webhookMessages, type TestOutcome } from '@/api/webhooks';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { WithTooltip } from '@/components/ui/tooltip';
import { WebhookDialog } from './webhook-dialog';

/** Host and the start of the path: Discord's and Slack's URLs end in a token nobody needs to read. */
function shortUrl(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.length > 16 ? `${parsed.pathname.slice(0, 15)}…` : parsed.pathname;
  return `${parsed.host}${path === '/' ? '' : path}`;
}

function LastStatus({ webhook }: { webhook: Webhook }) {
  if (webhook.last_status === null && webhook.last_error === null) return <Badge variant="muted">Not sent yet</Badge>;
  const ok = webhook.last_status !== null && webhook.last_status >= 200 && webhook.last_status < 300 && webhook.last_error === null;
  const label = webhook.last_status === null ? 'Unreachable' : `HTTP ${webhook.last_status}`;
  if (ok) return <Badge variant="success">{label}</Badge>;
  const error = webhook.last_error ?? label;
  return (
    <WithTooltip label={error}>
      <button type="button" className="rounded-md focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none" aria-label={`${label}, last delivery failed: ${error}`}>
        <Badge variant="destructive">{label}</Badge>
      </button>
    </WithTooltip>
  );
}

interface WebhookItemProps {
  webhook: Webhook;
  testing: boolean;
  removing: boolean;
  outcome: TestOutcome | undefined;
  onTest: () => void;
  onRemove: () => void;
}

function WebhookItem({ webhook, testing, removing, outcome, onTest, onRemove }: WebhookItemProps) {
  const name = shortUrl(webhook.url);
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="webhook-row" aria-label={name}>
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-mono text-sm" title={webhook.url}>
            {name}
          </span>
          <Badge variant="secondary">{WEBHOOK_KIND_LABELS[webhook.kind]}</Badge>
          <LastStatus webhook={webhook} />
        </div>
        <p className="text-xs break-words text-muted-foreground">{webhook.events.join(', ')}</p>
        <p role="status" aria-live="polite" className={outcome ? (outcome.ok ? 'text-sm text-success-soft-foreground' : 'text-sm text-danger-soft-foreground') : 'sr-only'} data-testid="webhook-test-outcome">
          {outcome?.text ?? ''}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="outline" size="sm" disabled={testing} aria-label={`Test ${name}`} onClick={onTest}>
          {testing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          Test
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger-soft-foreground hover:bg-danger-soft hover:text-danger-soft-foreground"
          disabled={removing}
          aria-label={`Delete ${name}`}
          onClick={onRemove}
        >
          {removing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
          Delete
        </Button>
      </div>
    </li>
  );
}

function WebhookList() {
  const webhooks = useWebhooks();
  const { remove, removingId } = useDeleteWebhook();
  const { test, testingId, outcomes } = useTestWebhook();
  if (webhooks.isPending) return <Skeleton className="h-20 w-full" />;
  if (webhooks.isError) return <LoadFailed icon={BellRing} title={webhookMessages.loadFailed} onRetry={() => void webhooks.refetch()} />;
  if (webhooks.data.length === 0) return <EmptyState icon={BellRing} title={webhookMessages.emptyTitle} description={webhookMessages.emptyDescription} />;
  return (
    <ul className="space-y-2" aria-label="Webhooks">
      {webhooks.data.map((webhook) => (
        <WebhookItem
          key={webhook.id}
          webhook={webhook}
          testing={testingId === webhook.id}
          removing={removingId === webhook.id}
          outcome={outcomes[webhook.id]}
          onTest={() => test(webhook.id)}
          onRemove={() => remove(webhook.id)}
        />
      ))}
    </ul>
  );
}

/** Settings › Notifications: webhooks told about runs, posts and accounts, each with a Test. */
export function NotificationsSection() {
  const [adding, setAdding] = useState(false);
  return (
    <Card role="region" aria-labelledby="settings-notifications-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-notifications-title">Notifications</CardTitle>
          <CardDescription>Webhooks Clipshift calls when runs finish or fail, posts go out or fail, and accounts need reconnecting.</CardDescription>
        </div>
        <CardAction>
          <Button variant="brand" size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add webhook
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        <WebhookList />
      </CardContent>
      <WebhookDialog open={adding} onOpenChange={setAdding} />
    </Card>
  );
}
