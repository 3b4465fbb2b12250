/** Fails with what is missing when the Redis a test needs does not answer (never a silent skip). */
export async function requireRedis(url: string): Promise<void> {
  const { default: IORedis } = await import('ioredis');
  const probe = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new Error(
      `This test needs Redis at ${url} (TEST_REDIS_URL), which does not answer (${(error as Error).message}): start it, ` +
        'name another with TEST_REDIS_URL, or set TEST_REDIS_URL=none to run without the Redis tests.',
    );
  } finally {
    probe.disconnect();
  }
}
