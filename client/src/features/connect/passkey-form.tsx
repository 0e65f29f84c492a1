import { useId, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { PasskeyBoxes } from './passkey-boxes';
import type { PasskeyChars } from './passkey-entry';

interface PasskeyFormProps {
  chars: PasskeyChars;
  onChange: (chars: PasskeyChars) => void;
  onSubmit: () => void;
  verifying: boolean;
  refused: boolean;
  /** The server asked this browser to wait: nothing is known about the code. */
  throttled: boolean;
  /** The validation message of a submit with fewer than six characters. */
  error: string | null;
}

/** Under the boxes after a 429: the code may well be right, so it is not called wrong. */
const THROTTLED = 'Too many attempts for now; this says nothing about the code. Wait a few minutes, then press Verify Passkey.';

type StatusLineProps = Pick<PasskeyFormProps, 'verifying' | 'refused' | 'throttled' | 'error'> & { id: string };

function StatusLine({ id, verifying, refused, throttled, error }: StatusLineProps) {
  if (error) {
    return (
      <p id={id} role="alert" className="text-sm font-medium text-danger-soft-foreground">
        {error}
      </p>
    );
  }
  if (verifying) {
    return (
      <p id={id} role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle className="size-4 animate-spin text-brand-text" aria-hidden="true" /> Verifying passkey…
      </p>
    );
  }
  if (throttled) {
    return (
      <p id={id} className="text-sm text-warning-soft-foreground">
        {THROTTLED}
      </p>
    );
  }
  return (
    <p id={id} className={refused ? 'text-sm text-danger-soft-foreground' : 'text-sm text-muted-foreground'}>
      {refused ? 'Check the code with the person who shared it and try again.' : 'Letters and digits only; case does not matter.'}
    </p>
  );
}

/** The six boxes and a Verify button; typing the sixth character verifies on its own. */
export function PasskeyForm({ chars, onChange, onSubmit, verifying, refused, throttled, error }: PasskeyFormProps) {
  const statusId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form aria-label="Guest passkey" className="space-y-4" onSubmit={submit} noValidate>
      <fieldset className="space-y-3">
        <legend className="mb-3 w-full text-center text-sm font-medium">Passkey</legend>
        <PasskeyBoxes
          chars={chars}
          onChange={onChange}
          onSubmit={onSubmit}
          invalid={refused || error !== null}
          describedBy={statusId}
          // eslint-disable-next-line jsx-a11y-x/no-autofocus -- entering the passkey is this screen's only task, and the focused box reads the fieldset's legend and the status line.
          autoFocus
        />
        <div className="min-h-5 text-center">
          <StatusLine id={statusId} verifying={verifying} refused={refused} throttled={throttled} error={error} />
        </div>
      </fieldset>
      <Button type="submit" variant="brand" className="w-full" disabled={verifying}>
        {verifying && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        Verify Passkey
      </Button>
    </form>
  );
}
