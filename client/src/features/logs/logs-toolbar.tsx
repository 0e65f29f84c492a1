import { RefreshCw, Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
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
      <div className="relative flex-1">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search logs"
          placeholder="Search messages or loggers…"
          className="pl-9"
          value={props.search}
          onChange={(event) => props.onSearchChange(event.target.value)}
        />
      </div>
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
