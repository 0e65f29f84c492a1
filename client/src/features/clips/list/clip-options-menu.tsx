import { Download, EllipsisVertical, Trash2 } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import type { ClipActions } from '../shared/clip-actions';
import { WithTooltip } from '@/components/ui/tooltip';

interface ClipOptionsMenuProps {
  clip: Clip;
  actions: Pick<ClipActions, 'download' | 'requestDelete'>;
}

/**
 * Download MP4 and Delete. Not modal: a dialog opened from a modal menu would inherit the menu's
 * pointer lock on <body> as the menu closes.
 */
export function ClipOptionsMenu({ clip, actions }: ClipOptionsMenuProps) {
  return (
    <DropdownMenu modal={false}>
      <WithTooltip label="Clip options">
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label="Clip options">
            <EllipsisVertical aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
      </WithTooltip>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => actions.download(clip)}>
          <Download aria-hidden="true" />
          Download MP4
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => actions.requestDelete(clip)}>
          <Trash2 aria-hidden="true" />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
