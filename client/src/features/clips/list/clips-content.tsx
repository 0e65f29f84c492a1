import { loadFailureDescription } from '@/api/errors';
import { Film, SearchX } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Clip } from '@clipshift/shared';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/lib/paths';
import type { ClipActions } from '../shared/clip-actions';
import { ClipGrid } from './clip-card';
import { ClipListView } from './clip-list-view';
import { clipMessages } from '@/api/clips';
import { LoadFailed } from '@/components/load-failed';
import type { ClipView } from './use-clip-view';

function ClipsSkeleton({ view }: { view: ClipView }) {
  if (view === 'list') {
    return (
      <div className="space-y-2" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-hidden="true">
      {Array.from({ length: 8 }, (_, index) => (
        <Skeleton key={index} className="aspect-[3/4] w-full rounded-xl" />
      ))}
    </div>
  );
}

function NoClips({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return <EmptyState icon={SearchX} title="No Clips Found" description="No clip matches this streamer and search. Try other filters." className="py-16" />;
  }
  return (
    <EmptyState
      icon={Film}
      title="No Clips Found"
      description="Download clips for your streamers from the Dashboard and they will appear here."
      action={
        <Button asChild variant="brand">
          <Link to={paths.app.dashboard}>Go to Dashboard</Link>
        </Button>
      }
      className="py-16"
    />
  );
}

interface ClipsContentProps {
  view: ClipView;
  clips: readonly Clip[] | undefined;
  loading: boolean;
  /** The failed load's error; null while nothing failed. */
  error: unknown;
  filtered: boolean;
  actions: ClipActions;
  onRetry: () => void;
}

/** Skeleton, failure, empty state, or the clips in the chosen view. */
export function ClipsContent({ view, clips, loading, error, filtered, actions, onRetry }: ClipsContentProps) {
  if (loading) return <ClipsSkeleton view={view} />;
  if (!clips) {
    if (!error) return null;
    return (
      <LoadFailed
        icon={Film}
        title={clipMessages.loadFailed}
        description={loadFailureDescription(error)}
        onRetry={onRetry}
        className="py-16"
      />
    );
  }
  if (clips.length === 0) return <NoClips filtered={filtered} />;
  return view === 'list' ? <ClipListView clips={clips} actions={actions} /> : <ClipGrid clips={clips} actions={actions} />;
}
