import { useId, type ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Slider } from '@/components/ui/slider';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import type { StudioMode } from './studio-draft';

/**
 * Whose value a field shows: the streamer's default (or `fallback`, where a clip's field falls back
 * to something else), or this clip's own (a streamer's: default or custom).
 */
export function SourceTag({ mode, own, fallback = 'Streamer default' }: { mode: StudioMode; own: boolean; fallback?: string }) {
  const text = mode === 'clip' ? (own ? 'This clip' : fallback) : own ? 'Custom' : 'Default';
  return (
    <Badge variant={own ? 'brand' : 'muted'} className="font-normal" data-testid="source-tag">
      {text}
    </Badge>
  );
}

interface SectionHeaderProps {
  title: string;
  description: string;
  mode: StudioMode;
  own: boolean;
  onReset: () => void;
}

/** A section's title, whose values it shows, and its way back to the fallback. */
export function SectionHeader({ title, description, mode, own, onReset }: SectionHeaderProps) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{title}</h2>
          <SourceTag mode={mode} own={own} />
        </div>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={onReset} disabled={!own}>
        <RotateCcw aria-hidden="true" />
        {mode === 'clip' ? 'Reset to streamer default' : 'Reset to defaults'}
      </Button>
    </div>
  );
}

interface FieldRowProps {
  label: string;
  htmlFor?: string;
  labelId?: string;
  /** The value in words beside the label ("35%", "80 px"). */
  display?: string;
  tag?: ReactNode;
  hint?: string;
  hintId?: string;
  children: ReactNode;
  className?: string;
}

export function FieldRow({ label, htmlFor, labelId, display, tag, hint, hintId, children, className }: FieldRowProps) {
  return (
    <div className={cn('space-y-2', className)}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor={htmlFor} id={labelId}>
            {label}
          </Label>
          {tag}
        </div>
        {display && <span className="text-sm text-muted-foreground tabular-nums">{display}</span>}
      </div>
      {children}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

interface SliderFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (value: number) => string;
  onChange: (value: number) => void;
  tag?: ReactNode;
  hint?: string;
  disabled?: boolean;
}

export function SliderField({ label, value, min, max, step, format, onChange, tag, hint, disabled }: SliderFieldProps) {
  const id = useId();
  return (
    <FieldRow label={label} htmlFor={id} display={format(value)} tag={tag} hint={hint} hintId={`${id}-hint`}>
      <Slider
        id={id}
        min={min}
        max={max}
        step={step}
        value={value}
        onValueChange={onChange}
        aria-valuetext={format(value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        disabled={disabled}
      />
    </FieldRow>
  );
}

interface SwitchFieldProps {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  tag?: ReactNode;
}

export function SwitchField({ label, description, checked, onChange, tag }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border px-4 py-3">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor={id} className="cursor-pointer">
            {label}
          </Label>
          {tag}
        </div>
        {description && (
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        )}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={description ? `${id}-description` : undefined} />
    </div>
  );
}
