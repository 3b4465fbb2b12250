import { beforeAll, describe, expect, it } from 'vitest';
import { parseCircular, parseDependencyTree, type DependencyTree } from 'dpdm';

/**
 * The shape of the tree: no import cycle in shared, server or client (type-only imports count: a cycle of
 * types is still two modules that cannot be understood apart), `shared` imports neither client nor
 * server, and the server imports no client file. The graph is dpdm's, resolved with the TypeScript
 * project references, so `.js`-suffixed imports and `@eln/shared` resolve to the files they name.
 */

const SOURCES = ['shared/src/**/*.ts', 'server/src/**/*.ts', 'client/src/**/*.{ts,tsx}'];

/**
 * Cycles tolerated for now: none. A cycle not listed here fails the test, and so does an entry whose
 * cycle is gone, so the list can only shrink.
 */
const KNOWN_CYCLES: readonly string[] = [];

/** Which package may not import which: a file under `from` importing anything under `to`. */
const FORBIDDEN: ReadonlyArray<{ from: string; to: readonly string[] }> = [
  { from: 'shared/', to: ['client/', 'server/', '@eln/client', '@eln/server'] },
  { from: 'server/', to: ['client/', '@eln/client'] },
];

/** A cycle as one line, starting at its alphabetically first file so that every rotation reads the same. */
function cycleKey(cycle: readonly string[]): string {
  const start = cycle.indexOf([...cycle].sort()[0]!);
  return [...cycle.slice(start), ...cycle.slice(0, start)].join(' → ');
}

function compareCycles(tree: DependencyTree, known: readonly string[]): { added: string[]; gone: string[] } {
  const found = new Set(parseCircular(tree).map(cycleKey));
  return {
    added: [...found].filter((key) => !known.includes(key)).sort(),
    gone: known.filter((key) => !found.has(key)),
  };
}

/** Every import that crosses a forbidden line, as `file → target (request)`. */
function forbiddenImports(tree: DependencyTree): string[] {
  const found: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    const rule = FORBIDDEN.find((candidate) => file.startsWith(candidate.from));
    if (!rule || !dependencies) continue;
    for (const dependency of dependencies) {
      const target = dependency.id ?? '';
      if (rule.to.some((prefix) => target.startsWith(prefix) || dependency.request.startsWith(prefix))) {
        found.push(`${file} → ${target || 'unresolved'} (${dependency.request})`);
      }
    }
  }
  return found.sort();
}

/** A tree written by hand, for checking the checks. */
function treeOf(edges: Record<string, string[]>): DependencyTree {
  return Object.fromEntries(
    Object.entries(edges).map(([issuer, targets]) => [issuer, targets.map((id) => ({ issuer, request: id, kind: 'StaticImport' as never, id }))]),
  );
}

describe('the checks themselves', () => {
  it('finds a cycle in a hand-made tree, whatever file it starts from, and reports a known one that is gone', () => {
    const tree = treeOf({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] });
    expect(compareCycles(tree, [])).toEqual({ added: ['a.ts → b.ts → c.ts'], gone: [] });
    expect(compareCycles(tree, ['a.ts → b.ts → c.ts'])).toEqual({ added: [], gone: [] });
    expect(compareCycles(treeOf({ 'a.ts': ['b.ts'], 'b.ts': [] }), ['a.ts → b.ts'])).toEqual({ added: [], gone: ['a.ts → b.ts'] });
    expect(cycleKey(['c.ts', 'a.ts', 'b.ts'])).toBe('a.ts → b.ts → c.ts');
  });

  it('finds shared importing server or client, and server importing client, but not the allowed directions', () => {
    const tree = treeOf({
      'shared/src/a.ts': ['server/src/x.ts', 'client/src/y.ts', 'shared/src/b.ts'],
      'server/src/x.ts': ['client/src/y.ts', 'shared/src/index.ts'],
      'client/src/y.ts': ['shared/src/index.ts', 'server/src/x.ts'],
    });
    expect(forbiddenImports(tree)).toEqual([
      'server/src/x.ts → client/src/y.ts (client/src/y.ts)',
      'shared/src/a.ts → client/src/y.ts (client/src/y.ts)',
      'shared/src/a.ts → server/src/x.ts (server/src/x.ts)',
    ]);
  });
});

describe('the tree', () => {
  let tree: DependencyTree;
  beforeAll(async () => {
    tree = await parseDependencyTree(SOURCES, { tsconfig: 'tsconfig.json', transform: false });
  }, 120_000);

  it('is read whole: every relative and workspace import resolves to a file', () => {
    expect(Object.keys(tree)).toEqual(expect.arrayContaining(['shared/src/index.ts', 'server/src/main.ts', 'client/src/main.tsx']));
    const unresolved = Object.values(tree)
      .flatMap((dependencies) => dependencies ?? [])
      .filter((dependency) => dependency.id === null && /^(\.|@eln\/)/.test(dependency.request))
      .map((dependency) => `${dependency.issuer} → ${dependency.request}`);
    expect(unresolved).toEqual([]);
    // A `.js`-suffixed import and the workspace package both land on the TypeScript sources.
    expect(tree['server/src/app.ts']?.map((dependency) => dependency.id)).toEqual(expect.arrayContaining(['server/src/config.ts']));
    expect(tree['server/src/http/errorHandler.ts']?.map((dependency) => dependency.id)).toEqual(expect.arrayContaining(['shared/src/index.ts']));
  });

  it('has no import cycle other than the known ones, and each known one still exists', () => {
    expect(compareCycles(tree, KNOWN_CYCLES)).toEqual({ added: [], gone: [] });
  });

  it('has shared import neither client nor server, and the server import no client file', () => {
    expect(forbiddenImports(tree)).toEqual([]);
  });
});
