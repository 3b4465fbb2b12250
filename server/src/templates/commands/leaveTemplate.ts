import { and, eq } from 'drizzle-orm';
import { templateDocumentName, type CallRequest, type api } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import { templateDrafts } from '../../db/schema.js';
import type { Services } from '../../services.js';
import { requireReadableTemplate } from '../queries.js';

/** Leaving a draft without checking in: the caller's editor is released and their temporary save discarded. */
export async function leaveTemplate({ db, live }: Services, actor: Actor, input: CallRequest<typeof api.templates.leave>): Promise<null> {
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  // One change: the caller's connections stop writing (on every process, before this answers) as the draft goes.
  await live.transaction(db, async (tx, commands) => {
    await tx
      .delete(templateDrafts)
      .where(and(eq(templateDrafts.templateNo, template.templateNo), eq(templateDrafts.savedByUserNo, actor.user.userNo)));
    commands.endWriting(templateDocumentName(template.templateNo), actor.user.userNo, 'cleared');
  });
  return null;
}
