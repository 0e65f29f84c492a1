import { useId, useState, type FormEvent } from 'react';
import { Copy, LoaderCircle, TriangleAlert } from 'lucide-react';
import { TOKEN_NAME_MAX_LENGTH, TOKEN_SCOPE_LABELS, TOKEN_SCOPES, type CreatedToken, type TokenScope } from '@clipshift/shared';
import { formErrorMessage } from '@/api/errors';
import { tokenMessages, useCreateApiToken } from '@/api/tokens';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCopyWithToast } from './use-copy';

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
  const copy = useCopyWithToast('Token copied', 'Could not copy the token');
  return (
    <>
      <DialogHeader>
        <DialogTitle>Copy your new token</DialogTitle>
        <DialogDescription>
          “{created.name}” can now {created.scopes.join(', ')}. Put it in your script or assistant as <span className="font-mono">Authorization: Bearer …</span>
        </DialogDescription>
      </DialogHeader>
      <Alert variant="info">
        <TriangleAlert aria-hidden="true" />
        <p>You won’t see it again: Clipshift keeps only a hash of it. If you lose it, revoke it and create another.</p>
      </Alert>
      <div className="flex items-center gap-2">
        <Input readOnly value={created.token} aria-label="API token" className="font-mono text-xs" data-testid="api-token-value" onFocus={(event) => event.target.select()} />
        <Button type="button" variant="outline" size="icon" aria-label="Copy token" onClick={() => void copy(created.token)}>
          <Copy aria-hidden="true" />
        </Button>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
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
      {create.isError && (
        <Alert variant="destructive" role="alert">
          {formErrorMessage(create.error, tokenMessages.createFailed)}
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending || noScopes || !name.trim()}>
          {create.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Create token
        </Button>
      </DialogFooter>
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
