import { useId, useState, type FormEvent } from 'react';
import { TriangleAlert } from 'lucide-react';
import { TOKEN_NAME_MAX_LENGTH, TOKEN_SCOPE_LABELS, TOKEN_SCOPES, type CreatedToken, type TokenScope } from '@clipshift/shared';
import { tokenMessages, useCreateApiToken } from '@/api/tokens';
import { Alert } from '@/components/ui/alert';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { CreateFormFooter, ShownOnce } from './create-dialog-parts';

/** How long a new token lasts; "never" sends no expires_in_days. */
const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

function TokenShownOnce({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  return (
    <ShownOnce
      title="Copy your new token"
      description={
        <>
          “{created.name}” can now {created.scopes.join(', ')}. Put it in your script or assistant as <span className="font-mono">Authorization: Bearer …</span>
        </>
      }
      notice={
        <Alert variant="info">
          <TriangleAlert aria-hidden="true" />
          <p>You won’t see it again: Clipshift keeps only a hash of it. If you lose it, revoke it and create another.</p>
        </Alert>
      }
      value={created.token}
      what={{ label: 'API token', copy: 'Copy token', copied: 'Token copied', copyFailed: 'Could not copy the token' }}
      testId="api-token-value"
      onDone={onDone}
    />
  );
}

function TokenForm({ isAdmin, onCreated, onCancel }: { isAdmin: boolean; onCreated: (created: CreatedToken) => void; onCancel: () => void }) {
  const ids = { name: useId(), scopes: useId(), expiry: useId() };
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<ExpiryChoice>('90');
  const create = useCreateApiToken(onCreated);
  const offered = TOKEN_SCOPES.filter((scope) => scope !== 'admin' || isAdmin);
  const noScopes = scopes.length === 0;

  const toggle = (scope: TokenScope, on: boolean) => setScopes((list) => (on ? TOKEN_SCOPES.filter((item) => item === scope || list.includes(item)) : list.filter((item) => item !== scope)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noScopes || !name.trim()) return;
    create.mutate({ name: name.trim(), scopes, ...(expiry === 'never' ? {} : { expires_in_days: Number(expiry) }) });
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Create API token</DialogTitle>
        <DialogDescription>A token acts as you, limited to the scopes you tick.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Name</Label>
        <Input id={ids.name} required maxLength={TOKEN_NAME_MAX_LENGTH} placeholder="e.g. Claude Desktop" value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <fieldset className="grid gap-2" aria-describedby={noScopes ? ids.scopes : undefined}>
        <legend className="mb-1 text-sm font-medium">Scopes</legend>
        {offered.map((scope) => (
          <div key={scope} className="flex items-start gap-2">
            <Checkbox id={`${ids.scopes}-${scope}`} className="mt-0.5" checked={scopes.includes(scope)} onCheckedChange={(checked) => toggle(scope, checked === true)} />
            <Label htmlFor={`${ids.scopes}-${scope}`} className="leading-snug font-normal">
              {TOKEN_SCOPE_LABELS[scope]}
            </Label>
          </div>
        ))}
        {noScopes && (
          <p id={ids.scopes} className="text-xs text-danger-soft-foreground">
            Choose at least one scope.
          </p>
        )}
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={ids.expiry}>Expires</Label>
        <Select value={expiry} onValueChange={(value) => setExpiry(value as ExpiryChoice)}>
          <SelectTrigger id={ids.expiry}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {EXPIRY_CHOICES.map((choice) => (
              <SelectItem key={choice.value} value={choice.value}>
                {choice.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <CreateFormFooter
        error={create.isError ? create.error : null}
        failedMessage={tokenMessages.createFailed}
        pending={create.isPending}
        disabled={noScopes || !name.trim()}
        submitLabel="Create token"
        onCancel={onCancel}
      />
    </form>
  );
}

/** Create an API token, then show its value once. */
export function ApiTokenDialog({ open, isAdmin, onOpenChange }: { open: boolean; isAdmin: boolean; onOpenChange: (open: boolean) => void }) {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const close = () => {
    setCreated(null);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent aria-describedby={undefined}>
        {created ? <TokenShownOnce created={created} onDone={close} /> : <TokenForm key={String(open)} isAdmin={isAdmin} onCreated={setCreated} onCancel={close} />}
      </DialogContent>
    </Dialog>
  );
}
