import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '@eln/shared';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { styleGuideSamples } from '../../lib/styleGuide';
import { applyServerSettings, onSettingsSaved } from './display';

/**
 * In the signed-in frame: once per sign-in and page load, reads the person's settings from the server and
 * makes this browser show them (the page loads again once when their language or zone differs from what
 * it started with). Changes saved from here keep the loaded settings current for the account page.
 */
export function AccountSettingsSync() {
  const client = useQueryClient();
  const settings = useApiQuery(api.account.settings, {}, { enabled: !styleGuideSamples(), staleTime: Infinity });
  const applied = useRef(false);

  useEffect(() => onSettingsSaved((saved) => client.setQueryData(apiQueryKey(api.account.settings, {}), saved)), [client]);

  useEffect(() => {
    if (applied.current || settings.phase !== 'ready') return;
    applied.current = true;
    if (applyServerSettings(settings.data)) window.location.reload();
  }, [settings.phase, settings.data]);

  return null;
}
