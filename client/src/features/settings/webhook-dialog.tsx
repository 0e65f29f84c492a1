import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_KIND_LABELS,
  WEBHOOK_KINDS,
  WEBHOOK_SECRET_MIN_LENGTH,
  type WebhookEvent,
  type WebhookKind,
} from '@clipshift/shared';
import { useCreateWebhook, webhookMessages } from '@/api/webhooks';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { CreateFormFooter, ShownOnce } from './create-dialog-parts';

/** 32 random bytes as hex, the same strength as the server's generated secrets. */
function generateSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const KIND_HINTS: Record<WebhookKind, string> = {
  discord: "Paste a Discord channel's webhook URL (Channel settings › Integrations › Webhooks).",
  slack: 'Paste a Slack incoming-webhook URL.',
  json: 'Any HTTPS endpoint: {event, created_at, data}, signed with X-Clipshift-Signature (HMAC-SHA256 of the body).',
};

function SecretShownOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnce
      title="Save the signing secret"
      description="It is shown this once: Clipshift stores it encrypted and never shows it again."
      value={secret}
      what={{ label: 'Signing secret', copy: 'Copy secret', copied: 'Secret copied', copyFailed: 'Could not copy the secret' }}
      testId="webhook-secret"
      onDone={onDone}
    />
  );
}

function WebhookForm({ onCreated, onCancel }: { onCreated: (secret: string | null) => void; onCancel: () => void }) {
  const ids = { url: useId(), kind: useId(), events: useId(), secret: useId(), hint: useId() };
  const [url, setUrl] = useState('');
  const [kind, setKind] = useState<WebhookKind>('discord');
  const [events, setEvents] = useState<WebhookEvent[]>(['run.failed', 'post.failed', 'account.reconnect']);
  const [secret, setSecret] = useState('');
  const create = useCreateWebhook(onCreated);
  const noEvents = events.length === 0;

  const toggle = (event: WebhookEvent, on: boolean) => setEvents((list) => (on ? WEBHOOK_EVENTS.filter((item) => item === event || list.includes(item)) : list.filter((item) => item !== event)));
  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    if (noEvents) return;
    create.mutate({ url: url.trim(), kind, events, ...(kind === 'json' && secret ? { secret } : {}) });
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Add webhook</DialogTitle>
        <DialogDescription>Clipshift posts to this address when the events you choose happen.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={ids.kind}>Kind</Label>
        <Select value={kind} onValueChange={(value) => setKind(value as WebhookKind)}>
          <SelectTrigger id={ids.kind} aria-describedby={ids.hint}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {WEBHOOK_KINDS.map((item) => (
              <SelectItem key={item} value={item}>
                {WEBHOOK_KIND_LABELS[item]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id={ids.hint} className="text-xs text-muted-foreground">
          {KIND_HINTS[kind]}
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.url}>URL</Label>
        <Input id={ids.url} type="url" inputMode="url" required placeholder="https://" value={url} onChange={(event) => setUrl(event.target.value)} />
      </div>
      <fieldset className="grid gap-2" aria-describedby={noEvents ? ids.events : undefined}>
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <div key={event} className="flex items-center gap-2">
            <Checkbox id={`${ids.events}-${event}`} checked={events.includes(event)} onCheckedChange={(checked) => toggle(event, checked === true)} />
            <Label htmlFor={`${ids.events}-${event}`} className="font-normal">
              {WEBHOOK_EVENT_LABELS[event]} <span className="text-xs text-muted-foreground">({event})</span>
            </Label>
          </div>
        ))}
        {noEvents && (
          <p id={ids.events} className="text-xs text-danger-soft-foreground">
            Choose at least one event.
          </p>
        )}
      </fieldset>
      {kind === 'json' && (
        <div className="grid gap-2">
          <Label htmlFor={ids.secret}>Signing secret (optional)</Label>
          <div className="flex items-center gap-2">
            <Input
              id={ids.secret}
              value={secret}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
              placeholder={`Generated when empty (at least ${WEBHOOK_SECRET_MIN_LENGTH} characters)`}
              onChange={(event) => setSecret(event.target.value)}
            />
            <Button type="button" variant="outline" size="sm" onClick={() => setSecret(generateSecret())}>
              <KeyRound aria-hidden="true" />
              Generate
            </Button>
          </div>
        </div>
      )}
      <CreateFormFooter
        error={create.isError ? create.error : null}
        failedMessage={webhookMessages.createFailed}
        pending={create.isPending}
        disabled={noEvents || !url.trim()}
        submitLabel="Add webhook"
        onCancel={onCancel}
      />
    </form>
  );
}

/** Add a webhook; a json one then shows its signing secret, once. */
export function WebhookDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent aria-describedby={undefined}>
        {secret ? (
          <SecretShownOnce secret={secret} onDone={close} />
        ) : (
          <WebhookForm key={String(open)} onCreated={(created) => (created ? setSecret(created) : close())} onCancel={close} />
        )}
      </DialogContent>
    </Dialog>
  );
}
