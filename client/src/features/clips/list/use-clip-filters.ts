import { useSearchParams } from 'react-router-dom';
import { useCallback, useState } from 'react';
import { FILTER_DEBOUNCE_MS, type ClipSort } from '@clipshift/shared';
import { useDebouncedValue } from '@/lib/use-debounced-value';

/** What the server filters by; an empty streamer means every streamer. */
export interface ClipQueryFilters {
  streamer: string;
  search: string;
}

/**
 * The filter bar's state. Streamer and search reach the server 300 ms after the last change (spec
 * section 5) and send the list back to page 1; the sort applies at once, on the client.
 */
export function useClipFilters() {
  // A link such as the finished-download toast's (/app/clips?streamer=name) opens the screen filtered.
  const [searchParams] = useSearchParams();
  const [streamer, setStreamer] = useState(() => searchParams.get('streamer') ?? '');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ClipSort>('default');
  const [paging, setPaging] = useState({ page: 1, filtersKey: '' });

  const debouncedStreamer = useDebouncedValue(streamer, FILTER_DEBOUNCE_MS);
  const debouncedSearch = useDebouncedValue(search.trim(), FILTER_DEBOUNCE_MS);
  const filtersKey = JSON.stringify([debouncedStreamer, debouncedSearch]);
  // A page number belongs to the filters it was chosen under; new filters start at page 1.
  const page = paging.filtersKey === filtersKey ? paging.page : 1;
  const setPage = useCallback((next: number) => setPaging({ page: Math.max(1, next), filtersKey }), [filtersKey]);

  return {
    streamer,
    setStreamer,
    search,
    setSearch,
    sort,
    setSort,
    page,
    setPage,
    applied: { streamer: debouncedStreamer, search: debouncedSearch } satisfies ClipQueryFilters,
  };
}
