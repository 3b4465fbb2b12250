import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { styleGuideSamples } from '../lib/styleGuide';
import { useSession } from '../session/store';
import { queryClient } from './queries';

/** The style guide's sample answers are cached apart, so that no sample reaches a real screen or the other way round. */
const styleGuideQueryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/**
 * The query cache for the screens below it: the signed-in frame and the style guide. The sign-in pages
 * load nothing, so the first route carries no query library. The screens below start afresh when the
 * signed-in user changes (another tab may sign someone else in), so none shows what the last user loaded.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const userId = useSession()?.user.userId ?? '';
  return (
    <QueryClientProvider key={userId} client={styleGuideSamples() ? styleGuideQueryClient : queryClient}>
      {children}
    </QueryClientProvider>
  );
}
