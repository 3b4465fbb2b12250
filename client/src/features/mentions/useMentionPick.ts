import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, splitList, type MentionCandidatesAnswer, type MentionPerson } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { apiQueryKey } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { alert, confirm } from '../../modals/store';

/** What picking a person came to: mention them, or not (refused, cancelled, or they could not be added). */
export type PickOutcome = 'mention' | 'not';

/**
 * Whether a picked person may be mentioned, and what it takes: someone who may read the note is mentioned
 * at once. Someone who may not is added first by a caller who may add participants (the project's leader,
 * or an administrator: `abilities.addParticipants`), after a confirmation, through the project's own update
 * call; anyone else is refused with `onRefuse`, naming the leader who can add them. Any editor (the note,
 * a comment) can use it with the candidates' answer it showed.
 */
export function useMentionPick(
  onRefuse: (message: string) => void,
): (person: MentionPerson, shown: MentionCandidatesAnswer) => Promise<PickOutcome> {
  const { t } = useTranslation('editor');
  const queries = useQueryClient();
  return async (person, shown) => {
    if (person.canRead) return 'mention';
    const name = person.name;
    if (!shown.abilities.addParticipants) {
      onRefuse(shown.leader.name ? t('mention.refused', { name, leader: shown.leader.name }) : t('mention.refusedNoLeader', { name }));
      return 'not';
    }
    try {
      const project = await call(api.projects.detail, { projectNo: shown.projectNo });
      const agreed = await confirm(t('mention.addQuestion', { name, project: project.title }), {
        title: t('mention.addTitle', { name }),
        okLabel: t('mention.addConfirm'),
      });
      if (!agreed) return 'not';
      const user = [...splitList(project.signatureList.user), person.userId].join(',');
      await call(api.projects.update, { projectNo: project.no, signatureList: { department: project.signatureList.department, user } });
    } catch (error) {
      void alert(`${t('mention.addFailed', { name })} ${apiErrorText(error, currentLanguage())}`, { tone: 'error' });
      return 'not';
    }
    // Who may read the note has changed: the chips, the suggestions and the project's screens ask again.
    await Promise.all(
      [api.mentions.candidates, api.mentions.people, api.projects.detail, api.projects.editor].map((spec) =>
        queries.invalidateQueries({ queryKey: apiQueryKey(spec) }),
      ),
    );
    return 'mention';
  };
}
