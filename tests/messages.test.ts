import { globSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  ERR,
  ERROR_CATALOGUE,
  errorMessage,
  FIELD_REASONS,
  fieldMessage,
  isErrorCode,
  LANGUAGES,
  placeholdersOf,
  provideErrorMessages,
  toFieldErrors,
  type ErrorCode,
  type FieldReason,
  type Language,
} from '@eln/shared';
import koreanErrors from '@eln/shared/errors/ko';
import japaneseErrors from '@eln/shared/errors/ja';
import translationEn from '../client/src/i18n/en';
import translationKo from '../client/src/i18n/ko';
import translationJa from '../client/src/i18n/ja';
import editorEn from '../client/src/i18n/editor/en';
import editorKo from '../client/src/i18n/editor/ko';
import editorJa from '../client/src/i18n/editor/ja';
import auditEn from '../client/src/i18n/audit/en';
import auditKo from '../client/src/i18n/audit/ko';
import auditJa from '../client/src/i18n/audit/ja';
import signatureEn from '../client/src/i18n/signature/en';
import signatureKo from '../client/src/i18n/signature/ko';
import signatureJa from '../client/src/i18n/signature/ja';
import templateEn from '../client/src/i18n/template/en';
import templateKo from '../client/src/i18n/template/ko';
import templateJa from '../client/src/i18n/template/ja';
import { ApiError, apiErrorText } from '../client/src/api/errors';

/**
 * Every message the product says, rendered with the values its callers give, in every language: no
 * `{name}` (error catalogue, field reasons) or `{{name}}` (interface strings) may be left in what a
 * reader sees. The callers are read from the sources: where an error is raised (`new AppError`,
 * `errorMessage`, `sendError`), where a schema picks a field reason, and where the interface calls `t`.
 */

provideErrorMessages('ko', koreanErrors);
provideErrorMessages('ja', japaneseErrors);

const isTestCode = (file: string) => /\.(test|e2e|bench)\.tsx?$/.test(file) || /^(tests|server\/src\/testing)\//.test(file);
const PRODUCT_SOURCES = globSync(['shared/src/**/*.{ts,tsx}', 'server/src/**/*.{ts,tsx}', 'client/src/**/*.{ts,tsx}'], {
  exclude: (name) => name.includes('node_modules'),
})
  .filter((file) => !isTestCode(file))
  .sort();

const parse = (file: string, source = readFileSync(file, 'utf8')) =>
  ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
