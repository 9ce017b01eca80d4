import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/backend/backend.js';
import { askHidden, readFirstLine } from '../src/input/password-input.js';

// Issue 15: how `schedule passwords set` reads a password: the first line of
// stdin, or typed at a terminal without echo. The terminal here is a stream
// that records its raw mode; the black-box suite types at a real one.

function fakeTerminal() {
  const input = Object.assign(new PassThrough(), {
    modes: [] as boolean[],
    setRawMode(raw: boolean) {
      input.modes.push(raw);
      return input;
    },
  });
  let written = '';
  const output = { write: (text: string) => (written += text) };
  return { input, output, written: () => written };
}

describe('readFirstLine', () => {
  it('is the text before the first line break, without a carriage return before it', async () => {
    const input = new PassThrough();
    const line = readFirstLine(input);
    input.write('first pass');
    input.write('word\r\nsecond\n');
    expect(await line).toBe('first password');
  });

  it('is everything when the input ends without a line break, and undefined when it ends with nothing', async () => {
    const some = new PassThrough();
    const line = readFirstLine(some);
    some.end('no newline');
    expect(await line).toBe('no newline');
    const none = new PassThrough();
    const nothing = readFirstLine(none);
    none.end();
    expect(await nothing).toBeUndefined();
  });

  it('stops reading past 64 KiB without a line break (core then refuses it as too long)', async () => {
    const input = new PassThrough();
    const line = readFirstLine(input);
    input.write('x'.repeat(70 * 1024));
    expect((await line)?.length).toBe(70 * 1024);
  });
});

describe('askHidden', () => {
  it('turns raw mode on before asking, echoes nothing typed, and ends the line on enter', async () => {
    const t = fakeTerminal();
    const answer = askHidden('Password: ', t.input, t.output);
    expect(t.input.modes).toEqual([true]);
    expect(t.written()).toBe('Password: ');
    t.input.write('secret words\r');
    expect(await answer).toBe('secret words');
    expect(t.input.modes).toEqual([true, false]);
    expect(t.written()).toBe('Password: \n');
  });

  it('backspace erases one character (a whole emoji too), Ctrl-U starts over, escape sequences and controls are dropped', async () => {
    const t = fakeTerminal();
    const answer = askHidden('? ', t.input, t.output);
    t.input.write('wrong\u0015');
    t.input.write('ab🙂\u007f');
    t.input.write('\u001b[D');
    t.input.write('c\td\b');
    t.input.write('e\n');
    expect(await answer).toBe('abce');
  });

  it.each([
    ['Ctrl-C', 'abc\u0003'],
    ['Ctrl-D on an empty line', '\u0004'],
  ])('%s cancels with `canceled`, leaving raw mode', async (_, keys) => {
    const t = fakeTerminal();
    const answer = askHidden('? ', t.input, t.output);
    t.input.write(keys);
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect({ code: (error as CliError).code, message: (error as CliError).message }).toEqual({
      code: 'canceled',
      message: 'Canceled; nothing was changed.',
    });
    expect(t.input.modes).toEqual([true, false]);
  });

  it('the end of the input cancels too', async () => {
    const t = fakeTerminal();
    const answer = askHidden('? ', t.input, t.output);
    t.input.end('partial');
    await expect(answer).rejects.toThrow('Canceled; nothing was changed.');
  });
});
