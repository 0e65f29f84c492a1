import { RefreshCw } from 'lucide-react';
import { SearchField } from '@/components/search-field';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { LEVEL_FILTER_OPTIONS, parseLevelFilter, type LevelFilter } from './log-filters';

interface LogsToolbarProps {
  search: string;
  onSearchChange: (value: string) => void;
  level: LevelFilter;
  onLevelChange: (value: LevelFilter) => void;
  autoRefresh: boolean;
  onAutoRefreshChange: (value: boolean) => void;
  refreshing: boolean;
  onRefresh: () => void;
}

export function LogsToolbar(props: LogsToolbarProps) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
      <SearchField label="Search logs" placeholder="Search messages or loggers…" value={props.search} onChange={props.onSearchChange} />
      <div className="flex flex-wrap items-center gap-3">
        <Select value={props.level} onValueChange={(value) => props.onLevelChange(parseLevelFilter(value))}>
          <SelectTrigger aria-label="Filter by level" className="w-40">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {LEVEL_FILTER_OPTIONS.map((option) => (
              <SelectItem key={option.value} value={option.value}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <div className="flex items-center gap-2">
          <Checkbox
            id="logs-auto-refresh"
            checked={props.autoRefresh}
            onCheckedChange={(checked) => props.onAutoRefreshChange(checked === true)}
          />
          <Label htmlFor="logs-auto-refresh" className="cursor-pointer font-normal">
            Auto-refresh
          </Label>
        </div>
        <Button variant="outline" size="sm" onClick={props.onRefresh} disabled={props.refreshing}>
          <RefreshCw className={cn(props.refreshing && 'animate-spin')} aria-hidden="true" />
          Refresh
        </Button>
      </div>
    </div>
  );
}
