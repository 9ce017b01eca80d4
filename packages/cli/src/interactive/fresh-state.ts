import { useCallback, useRef, useState } from 'react';

/**
 * State that key handlers read fresh. Keys can arrive faster than React
 * draws (a paste and then enter, two quick arrows), and a handler made at
 * the last render would still see that render's value.
 */
export function useFreshState<T>(initial: () => T): [value: T, read: () => T, write: (next: T) => void] {
  const [value, setValue] = useState(initial);
  const latest = useRef(value);
  const read = useCallback(() => latest.current, []);
  const write = useCallback((next: T) => {
    latest.current = next;
    setValue(next);
  }, []);
  return [value, read, write];
}

/**
 * A prompt answers once: keys after its final one (enter pressed twice
 * before the next step is drawn) are ignored, so nothing is asked, picked
 * or created twice.
 */
export function useAnswerOnce(): (answer: () => void) => void {
  const answered = useRef(false);
  return useCallback((answer: () => void) => {
    if (answered.current) return;
    answered.current = true;
    answer();
  }, []);
}
