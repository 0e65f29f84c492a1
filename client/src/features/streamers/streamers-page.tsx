import { Users } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function StreamersPage() {
  return (
    <>
      <PageHeader
        title="Streamers"
        description="The Twitch channels Clipshift downloads clips from, with their format, schedule and linked TikTok accounts."
      />
      <EmptyState
        icon={Users}
        title="No streamers yet"
        description="Adding and managing streamers is coming in the next update. Streamers you add will appear here as cards."
        className="py-16"
      />
    </>
  );
}
