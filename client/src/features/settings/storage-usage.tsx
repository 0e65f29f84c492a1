import { HardDrive } from 'lucide-react';
import { useStorageUsage } from '@/api/settings';
import { formatBytes, plural } from '@/lib/format';

/** One line under the processing preferences: how much storage the user's clips take, where, and for how long. */
export function StorageUsageLine() {
  const { data, isError } = useStorageUsage();
  const text = isError ? 'Storage used could not be read.' : data ? usageText(data) : 'Measuring storage used…';
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="storage-usage">
      <HardDrive className="size-4" aria-hidden="true" /> {text}
    </p>
  );
}

function usageText(data: { bytes: number; clips: number; storage: 'local' | 's3'; retention_days: number | null }): string {
  const where = data.storage === 's3' ? "in the server's object storage" : 'on the server';
  const retention = data.retention_days ? ` Videos are deleted ${plural(data.retention_days, 'day')} after their last post; details and thumbnails stay.` : '';
  return `Your clips use ${formatBytes(data.bytes)} ${where} (${plural(data.clips, 'clip')}).${retention}`;
}
