import { useId, type FormEvent } from 'react';
import { Cpu, KeyRound, Save } from 'lucide-react';
import { CONCURRENCY_MAX, CONCURRENCY_MIN, DEFAULT_CONCURRENCY, DEFAULT_WHISPER_MODEL, type TranscriptionInfo } from '@clipshift/shared';
import { WHISPER_MODELS } from '@/api/settings';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { StorageUsageLine } from './storage-usage';
import { useProcessingForm, type ProcessingSaveState } from './use-processing-form';

const SAVE_STATE_TEXT: Record<ProcessingSaveState, string> = {
  unsaved: 'Unsaved changes',
  'browser-only': 'Saved in this browser only: save to use them for scheduled work too',
  account: 'Saved to your account',
  defaults: 'Defaults',
};

interface ModelFieldProps {
  value: string;
  onChange: (model: string) => void;
  /** Where speech recognition runs and its default model; unknown until the server answers. */
  transcription: TranscriptionInfo | undefined;
}

/** The model field as speech recognition runs: whisper.cpp's models here, or a transcription server's id. */
function WhisperModelField(props: ModelFieldProps) {
  return props.transcription?.engine === 'openai' ? <ServerModelField {...props} defaultModel={props.transcription.default_model} /> : <LocalModelField {...props} />;
}

/**
 * Transcription on an OpenAI-compatible server runs the model id sent to it, not one of
 * whisper.cpp's: the field shows that id (the server's default until another is saved).
 */
function ServerModelField({ value, onChange, defaultModel }: ModelFieldProps & { defaultModel: string }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Transcription model</Label>
      <Input id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={hintId} autoComplete="off" spellCheck={false} />
      <p id={hintId} className="text-xs text-muted-foreground">
        Subtitles are transcribed by this server&apos;s OpenAI-compatible transcription service, with this model (its default:{' '}
        <span className="font-mono">{defaultModel}</span>).
      </p>
    </div>
  );
}

function LocalModelField({ value, onChange, transcription }: ModelFieldProps) {
  const id = useId();
  const hintId = useId();
  const defaultModel = transcription?.default_model ?? DEFAULT_WHISPER_MODEL;
  const modelLabel = (model: string) => (model === defaultModel ? `${model} (default)` : model);
  // A model stored earlier that is not in the list stays choosable instead of silently changing.
  const models: readonly string[] = WHISPER_MODELS.includes(value as (typeof WHISPER_MODELS)[number])
    ? WHISPER_MODELS
    : [...WHISPER_MODELS, value];
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Transcription model</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} aria-describedby={hintId}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {models.map((model) => (
            <SelectItem key={model} value={model}>
              {modelLabel(model)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p id={hintId} className="text-xs text-muted-foreground">
        The speech model that writes subtitles. Larger models are more accurate and slower.
      </p>
    </div>
  );
}

interface ConcurrencyFieldProps {
  value: string;
  error: string | null;
  onChange: (text: string) => void;
}

function ConcurrencyField({ value, error, onChange }: ConcurrencyFieldProps) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Concurrency</Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={CONCURRENCY_MIN}
        max={CONCURRENCY_MAX}
        step={1}
        value={value}
        aria-invalid={error !== null}
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={hintId} className={error ? 'text-xs text-danger-soft-foreground' : 'text-xs text-muted-foreground'}>
        {error ?? `Clips downloaded and rendered at once, ${CONCURRENCY_MIN} to ${CONCURRENCY_MAX} (default ${DEFAULT_CONCURRENCY}).`}
      </p>
    </div>
  );
}

function CredentialsNote() {
  return (
    <Alert variant="info">
      <KeyRound aria-hidden="true" />
      <p>
        Twitch credentials (<code className="font-mono text-xs">TWITCH_CLIENT_ID</code> and{' '}
        <code className="font-mono text-xs">TWITCH_CLIENT_SECRET</code>) are part of the server&apos;s configuration and never
        reach the browser.
      </p>
    </Alert>
  );
}

/**
 * Processing preferences: the subtitle model and how many clips run at once. Saved to the account
 * (scheduled and automatic work uses them) and in this browser's app-settings.
 */
export function ProcessingSection() {
  const form = useProcessingForm();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.save();
  };
  return (
    <Card role="region" aria-labelledby="settings-processing-title">
      <CardHeader>
        <CardTitle id="settings-processing-title" className="flex items-center gap-2">
          <Cpu className="size-4 text-brand-text" aria-hidden="true" /> Processing
        </CardTitle>
        <CardDescription>Used for your downloads and subtitles, scheduled and automatic ones included.</CardDescription>
      </CardHeader>
      <CardContent>
        <form aria-label="Processing preferences" className="space-y-5" onSubmit={onSubmit} noValidate>
          <div className="grid gap-5 sm:grid-cols-2">
            <WhisperModelField value={form.whisperModel} onChange={form.setWhisperModel} transcription={form.transcription} />
            <ConcurrencyField value={form.concurrencyText} error={form.concurrencyError} onChange={form.setConcurrencyText} />
          </div>
          <CredentialsNote />
          <StorageUsageLine />
          <div className="flex flex-wrap items-center justify-end gap-3">
            <span className="text-xs text-muted-foreground" data-testid="processing-save-state">
              {SAVE_STATE_TEXT[form.state]}
            </span>
            <Button type="submit" variant="brand" size="sm" disabled={!form.dirty || form.saving || form.concurrencyError !== null}>
              <Save aria-hidden="true" /> Save
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
