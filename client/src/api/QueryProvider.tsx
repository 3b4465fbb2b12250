import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './queries';

/**
 * The query cache for the screens below it: the signed-in frame and the style guide. The sign-in pages
 * load nothing, so the first route carries no query library.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
