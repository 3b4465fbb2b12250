import 'i18next';
import type en from './en';
import type editor from './editor/en';
import type audit from './audit/en';
import type signature from './signature/en';
import type template from './template/en';
import type history from './history/en';
import type home from './home/en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      editor: typeof editor;
      audit: typeof audit;
      signature: typeof signature;
      template: typeof template;
      history: typeof history;
      home: typeof home;
    };
    returnNull: false;
  }
}
