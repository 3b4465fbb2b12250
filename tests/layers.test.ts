import { globSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allCalls } from '@eln/shared';

/**
 * The layers of a call (README, Architecture): routes only bind route-table entries to queries and
 * commands, so they issue no SQL, open no transaction and append no audit record; the route table is the
 * only place a call's path is written; only the users policy decides who is an administrator.
 */

const read = (file: string) => readFileSync(file, 'utf8');
const files = (pattern: string | string[]) => globSync(pattern, { exclude: (name) => name.includes('node_modules') }).sort();

/** What a route module must not do: each a pattern and what it means. */
const ROUTE_MODULE_RULES: ReadonlyArray<{ pattern: RegExp; says: string }> = [
  { pattern: /from 'drizzle-orm'/, says: 'imports drizzle-orm (SQL belongs in queries and commands)' },
  { pattern: /db\/schema\.js'/, says: 'imports the database schema' },
  { pattern: /audit\/audit\.js'/, says: 'imports the audit trail (commands append audit records)' },
  { pattern: /\.transaction\(/, says: 'opens a transaction' },
  { pattern: /\bappendAudit(Record)?\(/, says: 'appends an audit record' },
  { pattern: /\.(select|insert|update|delete|execute)\(/, says: 'issues SQL' },
  { pattern: /\benforce\(|REFUSALS\b/, says: 'enforces a permission rule (commands and queries ask their policy)' },
];

/** The violations of the route module rules in one source text. */
export function routeModuleViolations(source: string): string[] {
  return ROUTE_MODULE_RULES.filter((rule) => rule.pattern.test(source)).map((rule) => rule.says);
}

/**
 * The text of every string literal of a source (quoted, and each piece of a template literal), comments
 * left out: a path named in a comment is documentation, one in a literal is an address.
 */
export function stringLiterals(source: string, fileName = 'source.tsx'): string[] {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    node.forEachChild(visit);
  };
  visit(sourceFile);
  return found;
}

/** Every `/v1/...` path in a source's string literals, also inside a URL (after `/server`, or a glob). */
export function pathLiterals(source: string, fileName?: string): string[] {
  return stringLiterals(source, fileName).flatMap((text) => [...text.matchAll(/\/v1\/[A-Za-z0-9/_-]*/g)].map((match) => match[0]));
}

/** Tests and their helpers may address a path that is no call (to see it refused, or a route of their own). */
export const isTestCode = (file: string) => /\.(test|e2e|bench)\.tsx?$/.test(file) || /^(tests|server\/src\/testing)\//.test(file);

/**
 * The paths a source outside the route table must not write: any call's path, and in product code (not
 * tests) any `/v1/` path at all, so that a call can only be addressed through its route-table entry.
 */
export function pathViolations(file: string, source: string, tablePaths: ReadonlySet<string>): string[] {
  return pathLiterals(source, file)
    .filter((path) => tablePaths.has(path) || !isTestCode(file))
    .map((path) => `${file}: ${path}${tablePaths.has(path) ? ' (a call of the route table: use its entry)' : ''}`);
}

/** A comparison of a level with the administrators' (by name or as the number 10), either way round. */
const DECIDES_ADMINISTRATOR =
  /level\s*(?:[!=]==?|[<>]=?)\s*(?:ADMIN_LEVEL|10)\b|\b(?:ADMIN_LEVEL|10)\s*(?:[!=]==?|[<>]=?)\s*[\w.]*level\b|eq\([\w.]*level,\s*(?:ADMIN_LEVEL|10)\)/;

const ROUTE_MODULES = files(['server/src/**/routes.ts', 'server/src/**/*Routes.ts']);
const SOURCES = files(['shared/src/**/*.{ts,tsx}', 'server/src/**/*.{ts,tsx}', 'client/src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}']);
/** Where paths are written: the route table's groups. */
const TABLE_FILES = new Set(files('shared/src/api/*.ts'));

describe('the checks themselves', () => {
  it('find SQL, transactions, audit appends and permission checks in a route module, and pass one that only binds', () => {
    expect(routeModuleViolations("import { eq } from 'drizzle-orm';\nawait db.transaction(async (tx) => tx.select().from(x));")).toEqual([
      'imports drizzle-orm (SQL belongs in queries and commands)',
      'opens a transaction',
      'issues SQL',
    ]);
    expect(routeModuleViolations('await appendAudit(tx, entry); enforce(canDo(user), DO_REFUSALS);')).toEqual([
      'appends an audit record',
      'enforces a permission rule (commands and queries ask their policy)',
    ]);
    expect(routeModuleViolations('return bindCalls(api.projects, { list: ({ body, user }) => listProjects(db, user, body) });')).toEqual(
      [],
    );
  });

  it('find paths in any quotes, in template pieces and inside URLs, and not in comments', () => {
    const source = [
      "call('/v1/sample/list');",
      'x("/v1/a/b");',
      'y(`/v1/c/${id}/d`);',
      "page.route('**/server/v1/x', handle);",
      "const samples = { '/v1/keyed': 1 };",
      "// call('/v1/in/a/comment')",
      '/** Reads `/v1/in/a/doc`. */',
      'type Path = `/v1/${string}`;',
    ].join('\n');
    expect(pathLiterals(source)).toEqual(['/v1/sample/list', '/v1/a/b', '/v1/c/', '/v1/x', '/v1/keyed', '/v1/']);
  });

  it('refuse a call’s path anywhere, and any other path in product code but not in tests', () => {
    const table = new Set(['/v1/sample/list']);
    const source = "call('/v1/sample/list'); call('/v1/no/such/call');";
    expect(pathViolations('server/src/http/spine.api.test.ts', source, table)).toEqual([
      'server/src/http/spine.api.test.ts: /v1/sample/list (a call of the route table: use its entry)',
    ]);
    expect(pathViolations('tests/e2e/support.ts', "page.route('**/server/v1/sample/list')", table)).toHaveLength(1);
    expect(pathViolations('client/src/features/x.ts', source, table)).toEqual([
      'client/src/features/x.ts: /v1/sample/list (a call of the route table: use its entry)',
      'client/src/features/x.ts: /v1/no/such/call',
    ]);
    expect(pathViolations('client/src/features/x.ts', 'call(api.projects.list, {}); // `/v1/sample/list`', table)).toEqual([]);
  });
});

describe('the layers of a call', () => {
  it('finds the route modules and the sources it checks', () => {
    expect(ROUTE_MODULES.length).toBeGreaterThan(10);
    expect(SOURCES.length).toBeGreaterThan(400);
    expect(TABLE_FILES.size).toBeGreaterThan(10);
    expect(allCalls().length).toBeGreaterThan(80);
  });

  it('route modules only bind calls: no SQL, no transaction, no audit append, no permission check', () => {
    const found = ROUTE_MODULES.flatMap((file) => routeModuleViolations(read(file)).map((says) => `${file} ${says}`));
    expect(found).toEqual([]);
  });

  it('writes every call path once, in the route table, and nowhere else', () => {
    const paths = allCalls().map((spec) => spec.path);
    const tablePaths = new Set<string>(paths);
    expect(tablePaths.size).toBe(paths.length);
    const inTable = [...TABLE_FILES].flatMap((file) => stringLiterals(read(file), file)).filter((text) => tablePaths.has(text));
    expect(inTable.sort()).toEqual([...paths].sort());
    // Only sources that hold `/v1/` at all are parsed (most do not).
    const outside = SOURCES.filter((file) => !TABLE_FILES.has(file))
      .map((file) => ({ file, source: read(file) }))
      .filter(({ source }) => source.includes('/v1/'))
      .flatMap(({ file, source }) => pathViolations(file, source, tablePaths));
    expect(outside).toEqual([]);
  });

  it('decides who is an administrator in one place (users/policy.ts)', () => {
    const deciding = files('server/src/**/*.ts')
      .filter((file) => !file.endsWith('.test.ts') && file !== 'server/src/users/policy.ts')
      .filter((file) => DECIDES_ADMINISTRATOR.test(read(file)));
    expect(deciding).toEqual([]);
  });
});
