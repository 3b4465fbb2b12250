import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../ui/Field';

type UserIdFieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'name' | 'autoComplete' | 'inputMode' | 'placeholder'>;

/** The user ID (an email address) as every sign-in form asks for it, so that browsers fill it in alike. */
export function UserIdField(props: UserIdFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      type="email"
      name="userId"
      autoComplete="username"
      inputMode="email"
      placeholder={t('signin.userIdPlaceholder')}
      {...props}
    />
  );
}
