import { useSyncExternalStore } from 'react';

/*
 * Light, dark, or whatever the system says (the default). The choice is remembered in this
 * browser; /theme-init.js applies it before the first paint with the same key and values.
 */

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = 'light' | 'dark';

const THEME_STORAGE_KEY = 'clipshift-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return THEME_CHOICES.includes(value as ThemeChoice);
}

function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function writeThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not remembered: this page still switches, the next one follows the system.
  }
}

function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_QUERY).matches;
}

function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

interface ThemeState {
  choice: ThemeChoice;
  theme: Theme;
}

const listeners = new Set<() => void>();
let state: ThemeState | null = null;

function current(): ThemeState {
  if (!state) {
    const choice = readThemeChoice();
    state = { choice, theme: resolveTheme(choice, systemPrefersDark()) };
  }
  return state;
}

function update(choice: ThemeChoice): void {
  state = { choice, theme: resolveTheme(choice, systemPrefersDark()) };
  applyTheme(state.theme);
  listeners.forEach((listener) => listener());
}

export function setThemeChoice(choice: ThemeChoice): void {
  writeThemeChoice(choice);
  update(choice);
}

/** While anything listens, a change of the system setting reaches a page that follows it. */
function subscribe(listener: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  const onSystemChange = () => update(current().choice);
  listeners.add(listener);
  media.addEventListener('change', onSystemChange);
  return () => {
    listeners.delete(listener);
    media.removeEventListener('change', onSystemChange);
  };
}

/** The chosen theme and the one shown. */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, current);
}
