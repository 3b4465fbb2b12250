import i18next from 'i18next';
import auditEn from './audit/en';
import editorEn from './editor/en';
import historyEn from './history/en';
import homeEn from './home/en';
import signatureEn from './signature/en';
import templateEn from './template/en';

/**
 * The English strings of the screens behind sign-in (the editor, audit and exports, signatures, templates, the note history, the home's sections):
 * a chunk of their own, loaded with the first screen that is not a sign page (app/router.tsx), so the
 * sign-in page does not download them. The other languages' catalogues hold every namespace already.
 */
export function addScreenStrings(): void {
  const namespaces = { editor: editorEn, audit: auditEn, signature: signatureEn, template: templateEn, history: historyEn, home: homeEn };
  for (const [namespace, strings] of Object.entries(namespaces)) i18next.addResourceBundle('en', namespace, strings, true, false);
}
