import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { and, eq, like, ne } from 'drizzle-orm';
import type { Extension, connectedPayload, onDisconnectPayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { noteHolds } from '../db/schema.js';
import type { CollabContext } from '../collab/collab.js';
import { canonicalRecordNo } from '../collab/documents/documentKinds.js';

/**
 * Tracks who holds each note open for writing ("being modified by"), in the database so that every
 * server process and the project's note list see it. A process removes its holds as connections end;
 * on start it removes those left by its predecessor on the same host and port after a crash.
 */
export class NoteHolds implements Extension {
  readonly extensionName = 'note-holds';
  readonly instanceId: string;
  private readonly instancePrefix: string;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    port: number,
  ) {
    this.instancePrefix = `${os.hostname()}:${port}:`;
    this.instanceId = `${this.instancePrefix}${randomBytes(4).toString('hex')}`;
  }

  async removeStaleHolds(): Promise<void> {
    await this.db
      .delete(noteHolds)
      .where(and(like(noteHolds.instanceId, `${this.instancePrefix}%`), ne(noteHolds.instanceId, this.instanceId)));
  }

  static holdId(socketId: string, documentName: string): string {
    return `${socketId}:${documentName}`;
  }

  private static noteNoOf(documentName: string): number | null {
    const match = /^labnote\.(.+)$/.exec(documentName);
    return match ? canonicalRecordNo(match[1] as string) : null;
  }

  async connected({ documentName, socketId, connectionConfig, context }: connectedPayload<CollabContext>): Promise<void> {
    const noteNo = NoteHolds.noteNoOf(documentName);
    if (noteNo === null || connectionConfig.readOnly || !context.user) return;
    await this.db
      .insert(noteHolds)
      .values({ holdId: NoteHolds.holdId(socketId, documentName), noteNo, userNo: context.user.userNo, instanceId: this.instanceId })
      .onConflictDoNothing();
  }

  async onDisconnect({ documentName, socketId }: onDisconnectPayload<CollabContext>): Promise<void> {
    await this.db
      .delete(noteHolds)
      .where(eq(noteHolds.holdId, NoteHolds.holdId(socketId, documentName)))
      .catch((error: unknown) => this.log.warn({ err: error }, 'removing a note hold failed'));
  }
}
