import { useTranslation } from 'react-i18next';
import type { TextPart } from '@eln/shared';

/** Which runs a side shows: the older side its kept and removed text, the newer its kept and added, inline all. */
export type TextSide = 'before' | 'after' | 'both';

const shownOn = (part: TextPart, side: TextSide) =>
  side === 'both' || part.kind === 'same' || (side === 'before' ? part.kind === 'removed' : part.kind === 'added');

/**
 * A word-level difference: removed runs as `<del>` (struck through), added runs as `<ins>` (underlined),
 * each coloured too and named for screen readers, so no reader depends on colour alone.
 */
export function TextDiff({ parts, side }: { parts: readonly TextPart[]; side: TextSide }) {
  const { t } = useTranslation('history');
  return (
    <>
      {parts.map((part, index) =>
        !shownOn(part, side) ? null : part.kind === 'same' ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === 'added' ? (
          <ins key={index} className="diff-ins" data-testid="diff-ins">
            <span className="visually-hidden">{`[${t('diff.inserted')}: `}</span>
            {part.text}
            <span className="visually-hidden">]</span>
          </ins>
        ) : (
          <del key={index} className="diff-del" data-testid="diff-del">
            <span className="visually-hidden">{`[${t('diff.deleted')}: `}</span>
            {part.text}
            <span className="visually-hidden">]</span>
          </del>
        ),
      )}
    </>
  );
}
