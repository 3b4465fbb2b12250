import translation from '../ja';
import editor from '../editor/ja';
import audit from '../audit/ja';
import signature from '../signature/ja';
import template from '../template/ja';
import history from '../history/ja';
import home from '../home/ja';

export { default as errors } from '@eln/shared/errors/ja';

/** Every namespace in this language, and its error messages: one chunk, loaded only when the interface starts in it. */
export default { translation, editor, audit, signature, template, history, home };
