import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Editor } from '@tiptap/core';
import { PaletteIcon } from '../icons';
import { ToolButton } from './ToolButton';

/** Text colours offered (chosen to read on both themes' white paper). */
export const TEXT_COLORS = ['#d92d20', '#dc6803', '#079455', '#1570ef', '#6941c6', '#c11574', '#475467'] as const;

/** The text colour button and its popover of swatches (closed by a click outside). */
export function ColorPicker({ editor, color }: { editor: Editor; color: string | null }) {
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

  return (
    <div className="tool-popover-anchor" ref={colorsRef}>
      <ToolButton label={t('toolbar.color')} active={colorsOpen} onClick={() => setColorsOpen((open) => !open)} testId="toolbar-color">
        <PaletteIcon />
        <span className="tool-color-bar" style={{ background: color ?? 'currentColor' }} aria-hidden="true" />
      </ToolButton>
      {colorsOpen ? (
        <div className="tool-popover color-grid" role="group" aria-label={t('toolbar.color')}>
          <button
            type="button"
            className="color-swatch color-swatch-default"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              editor.chain().focus().unsetColor().run();
              setColorsOpen(false);
            }}
            aria-label={t('toolbar.colorDefault')}
            title={t('toolbar.colorDefault')}
          />
          {TEXT_COLORS.map((color) => (
            <button
              key={color}
              type="button"
              className={`color-swatch${color === color ? ' is-active' : ''}`}
              style={{ background: color }}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                editor.chain().focus().setColor(color).run();
                setColorsOpen(false);
              }}
              aria-label={t('toolbar.colorNamed', { color })}
              title={color}
              data-testid={`color-${color.slice(1)}`}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
