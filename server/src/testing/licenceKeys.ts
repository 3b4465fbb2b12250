import { LICENCE_PRODUCT, type LicencePayload } from '@eln/shared';
import { signLicenceKey } from '../licence/licenceKey.js';
import { TEST_LICENCE_KEY } from '../licence/vendorKeys.js';

/**
 * The private half of the test vendor key. It is public by being here, which is why only test servers
 * trust `TEST_LICENCE_KEY` (see vendorKeys.ts).
 */
const TEST_LICENCE_PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIBVpX1kZfC0Shnq1JSWPe8iXxn6u+7kExq3DbrRLlSfg\n-----END PRIVATE KEY-----\n';

const DAY_MS = 86_400_000;

/** A valid licence payload for tests, a year long from now; override any field. */
export function testLicencePayload(overrides: Partial<LicencePayload> = {}): LicencePayload {
  const now = Date.now();
  return {
    serial: 'ELN-TEST-0001',
    company: 'Lab Co',
    seats: 50,
    issued: new Date(now - DAY_MS).toISOString(),
    expires: new Date(now + 365 * DAY_MS).toISOString(),
    product: LICENCE_PRODUCT,
    maxVersion: '1.9',
    keyId: TEST_LICENCE_KEY.keyId,
    ...overrides,
  };
}

/** A licence key signed by the test vendor key. */
export function testLicenceKey(overrides: Partial<LicencePayload> = {}): string {
  return signLicenceKey(testLicencePayload(overrides), TEST_LICENCE_PRIVATE_KEY);
}
