import { Search } from 'lucide-react';
import { Input } from '@/components/ui/input';

interface SearchFieldProps {
  /** The field's accessible name, e.g. "Search logs". */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

/** A search box with its magnifier, growing to fill its row. */
export function SearchField({ label, placeholder, value, onChange }: SearchFieldProps) {
  return (
    <div className="relative flex-1">
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" aria-label={label} placeholder={placeholder} className="pl-9" value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}
