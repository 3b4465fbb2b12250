import type { SystemInfo } from '@eln/shared';
import type { ServerConfig } from '../config.js';

/** What the client needs to know before sign-in: the hosts that count as the main company's, and the company codes. */
export function systemInfo({ company }: ServerConfig): SystemInfo {
  return { mainHosts: company.mainHosts, mainCompanyCode: company.code, otherCompanyCode: company.otherCode };
}
