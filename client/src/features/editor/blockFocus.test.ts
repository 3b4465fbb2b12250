import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Editor, type JSONContent } from '@tiptap/core';
import { BlockFocus, blockFocusKey, blockPosition, setFoundBlock } from './blockFocus';
import { browserExtensions } from './schema';

beforeAll(() => {
  if (typeof navigator === 'undefined') vi.stubGlobal('navigator', { platform: 'Linux', userAgent: 'node' });
});

const para = (uid: string, text: string): JSONContent => ({
  type: 'paragraph',
  attrs: { blockUid: uid },
  content: [{ type: 'text', text }],
});

function editorWith(content: JSONContent[]): Editor {
  const editor = new Editor({ element: null, extensions: [...browserExtensions(), BlockFocus], content: { type: 'doc', content } });
  for (const plugin of editor.extensionManager.plugins) editor.registerPlugin(plugin);
  return editor;
}

/** The classes the plugin's decorations put on the document's top-level blocks, by blockUid. */
function decorated(editor: Editor): Record<string, string> {
  const plugin = editor.state.plugins.find((p) => p.spec.key === blockFocusKey)!;
  const set = plugin.props.decorations!.call(plugin, editor.state) as unknown as {
    find(): Array<{ from: number; type: { attrs: { class: string } } }>;
  };
  return Object.fromEntries(set.find().map((d) => [String(editor.state.doc.nodeAt(d.from)?.attrs.blockUid), d.type.attrs.class]));
}

describe('the found block', () => {
  it('is found by its blockUid among the top-level blocks, or not at all', () => {
    const editor = editorWith([para('pfirst0000000001', 'one'), para('psecond000000001', 'two')]);
    expect(blockPosition(editor.state.doc, 'pfirst0000000001')).toBe(0);
    expect(blockPosition(editor.state.doc, 'psecond000000001')).toBe(5);
    expect(blockPosition(editor.state.doc, 'pmissing00000001')).toBeNull();
  });

  it('is highlighted by a decoration until cleared, and a missing block highlights nothing', () => {
    const editor = editorWith([para('pfirst0000000001', 'one'), para('psecond000000001', 'two')]);
    expect(decorated(editor)).toEqual({});
    setFoundBlock(editor, 'psecond000000001');
    expect(decorated(editor)).toEqual({ psecond000000001: 'block-found' });
    // An edit elsewhere keeps it on the same block.
    editor.commands.insertContentAt(0, para('pnew000000000001', 'zero'));
    expect(decorated(editor)).toEqual({ psecond000000001: 'block-found' });
    setFoundBlock(editor, 'pmissing00000001');
    expect(decorated(editor)).toEqual({});
    setFoundBlock(editor, null);
    expect(decorated(editor)).toEqual({});
  });
});
