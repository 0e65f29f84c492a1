import type { Ref } from 'react';
import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useTheme, type ThemeChoice } from '@/lib/theme';

export const THEME_CHOICE_VIEWS: Record<ThemeChoice, { label: string; icon: LucideIcon }> = {
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
  system: { label: 'System', icon: Monitor },
};

/** The navigation's theme button; its name says the current choice for screen readers. */
export function ThemeButton({ ref, ...props }: Omit<ButtonProps, 'children' | 'variant' | 'size'> & { ref?: Ref<HTMLButtonElement> }) {
  const { choice, theme } = useTheme();
  const Icon = theme === 'dark' ? Moon : Sun;
  return (
    <Button ref={ref} variant="ghost" size="icon" aria-label={`Theme: ${THEME_CHOICE_VIEWS[choice].label}`} {...props}>
      <Icon className="size-5" aria-hidden="true" />
    </Button>
  );
}
