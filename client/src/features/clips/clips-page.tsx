import { Film } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function ClipsPage() {
  return (
    <>
      <PageHeader title="Clips" description="Every clip Clipshift has downloaded and converted for you." />
      <EmptyState
        icon={Film}
        title="No Clips Found"
        description="Clips appear here once you download them for a streamer."
        className="py-16"
      />
    </>
  );
}
