import { useEffect, useState } from 'react';

/** The current time, renewed every `intervalMs`: for texts such as "3 min ago" that age on screen. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
