import { CliError } from '../backend/backend.js';

// How a password reaches the CLI without ever being an argument (which
// would land in shell history and in `ps`): the first line of stdin for a
// script, or typed at a terminal without echo for a person.

/** What is read past this without a line break is not a password anyone typed; core refuses it as too long. */
const MAX_LINE = 64 * 1024;

/** A readable stream as the readers need it: process.stdin, or a fake in tests. */
export interface TextInput {
  setEncoding(encoding: 'utf8'): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** A terminal's input: raw mode turns off its echo and line editing. */
export interface TerminalInput extends TextInput {
  setRawMode(raw: boolean): unknown;
}

/**
 * Reads until the first line break (or the end) and stops there, so a pipe
 * that stays open does not hang the command. The line break, and a
 * carriage return before it, are not part of the line; undefined when the
 * input ended before giving anything.
 */
export function readFirstLine(input: TextInput): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (line: string | undefined) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onError);
      input.pause();
      resolve(line === undefined ? undefined : line.replace(/\r$/, ''));
    };
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) finish(text.slice(0, end));
      else if (text.length > MAX_LINE) finish(text);
    };
    const onEnd = () => finish(text === '' ? undefined : text);
    const onError = (error: Error) => {
      input.off('data', onData);
      reject(error);
    };
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    input.on('error', onError);
    input.resume();
  });
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const ESC = '\u001b';
const BACKSPACES = new Set(['\u007f', '\b']);

/** Leaving the prompt: nothing was changed, and a script must not read that as success. */
export function promptCanceled(): CliError {
  return new CliError('canceled', 'Canceled; nothing was changed.');
}

/**
 * Asks for a secret at a terminal: `question` on `output`, and what is
 * typed is not shown (raw mode, nothing echoed). Backspace erases, Ctrl-U
 * starts over, Enter ends it; Ctrl-C, or Ctrl-D on an empty line, cancels.
 * Arrow keys and other escape sequences are ignored rather than taken as
 * part of the password.
 */
export function askHidden(question: string, input: TerminalInput, output: { write(text: string): unknown }): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const done = (outcome: () => void) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode(false);
      input.pause();
      // Enter was not echoed either: end the prompt's line.
      output.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      if (chunk.startsWith(ESC)) return;
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(() => resolve(typed.join('')));
        if (char === CTRL_C || (char === CTRL_D && typed.length === 0)) return done(() => reject(promptCanceled()));
        if (BACKSPACES.has(char)) typed = typed.slice(0, -1);
        else if (char === CTRL_U) typed = [];
        else if (char >= ' ') typed.push(char);
      }
    };
    const onEnd = () => done(() => reject(promptCanceled()));
    // Raw mode before the question, so nothing typed after seeing it is ever echoed.
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
    output.write(question);
  });
}
