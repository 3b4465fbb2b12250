import { useTranslation } from 'react-i18next';
import type { SchemaThumbnail } from '@eln/shared';
import { SchemaIcon } from '../../ui/icons';

/**
 * A type's or schema's thumbnail as lists show it: the server's small copy, or a neutral placeholder
 * (the schema icon on a quiet tile) when there is none. `decorative` where the name is said beside it
 * (a button's label): then it says nothing itself.
 */
export function SchemaThumb({
  thumbnail,
  name,
  size = 'md',
  decorative = false,
  testId,
}: {
  thumbnail: SchemaThumbnail | null;
  name: string;
  size?: 'sm' | 'md' | 'lg';
  decorative?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <span
      className={`schema-thumb schema-thumb-${size}${thumbnail ? '' : ' is-empty'}`}
      data-testid={testId}
      data-thumbnail={thumbnail ? 'set' : 'none'}
    >
      {thumbnail ? (
        <img src={thumbnail.smallUrl} alt={decorative ? '' : t('schema.thumbnail.alt', { name })} loading="lazy" decoding="async" />
      ) : (
        <>
          <SchemaIcon size={size === 'sm' ? 14 : size === 'lg' ? 28 : 18} aria-hidden="true" />
          {decorative ? null : <span className="visually-hidden">{t('schema.thumbnail.none')}</span>}
        </>
      )}
    </span>
  );
}
