import { useEffect, useRef, type RefObject } from 'react';

/** A ref that always holds the latest value: callbacks run later (after a request) see the current one. */
export function useLatestRef<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref;
}
