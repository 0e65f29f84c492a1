import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router-dom';
import { ImageUp, LoaderCircle, Trash2 } from 'lucide-react';
import { LOGO_POSITION_LABELS, LOGO_POSITIONS, LOGO_TYPES, MAX_OUTRO_SECONDS, MIN_LOGO_OPACITY, type Brand, type LogoPosition } from '@clipshift/shared';
import { failureText } from '@/api/errors';
import { logoFileProblem, useLogoActions, useStreamerLogo } from '@/api/logo';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { streamerStudioPath } from '@/lib/paths';
import { SectionHeader, SliderField, SwitchField } from './studio-controls';
import { NO_BRAND, sectionIsOwn } from './studio-draft';
import type { StudioEditor } from './use-studio-editor';

type StreamerLogo = ReturnType<typeof useStreamerLogo>;

/** The logo on a checkerboard, so a transparent PNG shows its shape in either theme. */
function LogoPicture({ logo, streamerTitle }: { logo: StreamerLogo; streamerTitle: string }) {
  return (
    <div
      className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-[length:16px_16px] bg-[position:0_0,8px_8px] [background-image:linear-gradient(45deg,var(--color-muted)_25%,transparent_25%,transparent_75%,var(--color-muted)_75%),linear-gradient(45deg,var(--color-muted)_25%,transparent_25%,transparent_75%,var(--color-muted)_75%)]"
      data-testid="streamer-logo"
    >
      {logo.loading ? (
        <LoaderCircle className="size-5 animate-spin text-muted-foreground" aria-hidden="true" />
      ) : logo.url ? (
        <img src={logo.url} alt={`Logo of ${streamerTitle}`} className="max-h-full max-w-full object-contain" />
      ) : (
        <span className="px-2 text-center text-xs text-muted-foreground">No logo yet</span>
      )}
    </div>
  );
}

function logoStatus(logo: StreamerLogo): string | null {
  if (logo.error) return failureText(logo.error, { fallback: 'The logo could not be loaded', offline: 'The server could not be reached' });
  return null;
}

/** The streamer's logo: uploaded (PNG or JPEG up to 2 MB, checked before sending), replaced, removed; saved at once. */
function LogoUpload({ streamerName, streamerTitle, logo }: { streamerName: string; streamerTitle: string; logo: StreamerLogo }) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const actions = useLogoActions(streamerName);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so choosing the same file again (after fixing it) is heard.
    event.target.value = '';
    if (!file) return;
    const refused = logoFileProblem(file);
    setProblem(refused);
    if (!refused) actions.upload(file);
  };
  const status = problem ?? logoStatus(logo);
  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>Logo</Label>
      <div className="flex items-center gap-4">
        <LogoPicture logo={logo} streamerTitle={streamerTitle} />
        <div className="min-w-0 space-y-2">
          <input ref={input} id={inputId} type="file" accept={LOGO_TYPES.join(',')} className="sr-only" onChange={choose} aria-describedby={`${inputId}-hint`} tabIndex={-1} />
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" variant="outline" onClick={() => input.current?.click()} disabled={actions.busy}>
              {actions.busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ImageUp aria-hidden="true" />}
              {logo.url ? 'Replace logo' : 'Upload logo'}
            </Button>
            {logo.url && (
              <Button type="button" size="sm" variant="ghost" onClick={actions.remove} disabled={actions.busy}>
                <Trash2 aria-hidden="true" />
                Remove
              </Button>
            )}
          </div>
          <p id={`${inputId}-hint`} className="text-xs text-muted-foreground">
            PNG or JPEG, at most 2 MB; a transparent PNG looks best. Saved at once, for all of {streamerTitle}’s clips.
          </p>
        </div>
      </div>
      {status && (
        <p role="alert" className="text-sm text-destructive" data-testid="logo-problem">
          {status}
        </p>
      )}
    </div>
  );
}

/** In a clip's studio the logo is the streamer's: shown, with the way to change it. */
function StreamerLogoShown({ streamerName, streamerTitle, clipId, logo }: { streamerName: string; streamerTitle: string; clipId: string; logo: StreamerLogo }) {
  return (
    <div className="flex items-center gap-4">
      <LogoPicture logo={logo} streamerTitle={streamerTitle} />
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium">{streamerTitle}’s logo</p>
        <p className="text-xs text-muted-foreground">
          The logo belongs to the streamer: upload or change it in{' '}
          <Link to={streamerStudioPath(streamerName, clipId, 'brand')} className="font-medium text-brand-text underline underline-offset-4">
            {streamerTitle}’s studio
          </Link>
          .
        </p>
      </div>
    </div>
  );
}

const percent = (value: number) => `${Math.round(value * 100)}%`;

interface BrandSectionProps {
  editor: StudioEditor;
  /** The streamer's name (its logo's route), and how it is shown. */
  streamerName: string;
  streamerTitle: string;
  /** The clip the page draws on (the streamer's studio link keeps it). */
  clipId: string;
}

/** The streamer's logo over the video and an end card: the streamer's defaults, or one clip's own. */
export function BrandSection({ editor, streamerName, streamerTitle, clipId }: BrandSectionProps) {
  const { mode, draft, values } = editor;
  const logo = useStreamerLogo(streamerName);
  const positionLabel = useId();
  const brand = values.brand ?? NO_BRAND;
  const change = (changes: Partial<Brand>) => editor.set('brand', { ...brand, ...changes });
  const noLogo = brand.logo && logo.missing;
  return (
    <section className="space-y-5" aria-label="Brand">
      <SectionHeader
        title="Brand"
        description={mode === 'clip' ? "The streamer's logo over this clip, and an end card." : 'Your logo over every clip, and an end card.'}
        mode={mode}
        own={sectionIsOwn(draft, 'brand')}
        onReset={() => editor.reset('brand')}
      />
      {mode === 'streamer' ? (
        <LogoUpload streamerName={streamerName} streamerTitle={streamerTitle} logo={logo} />
      ) : (
        <StreamerLogoShown streamerName={streamerName} streamerTitle={streamerTitle} clipId={clipId} logo={logo} />
      )}
      <SwitchField
        label="Logo on the video"
        description={noLogo ? 'Nothing is drawn until a logo is uploaded.' : 'Drawn in a corner for the whole video.'}
        checked={brand.logo}
        onChange={(on) => change({ logo: on })}
      />
      <div className="space-y-2">
        <Label id={positionLabel}>Corner</Label>
        <SegmentedControl<LogoPosition>
          labelledBy={positionLabel}
          value={brand.position}
          onValueChange={(position) => change({ position })}
          options={LOGO_POSITIONS.map((position) => ({ value: position, label: LOGO_POSITION_LABELS[position] }))}
          disabled={!brand.logo}
          className="grid-cols-2 sm:grid-cols-4"
        />
      </div>
      <SliderField label="Opacity" value={brand.opacity} min={MIN_LOGO_OPACITY} max={1} step={0.05} format={percent} onChange={(opacity) => change({ opacity })} disabled={!brand.logo} />
      <SliderField
        label="End card"
        value={brand.outro_seconds}
        min={0}
        max={MAX_OUTRO_SECONDS}
        step={0.5}
        format={(value) => (value === 0 ? 'None' : `${value} s`)}
        onChange={(outro_seconds) => change({ outro_seconds })}
        hint="The last frame held, dimmed, with the logo over it."
      />
    </section>
  );
}
