import { Search } from 'lucide-react';
import { CLIP_SORT_LABELS, CLIP_SORTS, type ClipSort } from '@clipshift/shared';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { streamerTitle } from '@/api/streamers';

/** Radix Select values cannot be empty, so "every streamer" has a value of its own. */
const ALL_STREAMERS = '__all__';

function isClipSort(value: string): value is ClipSort {
  return (CLIP_SORTS as readonly string[]).includes(value);
}

interface StreamerOption {
  name: string;
  display_name: string | null;
}

interface ClipsFilterBarProps {
  streamers: readonly StreamerOption[];
  streamer: string;
  onStreamerChange: (name: string) => void;
  search: string;
  onSearchChange: (text: string) => void;
  sort: ClipSort;
  onSortChange: (sort: ClipSort) => void;
}

/** Streamer, title search and sort; the same controls in card and list view. */
export function ClipsFilterBar(props: ClipsFilterBarProps) {
  // A streamer deleted since its clips were downloaded can still be the active filter.
  const known = props.streamer === '' || props.streamers.some((option) => option.name === props.streamer);
  return (
    <Card className="py-4">
      <CardContent className="flex flex-col gap-3 px-4 sm:px-4 md:flex-row md:items-center">
        <Select value={props.streamer || ALL_STREAMERS} onValueChange={(value) => props.onStreamerChange(value === ALL_STREAMERS ? '' : value)}>
          <SelectTrigger aria-label="Filter by streamer" className="md:w-52">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL_STREAMERS}>All Streamers</SelectItem>
            {props.streamers.map((option) => (
              <SelectItem key={option.name} value={option.name}>
                {streamerTitle(option)}
              </SelectItem>
            ))}
            {!known && <SelectItem value={props.streamer}>{props.streamer}</SelectItem>}
          </SelectContent>
        </Select>
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            aria-label="Search clips by title"
            placeholder="Search by title…"
            className="pl-9"
            value={props.search}
            onChange={(event) => props.onSearchChange(event.target.value)}
          />
        </div>
        <Select value={props.sort} onValueChange={(value) => isClipSort(value) && props.onSortChange(value)}>
          <SelectTrigger aria-label="Sort clips" className="md:w-52">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {CLIP_SORTS.map((sort) => (
              <SelectItem key={sort} value={sort}>
                {CLIP_SORT_LABELS[sort]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </CardContent>
    </Card>
  );
}
