import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePatch } from '../src/validation/parse-body.js';
import { scheduleErrorOf } from './support/errors.js';

// parsePatch (validation/parse-body.ts), which every PATCH of issue 32's
// resources reads its body with: unknown keys first, then values, then a
// patch that changes nothing.

const schema = z.object({ name: z.string().min(1), duration_minutes: z.int().min(1) }).partial();

describe('parsePatch', () => {
  it('answers the fields sent, validated', () => {
    expect(parsePatch(schema, { name: 'Intro' })).toEqual({ name: 'Intro' });
    expect(parsePatch(schema, { name: 'Intro', duration_minutes: 45 })).toEqual({ name: 'Intro', duration_minutes: 45 });
  });

  it('refuses an unknown key before judging any value, naming it, what may be sent, and the field most likely meant', async () => {
    const error = await scheduleErrorOf(() => parsePatch(schema, { durationMinutes: 45, name: '' }));
    expect(error).toMatchObject({
      code: 'validation_error',
      message: 'Unknown fields: durationMinutes. Send any of name, duration_minutes. Did you mean duration_minutes (not durationMinutes)?',
      details: { fields: ['durationMinutes'] },
    });
  });

  it('names every unknown key', async () => {
    const error = await scheduleErrorOf(() => parsePatch(schema, { colour: 'red', size: 3 }));
    expect(error.message.startsWith('Unknown fields: colour, size. Send any of name, duration_minutes.')).toBe(true);
    expect(error.details).toEqual({ fields: ['colour', 'size'] });
  });

  it('refuses a bad value as parseBody does', async () => {
    const error = await scheduleErrorOf(() => parsePatch(schema, { duration_minutes: 0 }));
    expect(error.code).toBe('validation_error');
    expect(error.details).toEqual({ fields: ['duration_minutes'] });
  });

  it('refuses an empty patch, naming what may be sent', async () => {
    for (const body of [{}, undefined]) {
      const error = await scheduleErrorOf(() => parsePatch(schema, body));
      expect(error).toMatchObject({
        code: 'validation_error',
        message: 'Send at least one of name, duration_minutes.',
        details: { fields: [] },
      });
    }
  });
});
