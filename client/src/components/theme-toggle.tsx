import { lazy, Suspense, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ThemeButton } from './theme-button';

/*
 * The menu (Radix, with its positioning and focus code) is about a tenth of a first load and most
 * visits never open it. Until the button is pointed at, focused or pressed, a plain button stands
 * in; the menu's code is fetched then and takes the button's place, opening at once if it was pressed.
 */
const loadThemeMenu = () => import('./theme-menu');
const ThemeMenu = lazy(() => loadThemeMenu().then((module) => ({ default: module.ThemeMenu })));

/** Keys that open the menu from its button, as Radix's trigger reads them. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

interface Wanted {
  open: boolean;
  focus: boolean;
}

export function ThemeToggle() {
  const [wanted, setWanted] = useState<Wanted | null>(null);
  const want = (next: Wanted) => setWanted((previous) => previous ?? next);
  const standIn = (
    <ThemeButton
      title="Theme"
      ref={(button) => {
        if (wanted?.focus) button?.focus();
      }}
      onPointerEnter={() => void loadThemeMenu()}
      onFocus={() => want({ open: false, focus: true })}
      onPointerDown={(event: PointerEvent) => {
        if (event.button !== 0) return;
        // Like Radix's trigger: the menu, not the button, takes the focus.
        event.preventDefault();
        setWanted({ open: true, focus: false });
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        setWanted({ open: true, focus: false });
      }}
      onClick={() => want({ open: true, focus: false })}
    />
  );
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ThemeMenu defaultOpen={wanted.open} focusOnMount={wanted.focus} />
    </Suspense>
  );
}
