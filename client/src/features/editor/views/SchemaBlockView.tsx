import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { readSchemaBlock, type SchemaBlockEntry } from '@eln/shared';
import { SchemaIcon } from '../../../ui/icons';
import { schemaNow, type SchemaNow } from '../schemaBlocks';
import { useEditable } from './useEditable';

/** Field/value rows of a schema, as a block shows them and the insert dialog previews them. */
export function SchemaEntriesTable({ entries, caption }: { entries: readonly SchemaBlockEntry[]; caption: string }) {
  const { t } = useTranslation('editor');
  return (
    <table className="note-schema-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('schema.field')}</th>
          <th scope="col">{t('schema.value')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.length === 0 ? (
          <tr>
            <td colSpan={2} className="note-schema-empty">
              {t('schema.noEntries')}
            </td>
          </tr>
        ) : (
          entries.map((entry) => (
            <tr key={entry.field}>
              <th scope="row">{entry.field}</th>
              <td>{entry.value}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/**
 * A schema block: the entries copied when it was inserted, read-only, with where they came from. It asks
 * the catalogue once whether a newer revision exists and says so; a writer may take that revision in.
 */
export function SchemaBlockView({ node, editor, selected, updateAttributes }: NodeViewProps) {
  const { t } = useTranslation('editor');
  const editable = useEditable(editor);
  const block = readSchemaBlock(node.attrs);
  const [now, setNow] = useState<SchemaNow>({ kind: 'unknown' });
  const schemaNo = block?.schemaNo ?? 0;
  const revision = block?.revision ?? 0;

  useEffect(() => {
    if (!block) return;
    const controller = new AbortController();
    void schemaNow(block, controller.signal).then((found) => {
      if (!controller.signal.aborted) setNow(found);
    });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asks again only when the block points elsewhere (the block object is new at every render)
  }, [schemaNo, revision]);

  if (!block) {
    return (
      <NodeViewWrapper className="note-schema note-schema-invalid" data-testid="schema-block" contentEditable={false}>
        {t('schema.invalid')}
      </NodeViewWrapper>
    );
  }
  const heading = `${block.typeTitle} › ${block.title}`;
  return (
    <NodeViewWrapper className={`note-schema${selected ? ' is-selected' : ''}`} data-testid="schema-block" contentEditable={false}>
      <div className="note-schema-head">
        <SchemaIcon size={16} />
        <span className="note-schema-title" data-testid="schema-block-title">
          {heading}
        </span>
        <span className="note-schema-revision" data-testid="schema-block-revision">
          {t('schema.revision', { revision: block.revision })}
        </span>
      </div>
      <SchemaEntriesTable entries={block.entries} caption={heading} />
      {now.kind === 'newer' ? (
        <p className="note-schema-notice" role="status" data-testid="schema-block-newer">
          {t('schema.newer', { revision: now.copy.revision, kept: block.revision })}
          {editable ? (
            <button
              type="button"
              className="note-schema-update"
              onClick={() => updateAttributes({ ...now.copy })}
              data-testid="schema-block-update"
            >
              {t('schema.useNewer', { revision: now.copy.revision })}
            </button>
          ) : null}
        </p>
      ) : null}
      {now.kind === 'gone' ? (
        <p className="note-schema-notice" role="status" data-testid="schema-block-gone">
          {t('schema.gone')}
        </p>
      ) : null}
    </NodeViewWrapper>
  );
}
