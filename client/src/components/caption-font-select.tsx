import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

interface CaptionFontSelectProps {
  id: string;
  value: string;
  /** The families to offer (useCaptionFontFamilies). */
  families: readonly string[];
  onChange: (font: string) => void;
  'aria-describedby'?: string | undefined;
}

/** A caption font picker: the server's fonts by family name. */
export function CaptionFontSelect({ id, value, families, onChange, 'aria-describedby': describedBy }: CaptionFontSelectProps) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger id={id} aria-describedby={describedBy}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent className="max-h-72">
        {families.map((family) => (
          <SelectItem key={family} value={family}>
            {family}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
