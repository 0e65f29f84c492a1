import { useId, type ComponentType } from 'react';
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
 * Instagram's camera: a rounded square, the lens and the flash, in its orange-to-purple gradient.
 * The gradient's id is the icon's own: a page shows many icons, some of them hidden (the table on a
 * phone), and a shared id would point every icon at the first, hidden one.
 */
function InstagramMark() {
  const gradient = `instagram-${useId()}`;
  return (
    <>
      <defs>
        <linearGradient id={gradient} x1="0" y1="1" x2="1" y2="0">
          <stop offset="0" stopColor="#FEC053" />
          <stop offset="0.35" stopColor="#F2203E" />
          <stop offset="0.7" stopColor="#B729A8" />
          <stop offset="1" stopColor="#5342D6" />
        </linearGradient>
      </defs>
      <rect x="3" y="3" width="18" height="18" rx="5.2" fill="none" stroke={`url(#${gradient})`} strokeWidth="2.2" />
      <circle cx="12" cy="12" r="4.1" fill="none" stroke={`url(#${gradient})`} strokeWidth="2.2" />
      <circle cx="17.3" cy="6.7" r="1.35" fill={`url(#${gradient})`} />
    </>
  );
}

/** Facebook's white "f" on its blue disc. */
function FacebookMark() {
  return (
    <>
      <circle cx="12" cy="12" r="10" fill="#0866FF" />
      <path
        fill="#FFFFFF"
        d="M13.4 21.9v-7.05h2.37l.45-2.93H13.4v-1.9c0-.8.39-1.58 1.65-1.58h1.28V5.95s-1.16-.2-2.27-.2c-2.32 0-3.83 1.4-3.83 3.94v2.23H7.66v2.93h2.57v6.83a10.1 10.1 0 0 0 3.17.22Z"
      />
    </>
  );
}

const MARKS: Record<AccountPlatform, ComponentType> = {
  tiktok: TikTokMark,
  youtube: YouTubeMark,
  instagram: InstagramMark,
  facebook: FacebookMark,
};

/**
 * A platform's mark as a small inline SVG, named "TikTok", "YouTube", "Instagram" or "Facebook" for
 * screen readers (by aria-label, not a <title>, so the mark adds nothing to the text around it).
 */
export function PlatformIcon({ platform, className, decorative = false }: PlatformIconProps) {
  const label = PLATFORM_LABELS[platform];
  const Mark = MARKS[platform];
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('size-4 shrink-0', className)}
      data-platform={platform}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label })}
    >
      <Mark />
    </svg>
  );
}
