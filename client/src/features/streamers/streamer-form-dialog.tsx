import { useRef, useState, type FormEvent } from 'react';
import { CircleAlert, LoaderCircle } from 'lucide-react';
import type { Streamer } from '@clipshift/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Separator } from '@/components/ui/separator';
import { useSaveStreamer } from '@/api/streamers';
import {
  newStreamerValues,
  saveErrors,
  streamerValues,
  validateStreamerForm,
  type StreamerFormErrors,
  type StreamerFormMode,
  type StreamerFormValues,
} from './streamer-form';
import { StudioLink } from './studio-link';
import { AutomationFields, ClipLimitField, FormatFields, LanguageField, MomentsFields, NameField, ScheduleField, SelectionFields } from './streamer-form-fields';
import { CaptionStyleField, GlossaryField, LoudnessField } from './streamer-studio-fields';

export type StreamerDialogTarget = { mode: 'add' } | { mode: 'edit'; streamer: Streamer };

const COPY: Record<StreamerFormMode, { title: string; description: string; submit: string; pending: string; form: string }> = {
  add: {
    title: 'Add Streamer',
    description: 'Clipshift downloads this Twitch channel’s most viewed clips with the settings below.',
    submit: 'Add Streamer',
    pending: 'Adding…',
    form: 'Add streamer',
  },
  edit: {
    title: 'Edit Streamer',
    description: 'New settings apply to the next download.',
    submit: 'Save Changes',
    pending: 'Saving…',
    form: 'Edit streamer',
  },
};

/** Edits a copy of the values; a field's error clears as soon as that field changes. */
function useStreamerFormState(target: StreamerDialogTarget) {
  const [values, setValues] = useState<StreamerFormValues>(() =>
    target.mode === 'edit' ? streamerValues(target.streamer) : newStreamerValues(),
  );
  const [errors, setErrors] = useState<StreamerFormErrors>({});
  const change = (patch: Partial<StreamerFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current, form: undefined };
      if ('name' in patch) next.name = undefined;
      if ('clipLimit' in patch) next.clipLimit = undefined;
      if ('scheduleInterval' in patch || 'scheduleEnabled' in patch) next.scheduleInterval = undefined;
      if ('layout' in patch || 'regions' in patch) next.layout = undefined;
      if ('captionStyle' in patch) next.captionStyle = next.captionSize = undefined;
      if ('glossary' in patch) next.glossary = undefined;
      if ('momentThresholdPercent' in patch) next.momentThreshold = undefined;
      return next;
    });
  };
  return { values, errors, setErrors, change };
}

interface StreamerFormDialogProps {
  target: StreamerDialogTarget;
  onClose: () => void;
}

/** The add and edit dialog: one form, with the name read-only when editing. */
export function StreamerFormDialog({ target, onClose }: StreamerFormDialogProps) {
  const { mode } = target;
  const copy = COPY[mode];
  const { values, errors, setErrors, change } = useStreamerFormState(target);
  const formRef = useRef<HTMLFormElement>(null);
  // A refused submit takes the user to the first field to fix (it may be scrolled out of view).
  const showErrors = (next: StreamerFormErrors) => {
    setErrors(next);
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };
  const { save, pending } = useSaveStreamer(mode, { onSaved: onClose, onRefused: (error) => showErrors(saveErrors(error, mode)) });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateStreamerForm(values, mode);
    if (!result.ok) {
      showErrors(result.errors);
      return;
    }
    setErrors({});
    save(result.payload);
  };

  const fields = { values, errors, onChange: change };
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{copy.title}</DialogTitle>
          <DialogDescription>{copy.description}</DialogDescription>
        </DialogHeader>
        <form ref={formRef} onSubmit={submit} noValidate aria-label={copy.form} className="space-y-5">
          <NameField {...fields} mode={mode} />
          <div className="grid grid-cols-2 gap-x-4 gap-y-5">
            <ClipLimitField {...fields} />
            <LanguageField {...fields} />
          </div>
          <FormatFields {...fields} />
          <Separator />
          <SelectionFields {...fields} />
          {target.mode === 'edit' && <StudioLink streamerName={target.streamer.name} />}
          <Separator />
          <CaptionStyleField {...fields} />
          <GlossaryField {...fields} />
          <Separator />
          <div className="divide-y rounded-lg border">
            <ScheduleField {...fields} />
            <AutomationFields {...fields} />
            <LoudnessField {...fields} />
          </div>
          <Separator />
          <MomentsFields {...fields} />
          {errors.form && (
            <Alert variant="destructive" role="alert">
              <CircleAlert aria-hidden="true" />
              <span>{errors.form}</span>
            </Alert>
          )}
          {/* Stays in view while the form scrolls, so saving never needs a trip to the bottom. */}
          <DialogFooter className="sticky -bottom-6 -mx-6 -mb-6 flex-row justify-end border-t bg-background px-6 py-4">
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant="brand" disabled={pending}>
              {pending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
              {pending ? copy.pending : copy.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
