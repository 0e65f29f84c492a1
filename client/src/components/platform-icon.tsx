import { PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import { cn } from '@/lib/utils';

interface PlatformIconProps {
  platform: AccountPlatform;
  className?: string;
  /** Beside text that already names the platform: hidden from assistive technology. */
  decorative?: boolean;
}

/** The TikTok note. */
function TikTokMark() {
  return (
    <path
      fill="currentColor"
      d="M16.6 5.82A4.28 4.28 0 0 1 15.54 3h-3.09v12.4a2.59 2.59 0 0 1-2.59 2.5 2.6 2.6 0 0 1-2.59-2.6 2.6 2.6 0 0 1 3.4-2.47V9.66a5.73 5.73 0 0 0-.81-.06 5.7 5.7 0 0 0-5.7 5.7 5.7 5.7 0 0 0 5.7 5.7 5.7 5.7 0 0 0 5.7-5.7V9.01a7.35 7.35 0 0 0 4.3 1.38V7.3a4.3 4.3 0 0 1-3.26-1.48Z"
    />
  );
}

/** YouTube's rounded rectangle with the play triangle cut out. */
function YouTubeMark() {
  return (
    <>
      <path fill="#FF0000" d="M21.58 7.19a2.5 2.5 0 0 0-1.77-1.77C18.25 5 12 5 12 5s-6.25 0-7.81.42a2.5 2.5 0 0 0-1.77 1.77A26 26 0 0 0 2 12a26 26 0 0 0 .42 4.81 2.5 2.5 0 0 0 1.77 1.77C5.75 19 12 19 12 19s6.25 0 7.81-.42a2.5 2.5 0 0 0 1.77-1.77A26 26 0 0 0 22 12a26 26 0 0 0-.42-4.81Z" />
      <path fill="#FFFFFF" d="m10 15 5.2-3L10 9v6Z" />
    </>
  );
}

/**
 * A platform's mark as a small inline SVG, named "TikTok" or "YouTube" for screen readers (by
 * aria-label, not a <title>, so the mark adds nothing to the text around it).
 */
export function PlatformIcon({ platform, className, decorative = false }: PlatformIconProps) {
  const label = PLATFORM_LABELS[platform];
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('size-4 shrink-0', className)}
      data-platform={platform}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label })}
    >
      {platform === 'tiktok' ? <TikTokMark /> : <YouTubeMark />}
    </svg>
  );
}
