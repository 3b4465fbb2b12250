/** Public facts the client needs before sign-in. */
export interface SystemInfo {
  mainHosts: string[];
  mainCompanyCode: string;
  otherCompanyCode: string;
}
