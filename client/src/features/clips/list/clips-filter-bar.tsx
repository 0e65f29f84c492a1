import { CLIP_SORT_LABELS, CLIP_SORTS, type ClipSort } from '@clipshift/shared';
import { Card, CardContent } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { streamerTitle } from '@/api/streamers';
import { SearchField } from '@/components/search-field';

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
        <SearchField label="Search clips by title" placeholder="Search by title…" value={props.search} onChange={props.onSearchChange} />
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
