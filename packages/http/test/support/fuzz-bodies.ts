import type { Operation } from '@schedule/core';
import fc from 'fast-check';
import { MAX_BODY_BYTES } from '../../src/index.js';
import { BODY_TEMPLATES, type Seeds } from './fuzz-templates.js';
import { type FuzzJson, fieldValue, hugeString, jsonText, nastyString } from './fuzz-values.js';

// The body of an API-shaped case: none; the operation's valid template with a
// few fields dropped, replaced or added; any JSON value; text that is not
// JSON or not even UTF-8; or a body right at the size limit.

/** The small numbers a template is made from. */
export const seeds: fc.Arbitrary<Seeds> = fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000));

interface BodyEdit {
  readonly action: 'drop' | 'set' | 'add';
  readonly at: number;
  readonly key: string;
  readonly value: FuzzJson;
}

const bodyEdit: fc.Arbitrary<BodyEdit> = fc.record({
  action: fc.constantFrom('drop', 'set', 'set', 'add') as fc.Arbitrary<BodyEdit['action']>,
  at: fc.nat(),
  key: fc.constantFrom('extra', 'metadata', 'start', 'count', '__proto__', 'constructor', ''),
  value: fieldValue,
});

export type BodyPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'template'; readonly seeds: Seeds; readonly edits: readonly BodyEdit[] }
  | { readonly kind: 'json'; readonly value: FuzzJson }
  | { readonly kind: 'text'; readonly text: string | Buffer }
  | { readonly kind: 'size'; readonly bytes: number };

export const bodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('template' as const),
      seeds,
      edits: fc.oneof(fc.constant([]), fc.array(bodyEdit, { minLength: 1, maxLength: 3 })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('json' as const), value: fieldValue }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      text: fc.oneof(
        fc.constantFrom(
          'not json',
          '{"a":1',
          '{"a":1}x',
          '{}{}',
          '\ufeff{}',
          '{"a":1,}',
          "{'a':1}",
          'NaN',
          'a=1&b=2',
          ' ',
          '\u0000',
          '{"a":"\u0000"}',
        ),
        nastyString,
        hugeString,
        // Bytes that are not UTF-8 at all: a lone surrogate as WTF-8, an overlong slash, a stray continuation byte.
        fc.constantFrom(
          Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
          Buffer.from([0xc0, 0xaf]),
          Buffer.from([0x80]),
        ),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('size' as const),
      bytes: fc.oneof(fc.integer({ min: MAX_BODY_BYTES - 16, max: MAX_BODY_BYTES + 16 }), fc.constant(2 * MAX_BODY_BYTES)),
    }),
  },
);

/** The body of a plan, for an operation: text for JSON, or raw bytes. */
export function bodyOf(plan: BodyPlan, operation: Operation): Buffer | undefined {
  switch (plan.kind) {
    case 'none':
      return undefined;
    case 'template': {
      const template = BODY_TEMPLATES[operation.name]?.(plan.seeds) ?? {};
      return Buffer.from(jsonText(applyEdits(structuredClone(template) as Record<string, FuzzJson>, plan.edits)));
    }
    case 'json':
      return Buffer.from(jsonText(plan.value));
    case 'text':
      return typeof plan.text === 'string' ? Buffer.from(plan.text) : plan.text;
    case 'size': {
      const frame = '{"metadata":{"x":""}}';
      return Buffer.from(frame.replace('""', `"${'a'.repeat(Math.max(0, plan.bytes - frame.length))}"`));
    }
  }
}

/** The plain objects in a body, outermost first: where an edit may act. */
function objectsIn(root: Record<string, FuzzJson>): Record<string, FuzzJson>[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const value of Object.values(found[i]!)) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && value.constructor === Object) {
        found.push(value as Record<string, FuzzJson>);
      }
    }
  }
  return found;
}

/** Drops, replaces or adds one field per edit, in objects chosen by the edit. */
function applyEdits(body: Record<string, FuzzJson>, edits: readonly BodyEdit[]): Record<string, FuzzJson> {
  for (const edit of edits) {
    const objects = objectsIn(body);
    const target = objects[edit.at % objects.length]!;
    const keys = Object.keys(target);
    const key = edit.action === 'add' || keys.length === 0 ? edit.key : keys[edit.at % keys.length]!;
    // defineProperty, so that a `__proto__` key is an own field as JSON.parse makes it, not the prototype.
    if (edit.action === 'drop') delete target[key];
    else Object.defineProperty(target, key, { value: edit.value, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

/** A body in chunked coding: one chunk and the last, empty one. */
export function chunk(body: Buffer | undefined): Buffer {
  if (!body || body.length === 0) return Buffer.from('0\r\n\r\n');
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
}
