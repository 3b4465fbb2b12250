import { expect, it } from 'vitest';
import type { z } from 'zod';
import { api, type CallSpec } from '@eln/shared';
import type { operations } from './schema.js';

/*
 * The browser client (client/src/api) types each call from the route table's zod schemas, the same
 * schemas the OpenAPI document is generated from; this package's types are generated from that document.
 * These checks hold the two to one another, call by call, when the project type-checks (`npm run lint`,
 * `tsc -b`): every answer's `data` is the same type in both, every request the document describes is one
 * the browser client may send, and every request the server accepts (after its defaults) is one the
 * document describes. A call that differs fails the type check with its name ("Type '"projects.list"' does
 * not satisfy the constraint 'never'").
 */

type Api = typeof api;
type Group = Extract<keyof Api, string>;
type CallOf<G extends Group, C extends keyof Api[G]> = Api[G][C] extends CallSpec ? Api[G][C] : never;
type Operation<G extends Group, C extends string> = `${G}.${C}` extends keyof operations ? operations[`${G}.${C}`] : never;

type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : never;
type JsonData<O> = O extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Calls whose body is a form (a file and its fields) or whose success is a file or a stream, not the JSON envelope. */
const NOT_JSON = ['exports.importEln', 'files.upload', 'exports.download', 'audit.exportCsv', 'notifications.stream'] as const;
type NotJson = (typeof NOT_JSON)[number];

type Differing<Check extends 'request' | 'answer'> = {
  [G in Group]: {
    [C in Extract<keyof Api[G], string>]: `${G}.${C}` extends NotJson
      ? never
      : (
            Check extends 'answer'
              ? Same<z.output<CallOf<G, C>['answer']>, JsonData<Operation<G, C>>>
              : [JsonBody<Operation<G, C>>] extends [z.input<CallOf<G, C>['request']>]
                ? [z.output<CallOf<G, C>['request']>] extends [JsonBody<Operation<G, C>>]
                  ? true
                  : false
                : false
          ) extends true
        ? never
        : `${G}.${C}`;
  }[Extract<keyof Api[G], string>];
}[Group];

/** Compiles only when no call is named: each names the calls that differ. */
type None<Calls extends never> = Calls;
export type AnswersAlike = None<Differing<'answer'>>;
export type RequestsAlike = None<Differing<'request'>>;

it('leaves out of the type checks exactly the calls whose body or success is not JSON', () => {
  const notJson = Object.entries(api).flatMap(([group, calls]) =>
    Object.entries(calls as Record<string, CallSpec>)
      .filter(([, spec]) => spec.body === 'multipart' || spec.answerBody === 'file' || spec.answerBody === 'stream')
      .map(([name]) => `${group}.${name}`),
  );
  expect(notJson.sort()).toEqual([...NOT_JSON].sort());
});
