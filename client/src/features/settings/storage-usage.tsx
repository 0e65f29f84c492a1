import { HardDrive } from 'lucide-react';
import { useStorageUsage } from '@/api/settings';
import { formatBytes, plural } from '@/lib/format';

/** One line under the processing preferences: how much disk the user's clips take on the server. */
export function StorageUsageLine() {
  const { data, isError } = useStorageUsage();
  const text = isError ? 'Storage used could not be read.' : data ? `Your clips use ${formatBytes(data.bytes)} on the server (${plural(data.clips, 'clip')}).` : 'Measuring storage used…';
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="storage-usage">
      <HardDrive className="size-4" aria-hidden="true" /> {text}
    </p>
  );
}
