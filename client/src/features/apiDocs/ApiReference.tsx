import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

/**
 * Scalar's API reference of the served OpenAPI document. It takes the app's colours and fonts
 * (apiDocs.css maps Scalar's variables onto the theme's), follows the app's theme (both light) instead of
 * its own toggle, and reaches nothing outside this origin: no web fonts, no telemetry, no request client or
 * proxy, no agent.
 */
export default function ApiReference({ url }: { url: string }) {
  return (
    <ApiReferenceReact
      configuration={{
        url,
        theme: 'none',
        withDefaultFonts: false,
        telemetry: false,
        // Both of the app's themes are light; their colours come through apiDocs.css.
        forceDarkModeState: 'light',
        hideDarkModeToggle: true,
        hideClientButton: true,
        hideTestRequestButton: true,
        documentDownloadType: 'json',
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      }}
    />
  );
}
