/** Who and where the browser tests sign in. */
export const E2E = {
  port: Number(process.env.E2E_PORT ?? 8181),
  admin: { userId: 'admin@eln.local', password: 'e2e-admin-password', name: 'Admin Park' },
  member: { userId: 'researcher@eln.local', password: 'e2e-member-password', name: 'Kim Jiwoo' },
} as const;

export const E2E_URL = `http://127.0.0.1:${E2E.port}`;
