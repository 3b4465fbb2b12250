import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Editor } from '@tiptap/core';
import { PaletteIcon } from '../icons';
import { ToolButton } from './ToolButton';

/** Text colours offered (chosen to read on both themes' white paper), each with the name it is announced by. */
export const TEXT_COLORS = [
  { hex: '#d92d20', name: 'd92d20' },
  { hex: '#dc6803', name: 'dc6803' },
  { hex: '#079455', name: '079455' },
  { hex: '#1570ef', name: '1570ef' },
  { hex: '#6941c6', name: '6941c6' },
  { hex: '#c11574', name: 'c11574' },
  { hex: '#475467', name: '475467' },
] as const;

/**
 * The text colour button and its popover of swatches, named by colour. The popover closes on a click
 * outside, on Escape (focus back on the button) and when focus leaves it.
 */
export function ColorPicker({ editor, color: current }: { editor: Editor; color: string | null }) {
  const { t } = useTranslation('editor');
  const [colorsOpen, setColorsOpen] = useState(false);
  const colorsRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!colorsOpen) return;
    const close = (event: MouseEvent) => {
      if (colorsRef.current && !colorsRef.current.contains(event.target as Node)) setColorsOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [colorsOpen]);

  const apply = (hex: string | null) => {
    const chain = editor.chain().focus();
    (hex ? chain.setColor(hex) : chain.unsetColor()).run();
    setColorsOpen(false);
  };

  return (
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- hears the Escape and blur of the buttons inside it
    <div
      className="tool-popover-anchor"
      ref={colorsRef}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !colorsOpen) return;
        // Handled here: the toolbar's own Escape (back to the text) waits for the next one.
        event.preventDefault();
        setColorsOpen(false);
        colorsRef.current?.querySelector<HTMLElement>('[data-testid="toolbar-color"]')?.focus();
      }}
      onBlur={(event) => {
        if (colorsOpen && !colorsRef.current?.contains(event.relatedTarget)) setColorsOpen(false);
      }}
    >
      <ToolButton label={t('toolbar.color')} expanded={colorsOpen} onClick={() => setColorsOpen((open) => !open)} testId="toolbar-color">
        <PaletteIcon />
        <span className="tool-color-bar" style={{ background: current ?? 'currentColor' }} aria-hidden="true" />
      </ToolButton>
      {colorsOpen ? (
        <div className="tool-popover color-grid" role="group" aria-label={t('toolbar.color')} data-testid="color-popover" data-roving-skip>
          <button
            type="button"
            className={`color-swatch color-swatch-default${current === null ? ' is-active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => apply(null)}
            aria-label={t('toolbar.colorDefault')}
            aria-current={current === null ? 'true' : undefined}
            title={t('toolbar.colorDefault')}
          />
          {TEXT_COLORS.map(({ hex, name }) => {
            const label = t('toolbar.colorNamed', { color: t(`toolbar.colorNames.${name}`) });
            const chosen = current?.toLowerCase() === hex;
            return (
              <button
                key={hex}
                type="button"
                className={`color-swatch${chosen ? ' is-active' : ''}`}
                style={{ background: hex }}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => apply(hex)}
                aria-label={label}
                aria-current={chosen ? 'true' : undefined}
                title={label}
                data-testid={`color-${name}`}
              />
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
