import type { TFunction } from 'i18next';
import { AUDIT_ACTIONS, systemReasonOf, type AuditAction } from '@eln/shared';
import type { BadgeTone } from '../../ui/Badge';

/** A record's reason for the reader: the system's own reasons translated, a person's words as written. */
export function reasonText(reason: string, t: TFunction<'audit'>): string {
  const key = systemReasonOf(reason);
  return key ? t(`systemReasons.${key}`) : reason;
}

/** The groups of actions, by their code's prefix (`user.signIn` is in `user`), in the order the filter lists them. */
export const ACTION_GROUPS = [
  'user',
  'account',
  'department',
  'project',
  'note',
  'file',
  'signature',
  'comment',
  'template',
  'schema',
  'dropbox',
  'export',
  'audit',
  'licence',
  'system',
  'timestamp',
] as const;
export type ActionGroup = (typeof ACTION_GROUPS)[number];

/** The target types the server records, each with a label in the `audit` namespace. */
export const TARGET_TYPES = [
  'user',
  'session',
  'department',
  'project',
  'note',
  'notes',
  'file',
  'fileTypes',
  'audit',
  'licence',
  'dropbox',
  'schemaType',
  'template',
  'export',
  'sso',
  'timestamp',
  'timestampAuthority',
] as const;
export type KnownTargetType = (typeof TARGET_TYPES)[number];

export function isKnownTargetType(value: string | null | undefined): value is KnownTargetType {
  return (TARGET_TYPES as readonly string[]).includes(value ?? '');
}

export function groupOf(action: AuditAction): ActionGroup {
  const prefix = action.slice(0, action.indexOf('.'));
  return (ACTION_GROUPS as readonly string[]).includes(prefix) ? (prefix as ActionGroup) : 'system';
}

/** Every action in AUDIT_ACTIONS, grouped for the filter's option groups (empty groups left out). */
export function groupedActions(actions: readonly AuditAction[] = AUDIT_ACTIONS): Array<{ group: ActionGroup; actions: AuditAction[] }> {
  return ACTION_GROUPS.map((group) => ({ group, actions: actions.filter((action) => groupOf(action) === group) })).filter(
    (entry) => entry.actions.length > 0,
  );
}

const DANGER = new Set<string>(['user.signInFailed', 'user.signInRefused', 'user.refreshReuse', 'signature.failed']);
const WARNING = new Set<string>(['signature.declined', 'signature.removed', 'note.deleted']);
const SUCCESS = new Set<string>(['signature.signed', 'project.finished']);
const ACCENT = new Set<string>(['audit.exported', 'signature.requested', 'signature.updated']);

/** How an action's badge is coloured: refusals and failures red, removals amber, signatures green. */
export function actionTone(action: string): BadgeTone {
  if (DANGER.has(action)) return 'danger';
  if (WARNING.has(action)) return 'warning';
  if (SUCCESS.has(action)) return 'success';
  if (ACCENT.has(action)) return 'accent';
  return 'neutral';
}
