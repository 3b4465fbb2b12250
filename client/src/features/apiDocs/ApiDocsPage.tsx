import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE, OPENAPI_DOCUMENT_PATH } from '@eln/shared';
import { QuestionIcon } from '../../ui/icons';
import { PageFrame } from '../../ui/PageFrame';
import { SkeletonBlock } from '../../ui/States';
import './apiDocs.css';

/** Scalar's reference (Vue inside, several hundred kB): a chunk of its own, loaded when this page opens. */
const ApiReference = lazy(() => import('./ApiReference'));

export const OPENAPI_URL = `${API_BASE}${OPENAPI_DOCUMENT_PATH}`;

/**
 * The API reference (`/api-docs`): a short introduction in the interface language (tokens, the envelope,
 * where the document is), then the OpenAPI document the server answers, drawn by Scalar in the app's theme.
 */
export function ApiDocsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame testId="page-api-docs" title={t('apiDocs.title')} description={t('apiDocs.description')} icon={<QuestionIcon size={20} />}>
      <div className="card api-docs-intro" data-testid="api-docs-intro">
        <p>{t('apiDocs.tokens')}</p>
        <p>{t('apiDocs.envelope')}</p>
        <p>
          {t('apiDocs.document')}{' '}
          <a href={OPENAPI_URL} data-testid="api-docs-json">
            {OPENAPI_URL}
          </a>
        </p>
      </div>
      <div className="card api-docs-reference" data-testid="api-docs-reference">
        <Suspense fallback={<SkeletonBlock lines={8} />}>
          <ApiReference url={OPENAPI_URL} />
        </Suspense>
      </div>
    </PageFrame>
  );
}
