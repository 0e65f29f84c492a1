import { useState } from 'react';
import { UserRound } from 'lucide-react';
import { cn } from '@/lib/utils';

interface AccountAvatarProps {
  /** The picture's address; null, or a picture that fails to load, shows the placeholder icon. */
  src: string | null;
  className?: string;
}

/** A round profile picture of a connected account, decorative beside the account's name. */
export function AccountAvatar({ src, className }: AccountAvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = src !== null && src !== '' && failedSrc !== src;
  return showImage ? (
    <img
      src={src}
      alt=""
      referrerPolicy="no-referrer"
      loading="lazy"
      onError={() => setFailedSrc(src)}
      className={cn('size-8 shrink-0 rounded-full bg-muted object-cover', className)}
      data-testid="account-avatar"
    />
  ) : (
    <span
      aria-hidden="true"
      data-testid="account-avatar-placeholder"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-muted', className)}
    >
      <UserRound className="size-4 text-muted-foreground" />
    </span>
  );
}
