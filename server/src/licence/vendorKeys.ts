/**
 * The vendor's public keys that licence keys are checked against, offline. The private halves never
 * ship: the production key is held by the vendor's licence desk; the test key's private half is in
 * `testing/licenceKeys.ts`, so a server trusts the test key only when its configuration says so
 * (the test harness and the browser tests' server do; `loadConfig` never does).
 */
export interface VendorKey {
  keyId: string;
  /** Ed25519 public key, SPKI PEM. */
  publicKeyPem: string;
}

export const PRODUCTION_LICENCE_KEY: VendorKey = {
  keyId: 'eln-2026-1',
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAFAN1GI+kwlj7wM6dYYnjh7hohaH/IVFaYnbbnvpMZtw=\n-----END PUBLIC KEY-----\n',
};

export const TEST_LICENCE_KEY: VendorKey = {
  keyId: 'eln-test-1',
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA5BsDODkqteaSbYmktSCxs3bw0NcAdu18uzUlcAfKj/Y=\n-----END PUBLIC KEY-----\n',
};
