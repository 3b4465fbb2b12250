import { escapeHTML, serializeAttrsToHTMLString } from '@tiptap/static-renderer/json/html-string';

/**
 * A tiny HTML builder for the blocks the renderer draws itself. Text goes through `escapeHTML` and every
 * attribute through the static renderer's own serialiser (which escapes `&`, `<`, `>` and `"` and drops
 * null values), so what a writer typed can never become markup.
 */
export type Attrs = Record<string, string | number | null | undefined>;

const VOID = new Set(['img', 'br', 'hr', 'col', 'meta']);

/** An opening tag alone (for the page's <html>, whose content is written line by line). */
export const openTag = (tag: string, attrs: Attrs): string => `<${tag}${serializeAttrsToHTMLString(attrs)}>`;

/** An element; `children` are HTML already built (use `text` for writer's text). */
export function el(tag: string, attrs: Attrs, ...children: string[]): string {
  const open = openTag(tag, attrs);
  return VOID.has(tag) ? open : `${open}${children.join('')}</${tag}>`;
}

export const text = (value: string): string => escapeHTML(value);
