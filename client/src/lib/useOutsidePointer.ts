import { useEffect, useRef, type RefObject } from 'react';

/** While `active`, a press anywhere outside `ref`'s element calls `onOutside` (a menu or popup closing). */
export function useOutsidePointer(ref: RefObject<HTMLElement | null>, active: boolean, onOutside: () => void): void {
  const handler = useRef(onOutside);
  handler.current = onOutside;
  useEffect(() => {
    if (!active) return;
    const onPointer = (event: PointerEvent) => {
      if (ref.current && event.target instanceof Node && !ref.current.contains(event.target)) handler.current();
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [ref, active]);
}
