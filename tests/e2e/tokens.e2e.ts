import type { APIRequestContext } from '@playwright/test';
import { api, ERR } from '@eln/shared';
import { E2E } from './fixtures.js';
import { expect, test } from './test.js';
import { apiSignIn, callApi, createPerson, openAs, seriousViolations, unique } from './support.js';

/** A call made with a personal access token, as a script makes it: its status. */
async function statusWith(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.post(`/server${api.auth.flags.path}`, { data: {}, headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { status: string }).status;
}

/**
 * Personal access tokens in the browser: a person creates one on My account (shown once, with a copy
 * button), sees it listed with its last use once a script has called with it, and revokes it; an
 * administrator sees it on the user list with its owner, revokes another, and forbids tokens for a level.
 * The card in both themes and three languages, switched in place on one page.
 */
test.describe.serial('personal access tokens', () => {
  const id = unique();
  let person: Awaited<ReturnType<typeof createPerson>>;

  test.beforeAll(async ({ request }) => {
    person = await createPerson(request, await apiSignIn(request, E2E.admin), id, 'tokens', 'Token Holder');
  });

  test('are created on My account, shown once, listed with their last use and revoked', async ({ browser, request }) => {
    const page = await openAs(browser, person);
    await page.goto('/account');
    const card = page.getByTestId('account-tokens');
    await expect(card.getByRole('heading', { name: 'Personal access tokens' })).toBeVisible();
    await expect(card.getByTestId('account-tokens-none')).toBeVisible();

    await card.getByTestId('account-token-name').fill(`HPLC export ${id}`);
    await card.getByTestId('account-token-scope-write').check();
    await card.getByTestId('account-token-create').click();
    const secret = card.getByTestId('account-token-secret');
    await expect(secret).toHaveText(/^eln_pat_[A-Za-z0-9_-]{43}$/);
    const token = (await secret.textContent()) ?? '';
    await expect(card.getByTestId('account-token-copy')).toBeVisible();
    const row = card.getByTestId('account-token-row').filter({ hasText: `HPLC export ${id}` });
    await expect(row).toHaveAttribute('data-token-state', 'active');
    await expect(row).toContainText('read, write');
    await expect(row).toContainText('Never used');
    expect(await seriousViolations(page, 'the tokens card with a new token', '[data-testid="account-tokens"]')).toEqual([]);
    await card.screenshot({ path: 'tests/e2e/screenshots/account-token-created-s-en.png', animations: 'disabled' });

    // Shown once: gone when dismissed, and never again after a reload.
    await card.getByTestId('account-token-done').click();
    await expect(secret).toHaveCount(0);

    // A script calls with it: the list says when and from where.
    expect(await statusWith(request, token)).toBe('0000');
    await callApi(request, await apiSignIn(request, person), api.tokens.create, {
      name: `Balance reader ${id}`,
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      scopes: ['read'],
    });
    for (const theme of ['s', 'b'] as const) {
      for (const language of ['en', 'ko', 'ja'] as const) {
        await page.evaluate(
          ([t, l]) => {
            window.localStorage.setItem('eln.theme', t);
            window.localStorage.setItem('eln.language', l);
          },
          [theme, language] as const,
        );
        await page.goto('/account');
        await expect(card.getByTestId('account-token-row')).toHaveCount(2);
        await expect(card.getByTestId('account-token-secret')).toHaveCount(0);
        if (language === 'en') await expect(row).toContainText('from 127.0.0.1');
        if (language === 'en' && theme === 'b')
          expect(await seriousViolations(page, 'the tokens card, dark', '[data-testid="account-tokens"]')).toEqual([]);
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({ path: `tests/e2e/screenshots/account-tokens-${theme}-${language}.png`, animations: 'disabled' });
      }
    }
    await page.evaluate(() => {
      window.localStorage.setItem('eln.theme', 's');
      window.localStorage.setItem('eln.language', 'en');
    });
    await page.goto('/account');

    await row.getByTestId('account-token-revoke').click();
    await expect(page.getByTestId('alert-message')).toContainText(`HPLC export ${id}`);
    await page.getByTestId('alert-ok').click();
    await expect(card.getByTestId('account-tokens-revoked')).toHaveText(`Token “HPLC export ${id}” revoked.`);
    await expect(row).toHaveAttribute('data-token-state', 'revoked');
    await expect(row.getByTestId('account-token-revoke')).toHaveCount(0);
    expect(await statusWith(request, token)).toBe(ERR.tokenInvalid);
    await page.context().close();
  });

  test('are all listed for an administrator, who revokes any and forbids them for a level', async ({ browser, request }) => {
    const adminToken = await apiSignIn(request, E2E.admin);
    const page = await openAs(browser, E2E.admin);
    try {
      await page.goto('/admin');
      const card = page.getByTestId('admin-tokens');
      await expect(card.getByRole('heading', { name: 'Personal access tokens' })).toBeVisible();
      const reader = card.getByTestId('admin-token-row').filter({ hasText: `Balance reader ${id}` });
      await expect(reader).toContainText(person.userId);
      await expect(reader).toContainText(person.name);
      await expect(reader).toHaveAttribute('data-token-state', 'active');
      await expect(card.getByTestId('admin-token-row').filter({ hasText: `HPLC export ${id}` })).toHaveAttribute(
        'data-token-state',
        'revoked',
      );

      // Forbidding level 1 (the person's) stops the token at once; allowing it again gives it back.
      await card.getByTestId('admin-tokens-level-1').check();
      await card.getByTestId('admin-tokens-levels-save').click();
      await expect(card.getByTestId('admin-tokens-saved')).toBeVisible();
      await expect(reader).toHaveAttribute('data-token-state', 'forbidden');
      expect(await seriousViolations(page, 'the administrators’ tokens card', '[data-testid="admin-tokens"]')).toEqual([]);
      for (const theme of ['s', 'b'] as const) {
        await page.evaluate((t) => window.localStorage.setItem('eln.theme', t), theme);
        await page.goto('/admin');
        await expect(reader).toHaveAttribute('data-token-state', 'forbidden');
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({ path: `tests/e2e/screenshots/admin-tokens-${theme}-en.png`, animations: 'disabled' });
      }
      await page.evaluate(() => window.localStorage.setItem('eln.theme', 's'));
      await page.goto('/admin');
      await card.getByTestId('admin-tokens-level-1').uncheck();
      await card.getByTestId('admin-tokens-levels-save').click();
      await expect(reader).toHaveAttribute('data-token-state', 'active');

      await reader.getByTestId('admin-token-revoke').click();
      await page.getByTestId('alert-ok').click();
      await expect(reader).toHaveAttribute('data-token-state', 'revoked');
    } finally {
      await callApi(request, adminToken, api.tokens.updateSettings, { forbiddenLevels: [] });
      await page.context().close();
    }
  });
});
