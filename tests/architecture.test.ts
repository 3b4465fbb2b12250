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

/**
 * The parts of the live-editing layer (server/src/collab/, mapped in collab.ts) import one way: each part
 * only the parts listed for it. Tests are left out: an API test may reach any part.
 */
const COLLAB_PARTS: Readonly<Record<string, readonly string[]>> = {
  documents: [],
  connections: ['documents'],
  guard: ['connections', 'documents'],
  persistence: ['connections', 'documents'],
  authors: ['connections', 'documents'],
  commands: ['connections', 'documents', 'persistence'],
};

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

const collabPart = (file: string) => /^server\/src\/collab\/([^/]+)\//.exec(file)?.[1];

/** Every import from one collab part into another that it may not import, and every file of a part not listed. */
function collabPartImports(tree: DependencyTree): string[] {
  const found: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    const part = collabPart(file);
    if (part === undefined || file.endsWith('.test.ts')) continue;
    const allowed = COLLAB_PARTS[part];
    if (!allowed) {
      found.push(`${file}: part ${part}/ is not in COLLAB_PARTS`);
      continue;
    }
    for (const dependency of dependencies ?? []) {
      const target = collabPart(dependency.id ?? '');
      if (target !== undefined && target !== part && !allowed.includes(target)) found.push(`${file} → ${dependency.id}`);
    }
  }
  return found.sort();
}

/** A tree written by hand, for checking the checks. */
function treeOf(edges: Record<string, string[]>): DependencyTree {
  return Object.fromEntries(
    Object.entries(edges).map(([issuer, targets]) => [
      issuer,
      targets.map((id) => ({ issuer, request: id, kind: 'StaticImport' as never, id })),
    ]),
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

  it('finds a collab part importing a part it may not, but not a test, nor the parts it may import', () => {
    const tree = treeOf({
      'server/src/collab/documents/kinds.ts': ['server/src/collab/persistence/store.ts'],
      'server/src/collab/commands/live.ts': ['server/src/collab/persistence/store.ts', 'server/src/collab/collab.ts'],
      'server/src/collab/guard/guard.test.ts': ['server/src/collab/commands/live.ts'],
      'server/src/collab/newPart/thing.ts': [],
    });
    expect(collabPartImports(tree)).toEqual([
      'server/src/collab/documents/kinds.ts → server/src/collab/persistence/store.ts',
      'server/src/collab/newPart/thing.ts: part newPart/ is not in COLLAB_PARTS',
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
    expect(tree['server/src/http/errorHandler.ts']?.map((dependency) => dependency.id)).toEqual(
      expect.arrayContaining(['shared/src/index.ts']),
    );
  });

  it('has no import cycle other than the known ones, and each known one still exists', () => {
    expect(compareCycles(tree, KNOWN_CYCLES)).toEqual({ added: [], gone: [] });
  });

  it('has shared import neither client nor server, and the server import no client file', () => {
    expect(forbiddenImports(tree)).toEqual([]);
  });

  it('has each part of server/src/collab import only the parts under it', () => {
    expect(collabPartImports(tree)).toEqual([]);
  });
});

/**
 * The first route: what the client's entry reaches through static imports (types erased, dynamic
 * `import()` not followed). The sign-in page must not carry the signed-in frame or the editor; they are
 * lazy routes (client/src/app/router.tsx), and a static import of any of them would put them back into the
 * first download (tests/bench/bundle.bench.ts prints its size against the goal).
 */
const CLIENT_ENTRY = 'client/src/main.tsx';
const NOT_IN_FIRST_ROUTE: readonly string[] = [
  'client/src/ui/PageFrame.tsx',
  'client/src/app/Layout.tsx',
  'client/src/layout/Header.tsx',
  'client/src/layout/AdminMenu.tsx',
  'client/src/layout/LicenceDialog.tsx',
  'client/src/features/dashboard/',
  'client/src/features/notes/',
  'client/src/features/editor/',
  'client/src/features/history/',
  'client/src/features/diff/',
  'client/src/features/projects/',
  'client/src/features/admin/',
  'client/src/features/audit/',
  'client/src/i18n/catalogs/',
  'shared/src/errorMessages/',
  'papaparse',
  '@tiptap/',
  '@hocuspocus/',
  'chart.js',
  // Not yjs: `@eln/shared` re-exports its durable-block helpers, which the bundler drops from the first
  // route (nothing there calls them); the bench's chunk listing shows where yjs really lands.
];

/** Every file and package the entry reaches by static imports, as ids or (for packages) requests. */
function staticClosure(tree: DependencyTree, entry: string): Set<string> {
  const reached = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const dependency of tree[file] ?? []) {
      if (String(dependency.kind) === 'DynamicImport') continue;
      const target = dependency.id && !dependency.id.includes('node_modules') ? dependency.id : dependency.request;
      if (reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  return reached;
}

const forbiddenInFirstRoute = (reached: Set<string>) =>
  [...reached].filter((id) => NOT_IN_FIRST_ROUTE.some((prefix) => id.startsWith(prefix))).sort();

describe('the first route', () => {
  it('the check follows static imports and packages, not dynamic imports', () => {
    const tree: DependencyTree = {
      'main.tsx': [
        { issuer: 'main.tsx', request: './a', kind: 'StaticImport' as never, id: 'a.ts' },
        { issuer: 'main.tsx', request: './lazy', kind: 'DynamicImport' as never, id: 'lazy.ts' },
      ],
      'a.ts': [{ issuer: 'a.ts', request: '@tiptap/react', kind: 'StaticImport' as never, id: 'node_modules/@tiptap/react/dist/index.js' }],
      'lazy.ts': [{ issuer: 'lazy.ts', request: 'yjs', kind: 'StaticImport' as never, id: 'node_modules/yjs/dist/yjs.mjs' }],
    };
    expect([...staticClosure(tree, 'main.tsx')].sort()).toEqual(['@tiptap/react', 'a.ts', 'main.tsx']);
    expect(forbiddenInFirstRoute(staticClosure(tree, 'main.tsx'))).toEqual(['@tiptap/react']);
  });

  it('reaches the sign-in page but not the signed-in frame, the screens or the editor', async () => {
    // transform: types erased as the bundler does, so `import type` does not count here.
    const tree = await parseDependencyTree([CLIENT_ENTRY], { tsconfig: 'client/tsconfig.json', transform: true, exclude: /node_modules/ });
    const reached = staticClosure(tree, CLIENT_ENTRY);
    expect(reached).toContain('client/src/features/auth/SignInPage.tsx');
    expect(reached).toContain('react-router-dom');
    expect(forbiddenInFirstRoute(reached)).toEqual([]);
  }, 120_000);
});
