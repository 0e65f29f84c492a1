import { useEffect, useRef } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { isThemeChoice, setThemeChoice, THEME_CHOICES, useTheme } from '@/lib/theme';
import { ThemeButton, THEME_CHOICE_VIEWS } from './theme-button';
import { WithTooltip } from '@/components/ui/tooltip';

interface ThemeMenuProps {
  /** The plain button it replaces was pressed: open at once. */
  defaultOpen: boolean;
  /** The plain button it replaces had the focus: keep it on the button. */
  focusOnMount: boolean;
}

/** Light, dark or the system's setting, as a menu under the navigation's theme button. */
export function ThemeMenu({ defaultOpen, focusOnMount }: ThemeMenuProps) {
  const { choice } = useTheme();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusOnMount && !defaultOpen) trigger.current?.focus();
  }, [focusOnMount, defaultOpen]);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <WithTooltip label="Theme">
        <DropdownMenuTrigger asChild>
          <ThemeButton ref={trigger} />
        </DropdownMenuTrigger>
      </WithTooltip>
      <DropdownMenuContent align="end" aria-label="Theme">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={choice} onValueChange={(value) => isThemeChoice(value) && setThemeChoice(value)}>
          {THEME_CHOICES.map((option) => {
            const { label, icon: OptionIcon } = THEME_CHOICE_VIEWS[option];
            return (
              <DropdownMenuRadioItem key={option} value={option}>
                <OptionIcon aria-hidden="true" /> {label}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
