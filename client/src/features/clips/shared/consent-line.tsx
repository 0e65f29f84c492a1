import { cn } from '@/lib/utils';

const MUSIC_USAGE_URL = 'https://www.tiktok.com/legal/page/global/music-usage-confirmation/en';
const BRANDED_CONTENT_POLICY_URL = 'https://www.tiktok.com/legal/page/global/bc-policy/en';

const LINK_CLASS = 'font-medium text-brand-text underline-offset-4 hover:underline';

interface ConsentLineProps {
  className?: string;
  /** Branded content is disclosed: TikTok's guidelines add its Branded Content Policy to the consent. */
  brandedContent?: boolean;
}

/** The user's consent TikTok's content-sharing guidelines ask for, shown beside every Post button. */
export function ConsentLine({ className, brandedContent = false }: ConsentLineProps) {
  return (
    <p className={cn('text-xs text-muted-foreground', className)} data-testid="post-consent">
      By posting, you agree to TikTok&apos;s{' '}
      {brandedContent && (
        <>
          <a href={BRANDED_CONTENT_POLICY_URL} target="_blank" rel="noreferrer" className={LINK_CLASS}>
            Branded Content Policy
          </a>{' '}
          and{' '}
        </>
      )}
      <a href={MUSIC_USAGE_URL} target="_blank" rel="noreferrer" className={LINK_CLASS}>
        Music Usage Confirmation
      </a>
      .
    </p>
  );
}
