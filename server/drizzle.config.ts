import { defineConfig } from 'drizzle-kit';

// Run from the server folder (npm run db:generate) so that drizzle-kit finds this workspace's drizzle-orm.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: '../drizzle',
});
