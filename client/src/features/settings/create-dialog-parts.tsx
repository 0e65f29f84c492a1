import type { ReactNode } from 'react';
import { Copy, LoaderCircle } from 'lucide-react';
import { formErrorMessage } from '@/api/errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useCopyWithToast } from './use-copy';

/* The two halves every "create a secret thing" dialog of Settings has: the form's end, and the value shown once. */

/** What went wrong (when it did), Cancel, and the submit button with its spinner. */
export function CreateFormFooter({ error, failedMessage, pending, disabled, submitLabel, onCancel }: {
  error: unknown;
  failedMessage: string;
  pending: boolean;
  disabled: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {error ? (
        <Alert variant="destructive" role="alert">
          {formErrorMessage(error, failedMessage)}
        </Alert>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || disabled}>
          {pending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}

/** A secret shown this once, with a copy button; `notice` says what to do with it. */
export function ShownOnce({ title, description, notice, value, what, testId, onDone }: {
  title: string;
  description: ReactNode;
  notice?: ReactNode;
  value: string;
  /** "token", "secret": the field's and the copy button's names. */
  what: { label: string; copy: string; copied: string; copyFailed: string };
  testId: string;
  onDone: () => void;
}) {
  const copy = useCopyWithToast(what.copied, what.copyFailed);
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {notice}
      <div className="flex items-center gap-2">
        <Input readOnly value={value} aria-label={what.label} className="font-mono text-xs" data-testid={testId} onFocus={(event) => event.target.select()} />
        <Button type="button" variant="outline" size="icon" aria-label={what.copy} onClick={() => void copy(value)}>
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
