import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { api, MENTION_LIMITS, MENTION_NODE, type MentionPerson } from '@eln/shared';
import { useApiQuery } from '../../api/queries';

/**
 * The people a note's mentions name, as the server answers them (`/mention/people`): their name now and
 * whether they may read the note (the notes policy's verdict). Mention chips read it; outside a note (a
 * template, a version shown without it) there is none and a chip shows the name it was written with.
 */
interface MentionPeople {
  /** null while not yet answered. */
  byId: ReadonlyMap<string, MentionPerson> | null;
}

const MentionPeopleContext = createContext<MentionPeople | null>(null);

/** How a chip shows its person: their name now where known, and whether the mention reaches them. */
export function useMentionedPerson(userId: string): { person: MentionPerson | null; known: boolean } {
  const people = useContext(MentionPeopleContext);
  if (!people?.byId) return { person: null, known: false };
  return { person: people.byId.get(userId.toLowerCase()) ?? null, known: true };
}

/** Every person a document mentions, each once, sorted (so that the same people ask the same question). */
function mentionedIdsOf(doc: ProseMirrorNode): string[] {
  const found = new Set<string>();
  doc.descendants((node) => {
    if (node.type.name !== MENTION_NODE) return true;
    const userId: unknown = node.attrs.userId;
    if (typeof userId === 'string' && userId) found.add(userId.toLowerCase());
    return false;
  });
  return [...found].sort().slice(0, MENTION_LIMITS.people);
}

/** The people the editor's document mentions, followed as it changes (read at most every half second). */
export function useMentionedIds(editor: Editor | null): string[] {
  const [ids, setIds] = useState<string[]>([]);
  useEffect(() => {
    if (!editor) return;
    let timer: number | undefined;
    const read = () => {
      if (editor.isDestroyed) return;
      const next = mentionedIdsOf(editor.state.doc);
      setIds((current) => (current.join('\n') === next.join('\n') ? current : next));
    };
    const later = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(read, 500);
    };
    read();
    editor.on('update', later);
    return () => {
      window.clearTimeout(timer);
      editor.off('update', later);
    };
  }, [editor]);
  return ids;
}

/** Provides the mentioned people of a note to the chips below it. */
export function MentionPeopleProvider({ labNoteNo, userIds, children }: { labNoteNo: number; userIds: string[]; children: ReactNode }) {
  const loaded = useApiQuery(api.mentions.people, { labNoteNo, userIds }, { enabled: userIds.length > 0 });
  const list = loaded.data?.list;
  const value = useMemo<MentionPeople>(() => {
    if (!userIds.length) return { byId: new Map() };
    return { byId: list ? new Map(list.map((person) => [person.userId.toLowerCase(), person])) : null };
  }, [list, userIds.length]);
  return <MentionPeopleContext.Provider value={value}>{children}</MentionPeopleContext.Provider>;
}
