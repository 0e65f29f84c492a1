import { useCallback, useEffect, useRef, useState } from 'react';

/** How long the button says "Submitting..." and how long the thanks stays (spec section 2). */
const SUBMITTING_MS = 1000;
const THANKS_VISIBLE_MS = 5000;

type AccessRequestPhase = 'idle' | 'submitting' | 'thanked';

/**
 * The early-access form is deliberately fake: nothing is sent anywhere. It only plays the
 * submitting → thanks sequence and tells the caller when to clear the field.
 */
export function useFakeAccessRequest() {
  const [phase, setPhase] = useState<AccessRequestPhase>('idle');
  const timers = useRef<number[]>([]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const submit = useCallback((onAccepted: () => void) => {
    setPhase('submitting');
    timers.current.push(
      window.setTimeout(() => {
        setPhase('thanked');
        onAccepted();
        timers.current.push(window.setTimeout(() => setPhase('idle'), THANKS_VISIBLE_MS));
      }, SUBMITTING_MS),
    );
  }, []);

  return { phase, submit };
}
