import { Cpu } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { readSettings } from '@/lib/storage';

function SettingValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border bg-muted/40 px-4 py-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-mono text-sm font-medium">{value}</dd>
    </div>
  );
}

/** Editing these arrives with clip processing; for now the stored values are shown as they are. */
export function ProcessingSection() {
  const settings = readSettings();
  return (
    <Card role="region" aria-labelledby="settings-processing-title">
      <CardHeader>
        <CardTitle id="settings-processing-title" className="flex items-center gap-2">
          <Cpu className="size-4 text-brand" aria-hidden="true" /> Processing
          <Badge variant="brand">Coming soon</Badge>
        </CardTitle>
        <CardDescription>How many clips are processed at once and which speech model writes subtitles. Editing these comes with clip processing.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          <SettingValue label="Concurrency" value={String(settings.concurrency)} />
          <SettingValue label="Transcription model" value={settings.whisper_model} />
        </dl>
      </CardContent>
    </Card>
  );
}
