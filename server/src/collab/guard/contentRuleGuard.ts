/**
 * guard/: what a live update must pass before Hocuspocus applies it. A refused update is never applied,
 * stored or passed on to other editors.
 *
 * DocumentSizeLimit (documentSizeLimit.ts) comes first: an update that would grow a document past the
 * size limit is refused and its connection turned read-only. ContentRuleGuard (this file) keeps note
 * documents within the content rules: an update that only edits text passes at once (textOnlyUpdate.ts);
 * any other is tried on a shadow copy of the document (shadowCopies.ts) and refused if it adds a
 * violation; catalogue copies must carry the server's seal (catalogueSeals.ts); parts Yjs would keep
 * pending are dropped and asked for again (pendingParts.ts).
 */
import * as Y from 'yjs';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import type { Connection, Extension, beforeHandleMessagePayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import {
  COLLAB_REFUSALS,
  CONTENT_FIELD,
  CONTENT_REFUSED_CLOSE_CODE,
  CONTENT_REFUSED_MESSAGE,
  type ContentRefusedMessage,
  type ContentRule,
  type ContentViolation,
  type PmNode,
} from '@eln/shared';
import { endConnection } from '../connections/authorization.js';
import type { CollabContext } from '../connections/context.js';
import type { CatalogueSeals } from './catalogueSeals.js';
import { updateCarriedBy } from './documentSizeLimit.js';
import { ShadowCopies, violationsBetween } from './shadowCopies.js';
import { onlyEditsText } from './textOnlyUpdate.js';
import { keepNothingPending } from './pendingParts.js';

/** What an update would add to a document's content rule violations, tried on a fresh copy of it (the benchmark's baseline). */
export function violationsAdded(document: Y.Doc, update: Uint8Array): ContentViolation[] {
  const before = yXmlFragmentToProsemirrorJSON(document.getXmlFragment(CONTENT_FIELD)) as PmNode;
  const scratch = new Y.Doc();
  Y.applyUpdate(scratch, Y.encodeStateAsUpdate(document));
  Y.applyUpdate(scratch, update);
  const after = yXmlFragmentToProsemirrorJSON(scratch.getXmlFragment(CONTENT_FIELD)) as PmNode;
  scratch.destroy();
  return violationsBetween(after, before);
}

/**
 * Keeps live updates within the content rules (shared/src/editor/contentRules.ts). Before Hocuspocus
 * applies a message, the update it carries is tried on a copy of the document (ShadowCopies); one that adds a
 * violation is dropped (never applied, never stored, never seen by other editors), its sender is told
 * which rule and block (CONTENT_REFUSED_MESSAGE), and its connection is closed: the server can never
 * apply that client's later updates (they build on the dropped one), so the client reopens the note
 * from the stored state with a fresh document. A document that already breaks a rule stays editable:
 * only violations an update adds count. Updates that only type or delete text skip the copy. The update
 * is judged as sent, never reduced first (a diff against the document): Yjs may apply a crafted update
 * differently from its diff.
 * New or changed catalogue copies (schema blocks, cell dropboxes) must carry the server's seal.
 */
export class ContentRuleGuard implements Extension {
  /** After the size limit, before the extensions that react to applied updates. */
  readonly priority = 190;

  private readonly shadows = new ShadowCopies();
  /** The rules already logged per socket: a client that keeps sending what breaks a rule is logged once for it. */
  private readonly logged = new WeakMap<object, Set<ContentRule>>();

  /**
   * `applies` says which documents hold a note's content (their kind's `noteContent`); `seals` judges
   * the catalogue copies an update brings.
   */
  constructor(
    private readonly applies: (documentName: string) => boolean,
    private readonly seals: CatalogueSeals,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  async beforeHandleMessage({ connection, document, update: message }: beforeHandleMessagePayload<CollabContext>): Promise<void> {
    if (!this.applies(document.name)) return;
    keepNothingPending(document);
    if (connection.readOnly) return;
    const update = updateCarriedBy(message);
    if (!update) return;
    const violation = onlyEditsText(document, update)
      ? undefined
      : this.shadows.violationsAdded(document, update, (block) => this.seals.violations(block))[0];
    if (!violation) return;
    const refusal: ContentRefusedMessage = { type: CONTENT_REFUSED_MESSAGE, rule: violation.rule, blockUid: violation.blockUid };
    connection.sendStateless(JSON.stringify(refusal));
    // Ended here rather than by throwing: Hocuspocus logs a thrown error with its stack at error level,
    // once per refused update. A refusal is the guard working, not a server fault.
    endConnection(connection, COLLAB_REFUSALS.contentRefused, CONTENT_REFUSED_CLOSE_CODE);
    this.logOnce(connection, document.name, violation);
  }

  /** One warning per socket and rule: a client reopening and sending the same again is not news. */
  private logOnce(connection: Connection<CollabContext>, documentName: string, violation: ContentViolation): void {
    const socket = connection.webSocket;
    const rules = this.logged.get(socket) ?? new Set<ContentRule>();
    this.logged.set(socket, rules);
    if (rules.has(violation.rule)) return;
    rules.add(violation.rule);
    this.log.warn(
      {
        documentName,
        rule: violation.rule,
        blockUid: violation.blockUid,
        userNo: connection.context.user.userNo,
        socketId: connection.socketId,
      },
      'live update refused by the content rules (further refusals for this rule on this socket are not logged)',
    );
  }
}
