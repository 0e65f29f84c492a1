interface ColorSwatchProps {
  id: string;
  /** #RRGGBB */
  value: string;
  onChange: (value: string) => void;
}

/**
 * The browser's colour picker as a swatch. Colours come out in capitals, as the server keeps them,
 * so a saved colour reads as unchanged.
 */
export function ColorSwatch({ id, value, onChange }: ColorSwatchProps) {
  return (
    <input
      id={id}
      type="color"
      value={value.toLowerCase()}
      onChange={(event) => onChange(event.target.value.toUpperCase())}
      className="h-9 w-11 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
    />
  );
}
