import { useCallback, useState } from 'react';
import { sameWords, type Word } from './word-edits';

/** Enough to walk back a burst of edits without holding every list of a long session. */
const UNDO_DEPTH = 50;

interface DraftState {
  words: readonly Word[];
  history: readonly (readonly Word[])[];
}

/**
 * The words being edited, starting from the saved ones. Each change is one undo step; a change that
 * changes nothing is not recorded.
 */
export function useTranscriptDraft(saved: readonly Word[]) {
  const [state, setState] = useState<DraftState>({ words: saved, history: [] });

  const apply = useCallback((change: (words: readonly Word[]) => Word[]) => {
    setState((current) => {
      const next = change(current.words);
      if (sameWords(next, current.words)) return current;
      return { words: next, history: [...current.history, current.words].slice(-UNDO_DEPTH) };
    });
  }, []);

  const undo = useCallback(() => {
    setState((current) => {
      const previous = current.history.at(-1);
      return previous ? { words: previous, history: current.history.slice(0, -1) } : current;
    });
  }, []);

  return { words: state.words, apply, undo, canUndo: state.history.length > 0, dirty: !sameWords(state.words, saved) };
}
