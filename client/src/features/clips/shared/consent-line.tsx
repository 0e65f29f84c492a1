import { cn } from '@/lib/utils';

const MUSIC_USAGE_URL = 'https://www.tiktok.com/legal/page/global/music-usage-confirmation/en';

/** The user's consent TikTok's content-sharing guidelines ask for, shown beside every Post button. */
export function ConsentLine({ className }: { className?: string }) {
  return (
    <p className={cn('text-xs text-muted-foreground', className)} data-testid="post-consent">
      By posting, you agree to TikTok&apos;s{' '}
      <a href={MUSIC_USAGE_URL} target="_blank" rel="noreferrer" className="font-medium text-brand-text underline-offset-4 hover:underline">
        Music Usage Confirmation
      </a>
      .
    </p>
  );
}
