import translation from '../ko';
import editor from '../editor/ko';
import audit from '../audit/ko';
import signature from '../signature/ko';
import template from '../template/ko';
import history from '../history/ko';
import home from '../home/ko';

export { default as errors } from '@eln/shared/errors/ko';

/** Every namespace in this language, and its error messages: one chunk, loaded only when the interface starts in it. */
export default { translation, editor, audit, signature, template, history, home };