const where = (node: ts.Node) =>
  `${node.getSourceFile().fileName}:${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
const walk = (node: ts.Node, visit: (node: ts.Node) => void) => {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
};
const unwrap = (node: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node);
const nameText = (name: ts.PropertyName | ts.BindingName) => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null);

/** A sample value for each parameter: a wait is given in seconds (a number), a moment as an ISO time, the rest as text. */
const sampleOf = (name: string): string | number => {
  if (name === 'seconds' || name === 'min' || name === 'max') return 7;
  return name === 'moment' ? '2026-01-15T14:30:00.000Z' : `<${name}>`;
};
const sample = (names: readonly string[]): Record<string, string | number> =>
  Object.fromEntries(names.map((name) => [name, sampleOf(name)]));
const leftOver = (text: string) => [...text.matchAll(/\{\{?\w+\}?\}/g)].map((match) => match[0]);

// --- The error catalogue ------------------------------------------------------------------------------

/** A place that says a catalogue message: the codes it may say (null: not known here) and the parameters it gives. */
interface Raise {
  at: string;
  codes: ErrorCode[] | null;
  /** The parameter names given, or null when the parameters are handed on from elsewhere (the envelope). */
  params: string[] | null;
  /** Given the parameters by a condition on a code received from elsewhere (`code === ERR.x ? { params } : {}`). */
  chosenByCode?: true;
}

function codesOf(node: ts.Expression | undefined): ErrorCode[] | null {
  if (!node) return null;
  const expression = unwrap(node);
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression) && expression.expression.text === 'ERR') {
    const code = (ERR as Record<string, string>)[expression.name.text];
    return code && isErrorCode(code) ? [code] : null;
  }
  if (ts.isStringLiteral(expression) && isErrorCode(expression.text)) return [expression.text];
  if (ts.isConditionalExpression(expression)) {
    const [a, b] = [codesOf(expression.whenTrue), codesOf(expression.whenFalse)];
    return a && b ? [...a, ...b] : null;
  }
  return null;
}

/** The names of an object literal's properties, or null when it spreads another object. */
function keysOf(node: ts.Expression): string[] | null {
  const expression = unwrap(node);
  if (!ts.isObjectLiteralExpression(expression)) return null;
  const keys: string[] = [];
  for (const property of expression.properties) {
    if (ts.isSpreadAssignment(property)) return null;
    const name = property.name ? nameText(property.name) : null;
    if (name) keys.push(name);
  }
  return keys;
}

/** The `params` of an AppError's or sendError's options: none, their names, or null (handed on). */
function paramsOfOptions(node: ts.Expression | undefined): string[] | null {
  if (!node) return [];
  const expression = unwrap(node);
  if (!ts.isObjectLiteralExpression(expression)) return null;
  const params = expression.properties.find((p) => p.name && nameText(p.name) === 'params');
  if (!params) return expression.properties.some(ts.isSpreadAssignment) ? null : [];
  return ts.isPropertyAssignment(params) ? keysOf(params.initializer) : null;
}

/**
 * An options argument chosen by a condition on the code (`code === ERR.x ? { params } : {}`) gives its
 * parameters to that code, and the other branch's to the rest.
 */
function raisesOf(
  at: string,
  codeArgument: ts.Expression | undefined,
  options: ts.Expression | undefined,
  paramsOf: typeof paramsOfOptions,
) {
  const codes = codesOf(codeArgument);
  const chosen = options ? unwrap(options) : undefined;
  if (chosen && ts.isConditionalExpression(chosen)) {
    const condition = unwrap(chosen.condition);
    const namedCode =
      ts.isBinaryExpression(condition) && condition.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken
        ? codesOf(condition.right)
        : null;
    return [
      { at, codes: namedCode ?? codes, params: paramsOf(chosen.whenTrue), ...(namedCode && !codes ? { chosenByCode: true as const } : {}) },
      { at, codes, params: paramsOf(chosen.whenFalse) },
    ];
  }
  return [{ at, codes, params: paramsOf(options) }];
}

/** Every place in a source that says a catalogue message, and the `ERR.x` nodes that are their codes. */
export function raisesIn(sourceFile: ts.SourceFile): { raises: Raise[]; codeNodes: Set<ts.Node> } {
  const raises: Raise[] = [];
  const codeNodes = new Set<ts.Node>();
  const markCodes = (node: ts.Expression | undefined) => {
    if (!node) return;
    const expression = unwrap(node);
    codeNodes.add(expression);
    if (ts.isConditionalExpression(expression)) [expression.whenTrue, expression.whenFalse].forEach(markCodes);
  };
  walk(sourceFile, (node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AppError') {
      const [code, options] = node.arguments ?? [];
      markCodes(code);
      raises.push(...raisesOf(where(node), code, options, paramsOfOptions));
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === 'errorMessage') {
        const [code, , params] = node.arguments;
        markCodes(code);
        raises.push(...raisesOf(where(node), code, params, (p) => (p ? keysOf(p) : [])));
      } else if (name === 'sendError') {
        const [, , code, options] = node.arguments;
        markCodes(code);
        raises.push(...raisesOf(where(node), code, options, paramsOfOptions));
      }
    }
  });
  return { raises, codeNodes };
}

/** The catalogue's codes whose messages name values, in any language. */
const PARAMETRISED = new Set(
  (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => LANGUAGES.some((language) => errorMessage(code, language).includes('{'))),
);

/**
 * `ERR.x` of a code with parameters where this test cannot see what says it (a refusal table, a
 * variable): its parameters could be lost on the way, unless the place that receives it gives them by
 * a condition on the code (`chosenByCode`). Comparisons, lists of codes (the route table's `errors`,
 * sets to test membership) and `case` labels only name a code.
 */
export function hiddenParametrisedCodes(
  sourceFile: ts.SourceFile,
  codeNodes: ReadonlySet<ts.Node>,
  handedOn: ReadonlySet<string>,
): string[] {
  const found: string[] = [];
  walk(sourceFile, (node) => {
    if (!ts.isPropertyAccessExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'ERR') return;
    const code = codesOf(node)?.[0];
    if (!code || !PARAMETRISED.has(code) || codeNodes.has(node) || handedOn.has(code)) return;
    let parent = node.parent;
    while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
    const named =
      (ts.isBinaryExpression(parent) &&
        [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(parent.operatorToken.kind)) ||
      ts.isArrayLiteralExpression(parent) ||
      ts.isCaseClause(parent);
    if (!named) found.push(`${where(node)} ERR.${node.name.text}`);
  });
  return found;
}

/** What each place says, rendered in every language with its parameters: the placeholders left. */
export function unfilledErrorMessages(raises: readonly Raise[]): string[] {
  const found: string[] = [];
  const raisedWithParams = new Set<ErrorCode>();
  for (const raise of raises) {
    if (!raise.codes || !raise.params) continue;
    for (const code of raise.codes) {
      raisedWithParams.add(code);
      for (const language of LANGUAGES) {
        const left = leftOver(errorMessage(code, language, sample(raise.params)));
        if (left.length) found.push(`${raise.at} ${code} (${language}) leaves ${left.join(' ')}`);
      }
    }
  }
  // A code no visible place says is said by a refusal table or a variable, without parameters.
  for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
    if (raisedWithParams.has(code)) continue;
    for (const language of LANGUAGES) {
      const left = leftOver(errorMessage(code, language));
      if (left.length) found.push(`${code} (${language}), said without parameters, leaves ${left.join(' ')}`);
    }
  }
  return found;
}

const PARSED = PRODUCT_SOURCES.map((file) => parse(file));
const SCANNED = PARSED.map((sourceFile) => ({ sourceFile, ...raisesIn(sourceFile) }));
const RAISES = SCANNED.flatMap((scan) => scan.raises);

// --- Field reasons ------------------------------------------------------------------------------------

const isFieldReason = (text: string): text is FieldReason => Object.prototype.hasOwnProperty.call(FIELD_REASONS, text);
const numberOr = (node: ts.Expression | undefined, fallback: number) =>
  node && ts.isNumericLiteral(unwrap(node)) ? Number((unwrap(node) as ts.NumericLiteral).text) : fallback;

/** The zod issues a schema method raises with a reason it chose (`.min(1, { error: 'tooFew' })`). */
function issuesOfChosenReason(reason: FieldReason, options: ts.ObjectLiteralExpression): z4Issue[] {
  const call = options.parent;
  const base = { path: ['field'], message: reason, input: [] };
  if (!ts.isCallExpression(call)) return [{ ...base, code: 'custom' }];
  const method = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : '';
  const bound = numberOr(call.arguments[0], 3);
  const property = (name: string) => {
    const found = options.properties.find((p) => p.name && nameText(p.name) === name);
    return found && ts.isPropertyAssignment(found) ? found.initializer : undefined;
  };
  if (method === 'addIssue') {
    const code = property('code');
    const codeText = code && ts.isStringLiteral(code) ? code.text : 'custom';
    if (codeText === 'too_small') return [{ ...base, code: 'too_small', origin: 'array', minimum: numberOr(property('minimum'), 3) }];
    if (codeText === 'too_big') return [{ ...base, code: 'too_big', origin: 'array', maximum: numberOr(property('maximum'), 3) }];
    return [{ ...base, code: 'custom' }];
  }
  if (method === 'min' || method === 'nonempty') return [{ ...base, code: 'too_small', origin: 'array', minimum: bound }];
  if (method === 'max') return [{ ...base, code: 'too_big', origin: 'array', maximum: bound }];
  if (method === 'length')
    return [
      { ...base, code: 'too_small', origin: 'array', minimum: bound },
      { ...base, code: 'too_big', origin: 'array', maximum: bound },
    ];
  return [{ ...base, code: 'custom' }];
}
type z4Issue = Parameters<typeof toFieldErrors>[0][number];

/**
 * Every field reason a source picks, rendered as the product renders it: a schema's chosen reason through
 * the issue its method raises (`toFieldErrors`), a field error written out (`{ reason, params }`) with
 * the parameters written beside it.
 */
export function unfilledFieldMessages(sourceFile: ts.SourceFile): string[] {
  const found: string[] = [];
  const render = (at: string, reason: string, errors: ReturnType<typeof toFieldErrors>) => {
    for (const error of errors)
      for (const language of LANGUAGES) {
        const left = leftOver(fieldMessage(error, language));
        if (left.length) found.push(`${at} ${reason} (${language}) leaves ${left.join(' ')}`);
      }
  };
  walk(sourceFile, (node) => {
    if (!ts.isPropertyAssignment(node) || !ts.isStringLiteral(node.initializer) || !isFieldReason(node.initializer.text)) return;
    const name = nameText(node.name);
    const reason = node.initializer.text;
    const owner = node.parent;
    if (!ts.isObjectLiteralExpression(owner)) return;
    if (name === 'error' || name === 'message') {
      render(where(node), reason, toFieldErrors(issuesOfChosenReason(reason, owner)));
    } else if (name === 'reason') {
      const params = owner.properties.find((p) => p.name && nameText(p.name) === 'params');
      const keys = params && ts.isPropertyAssignment(params) ? keysOf(params.initializer) : [];
      if (keys) render(where(node), reason, [{ field: 'field', reason, params: sample(keys) }]);
    }
  });
  return found;
}

// --- Interface strings (i18next) ----------------------------------------------------------------------

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
const RESOURCES: Record<Language, Record<string, Map<string, string>>> = Object.fromEntries(
  (
    [
      ['en', { translation: translationEn, editor: editorEn, audit: auditEn, signature: signatureEn, template: templateEn }],
      ['ko', { translation: translationKo, editor: editorKo, audit: auditKo, signature: signatureKo, template: templateKo }],
      ['ja', { translation: translationJa, editor: editorJa, audit: auditJa, signature: signatureJa, template: templateJa }],
    ] as const
  ).map(([language, namespaces]) => [
    language,
    Object.fromEntries(Object.entries(namespaces).map(([ns, tree]) => [ns, new Map(flatten(tree as unknown as Tree))])),
  ]),
) as Record<Language, Record<string, Map<string, string>>>;

/** i18next's own options, never placeholders. */
const I18NEXT_OPTIONS = new Set(['count', 'defaultValue', 'ns', 'lng', 'context', 'returnObjects']);

/**
 * Every `t('key', { ... })` whose `t` comes from `useTranslation(namespace)` in an enclosing function,
 * with a written-out key: the placeholders of its string (and plural forms), in every language, that the
 * call does not give. Calls through a `t` handed in as an argument, or with a computed key, are not read.
 */
export function unfilledInterfaceStrings(sourceFile: ts.SourceFile): { checked: number; found: string[] } {
  const bindings = new Map<ts.Node, Map<string, string>>();
  const scopeOf = (node: ts.Node): ts.Node => {
    let current = node.parent;
    while (current && !ts.isFunctionLike(current) && !ts.isSourceFile(current)) current = current.parent;
    return current ?? node.getSourceFile();
  };
  walk(sourceFile, (node) => {
    if (!ts.isVariableDeclaration(node) || !node.initializer || !ts.isObjectBindingPattern(node.name)) return;
    const init = unwrap(node.initializer);
    if (!ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'useTranslation') return;
    const first = init.arguments[0];
    const namespace = first && ts.isStringLiteral(first) ? first.text : 'translation';
    for (const element of node.name.elements) {
      const property = element.propertyName ? nameText(element.propertyName) : nameText(element.name);
      const local = nameText(element.name);
      if (property !== 't' || !local) continue;
      const scope = scopeOf(node);
      bindings.set(scope, (bindings.get(scope) ?? new Map()).set(local, namespace));
    }
  });
  let checked = 0;
  const found: string[] = [];
  walk(sourceFile, (node) => {
    if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return;
    const [keyNode, options] = node.arguments;
    if (!keyNode || !(ts.isStringLiteral(keyNode) || ts.isNoSubstitutionTemplateLiteral(keyNode))) return;
    let namespace: string | undefined;
    for (let scope: ts.Node = scopeOf(node); !namespace; scope = scopeOf(scope)) {
      namespace = bindings.get(scope)?.get(node.expression.text);
      if (ts.isSourceFile(scope)) break;
    }
    if (!namespace) return;
    const [ns, key] = keyNode.text.includes(':') ? (keyNode.text.split(':') as [string, string]) : [namespace, keyNode.text];
    const given = options ? keysOf(options) : [];
    if (!given) return;
    for (const language of LANGUAGES) {
      const strings = RESOURCES[language][ns];
      const forms = [key, `${key}_zero`, `${key}_one`, `${key}_two`, `${key}_few`, `${key}_many`, `${key}_other`]
        .map((form) => strings?.get(form))
        .filter((text): text is string => text !== undefined);
      if (forms.length === 0) continue;
      if (language === 'en') checked += 1;
      for (const text of forms) {
        const missing = [...text.matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}/g)]
          .map((match) => match[1] as string)
          .filter((name) => !given.includes(name) && !I18NEXT_OPTIONS.has(name));
        if (missing.length) found.push(`${where(node)} ${ns}:${key} (${language}) leaves ${missing.map((m) => `{{${m}}}`).join(' ')}`);
      }
    }
  });
  return { checked, found };
}

// --- The tests ----------------------------------------------------------------------------------------

describe('the checks themselves', () => {
  const source = (text: string, file = 'server/src/x.ts') => parse(file, text);

  it('find a message raised without the values it names, and pass one raised with them', () => {
    const { raises } = raisesIn(
      source(
        [
          'throw new AppError(ERR.templateVersionNotGreater);',
          "throw new AppError(ERR.templateVersionNotGreater, { params: { last: '1.2' } });",
          'return new AppError(code, code === ERR.ssoStateMismatch ? { params: { minutes: 10 } } : {});',
          'errorMessage(ERR.exportQueueFull, language);',
        ].join('\n'),
      ),
    );
    expect(raises.map((r) => [r.codes, r.params])).toEqual([
      [['7005'], []],
      [['7005'], ['last']],
      [['1018'], ['minutes']],
      [null, []],
      [['8012'], []],
    ]);
    expect(unfilledErrorMessages(raises).filter((text) => text.startsWith('server/src/x.ts'))).toEqual([
      'server/src/x.ts:1 7005 (ko) leaves {last}',
      'server/src/x.ts:1 7005 (en) leaves {last}',
      'server/src/x.ts:1 7005 (ja) leaves {last}',
      'server/src/x.ts:4 8012 (ko) leaves {max}',
      'server/src/x.ts:4 8012 (en) leaves {max}',
      'server/src/x.ts:4 8012 (ja) leaves {max}',
    ]);
  });

  it('find a code with parameters kept where what says it cannot be seen, and pass comparisons and lists', () => {
    const file = source(
      [
        'const REFUSALS = { late: ERR.templateVersionNotGreater, gone: ERR.notFound };',
        'if (error.status === ERR.templateVersionNotGreater) show(error);',
        'const errors = [ERR.templateVersionNotGreater];',
      ].join('\n'),
    );
    expect(hiddenParametrisedCodes(file, raisesIn(file).codeNodes, new Set())).toEqual(['server/src/x.ts:1 ERR.templateVersionNotGreater']);
    // A table is fine when the place it is handed to gives the code's parameters by a condition on it.
    expect(hiddenParametrisedCodes(file, raisesIn(file).codeNodes, new Set(['7005']))).toEqual([]);
  });

  it('find a field reason whose number is not given, and pass one whose issue carries it', () => {
    expect(
      unfilledFieldMessages(
        source(
          [
            "z.array(row).min(1, { error: 'tooFew' });",
            "z.string().refine(ok, { error: 'tooLong' });",
            "ctx.addIssue({ code: 'too_big', maximum: 500, message: 'tooMany' });",
            "const error = { field: 'x', reason: 'tooShort' };",
          ].join('\n'),
        ),
      ),
    ).toEqual([
      'server/src/x.ts:2 tooLong (ko) leaves {max}',
      'server/src/x.ts:2 tooLong (en) leaves {max}',
      'server/src/x.ts:2 tooLong (ja) leaves {max}',
      'server/src/x.ts:4 tooShort (ko) leaves {min}',
      'server/src/x.ts:4 tooShort (en) leaves {min}',
      'server/src/x.ts:4 tooShort (ja) leaves {min}',
    ]);
  });

  it('find an interface string whose placeholder a call does not give, through the t of its namespace', () => {
    const file = source(
      [
        'function A() {',
        "  const { t } = useTranslation('signature');",
        "  t('area.removeLabel', { name });",
        "  t('area.removeLabel');",
        '}',
        'function B() {',
        '  const { t: tc } = useTranslation();',
        "  tc('list.total', { n: 3 });",
        "  tc('list.total', {});",
        '}',
      ].join('\n'),
      'client/src/x.tsx',
    );
    const { checked, found } = unfilledInterfaceStrings(file);
    expect(checked).toBe(4);
    expect(found).toEqual([
      'client/src/x.tsx:4 signature:area.removeLabel (ko) leaves {{name}}',
      'client/src/x.tsx:4 signature:area.removeLabel (en) leaves {{name}}',
      'client/src/x.tsx:4 signature:area.removeLabel (ja) leaves {{name}}',
      'client/src/x.tsx:9 translation:list.total (ko) leaves {{n}}',
      'client/src/x.tsx:9 translation:list.total (en) leaves {{n}}',
      'client/src/x.tsx:9 translation:list.total (ja) leaves {{n}}',
    ]);
  });
});

describe('every message, with what its callers give', () => {
  it('reads the sources it checks', () => {
    expect(PRODUCT_SOURCES.length).toBeGreaterThan(400);
    expect(RAISES.filter((raise) => raise.codes && raise.params?.length).length).toBeGreaterThan(15);
  });

  it('the error catalogue: each code has the same placeholders in Korean and Japanese as in English', () => {
    const names = (text: string) => placeholdersOf(text).sort();
    const differing = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(
      (code) =>
        JSON.stringify(names(koreanErrors[code])) !== JSON.stringify(names(ERROR_CATALOGUE[code].en)) ||
        JSON.stringify(names(japaneseErrors[code])) !== JSON.stringify(names(ERROR_CATALOGUE[code].en)),
    );
    expect(differing).toEqual([]);
  });

  it('the error catalogue: every place that says a message gives every value it names, in ko, en and ja', () => {
    expect(unfilledErrorMessages(RAISES)).toEqual([]);
  });

  it('the error catalogue: the interface shows a failed call’s message with the values the server gave, in ko, en and ja', () => {
    const left = RAISES.filter((raise) => raise.codes && raise.params?.length).flatMap((raise) =>
      (raise.codes ?? []).flatMap((code) =>
        LANGUAGES.flatMap((language) => {
          const answered = new ApiError(code, errorMessage(code, language, sample(raise.params ?? [])), ERROR_CATALOGUE[code].http);
          return leftOver(apiErrorText(answered, language)).map((text) => `${raise.at} ${code} (${language}) shows ${text}`);
        }),
      ),
    );
    expect(left).toEqual([]);
  });

  it('the error catalogue: a code whose message names values is said only where its values can be seen', () => {
    const handedOn = new Set(RAISES.filter((raise) => raise.chosenByCode).flatMap((raise) => raise.codes ?? []));
    expect([...handedOn]).toEqual([ERR.ssoStateMismatch]);
    expect(SCANNED.flatMap((scan) => hiddenParametrisedCodes(scan.sourceFile, scan.codeNodes, handedOn))).toEqual([]);
  });

  it('field reasons: every reason a schema or a field error picks is said with its numbers, in ko, en and ja', () => {
    expect(PARSED.flatMap((file) => unfilledFieldMessages(file))).toEqual([]);
  });

  it('field reasons: every issue zod raises on its own is said with its numbers, in ko, en and ja', () => {
    const issues = [
      { code: 'too_small', origin: 'string', minimum: 8 },
      { code: 'too_small', origin: 'array', minimum: 1 },
      { code: 'too_small', origin: 'number', minimum: 0 },
      { code: 'too_big', origin: 'string', maximum: 25 },
      { code: 'too_big', origin: 'array', maximum: 200 },
      { code: 'too_big', origin: 'number', maximum: 10 },
      { code: 'invalid_type', expected: 'string', input: 3 },
      { code: 'invalid_format', format: 'email' },
      { code: 'invalid_value', values: ['Y', 'N'] },
      { code: 'custom' },
    ].map((issue, i) => ({ path: [`f${i}`], message: 'Invalid input', input: 'x', ...issue }));
    const errors = toFieldErrors(issues as never);
    expect(errors).toHaveLength(issues.length);
    const left = errors.flatMap((error) => LANGUAGES.flatMap((language) => leftOver(fieldMessage(error, language))));
    expect(left).toEqual([]);
  });

  it('interface strings: every t call gives every placeholder of its string, in ko, en and ja', () => {
    const results = PARSED.filter((file) => file.fileName.startsWith('client/')).map((file) => unfilledInterfaceStrings(file));
    expect(results.reduce((sum, r) => sum + r.checked, 0)).toBeGreaterThan(500);
    expect(results.flatMap((r) => r.found)).toEqual([]);
  });
});
