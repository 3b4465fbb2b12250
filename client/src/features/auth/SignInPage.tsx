import { useSearchParams } from 'react-router-dom';
import { AuthScreen } from './AuthScreen';
import { ResetPasswordForm } from './ResetPasswordForm';
import { SignInForm } from './SignInForm';

/** /signin, and /signin?reset=<token> for choosing a new password from the mailed link. */
export function SignInPage() {
  const [params] = useSearchParams();
  const resetToken = params.get('reset');
  return <AuthScreen testId="page-signin">{resetToken ? <ResetPasswordForm token={resetToken} /> : <SignInForm />}</AuthScreen>;
}
