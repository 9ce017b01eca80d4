import { EventEmitter } from 'node:events';
import { render } from 'ink-testing-library';
import { createElement as h, type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmPrompt } from '../src/interactive/confirm-prompt.js';
import { KeyRouter } from '../src/interactive/key-router.js';
import { withProgress } from '../src/interactive/progress.js';
import { SelectList } from '../src/interactive/select-list.js';
import { Spinner, showSpinner } from '../src/interactive/spinner.js';
import { isInteractive, wantsSpinner } from '../src/interactive/terminal.js';
import { TextPrompt } from '../src/interactive/text-prompt.js';
import { WeekdayPicker } from '../src/interactive/weekday-picker.js';
import { frameWhere, KEY, press, settle } from './support/ink-keys.js';

describe('text prompt', () => {
  it('types, erases, refuses what does not validate, and submits on enter', async () => {
    const onSubmit = vi.fn();
    const app = render(
      h(TextPrompt, { label: 'Count:', color: false, validate: (t) => (t === '7' ? undefined : 'Not 7.'), onSubmit, onCancel: vi.fn() }),
    );
    await press(app, '7', '2', KEY.enter);
    expect(app.lastFrame()).toContain('Count: 72');
    expect(app.lastFrame()).toContain('Not 7.');
    expect(onSubmit).not.toHaveBeenCalled();
    await press(app, KEY.backspace, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('7');
    app.unmount();
  });

  it('enter right after a paste, before a redraw, submits the pasted text (found by the terminal test of schedule book)', async () => {
    const onSubmit = vi.fn();
    const app = render(
      h(TextPrompt, { label: 'Email:', color: false, validate: (t) => (t ? undefined : 'empty'), onSubmit, onCancel: vi.fn() }),
    );
    await press(app);
    app.stdin.write('kim@example.com');
    app.stdin.write(KEY.enter);
    app.stdin.write(KEY.enter);
    await press(app);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('kim@example.com');
    app.unmount();
  });

  it('a paste ending in a line break submits it', async () => {
    const onSubmit = vi.fn();
    const app = render(h(TextPrompt, { label: 'Email:', initial: 'x', color: false, onSubmit, onCancel: vi.fn() }));
    await press(app, KEY.backspace, 'kim@example.com\r');
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('kim@example.com');
    app.unmount();
  });
});

describe('pickers', () => {
  it('a list moves with the arrows, stops at its ends, and picks on enter', async () => {
    const onSelect = vi.fn();
    const choices = ['a', 'b', 'c'].map((v) => ({ label: v.toUpperCase(), value: v }));
    const app = render(h(SelectList<string>, { title: 'Pick', choices, color: false, onSelect, onCancel: vi.fn() }));
    await press(app, KEY.up, KEY.down, KEY.down, KEY.down);
    expect(app.lastFrame()).toContain('› C');
    await press(app, KEY.enter);
    expect(onSelect).toHaveBeenCalledExactlyOnceWith('c');
    app.unmount();
  });

  it('weekdays toggle with space and need at least one', async () => {
    const onSubmit = vi.fn();
    const app = render(h(WeekdayPicker, { title: 'Days', initial: ['mon'], color: false, onSubmit, onCancel: vi.fn() }));
    await press(app, KEY.space, KEY.enter);
    expect(app.lastFrame()).toContain('Choose at least one day');
    await press(app, KEY.right, KEY.right, KEY.right, KEY.right, KEY.space, KEY.left, KEY.left, KEY.space, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith(['wed', 'fri']);
    app.unmount();
  });

  it('confirm: y or enter is yes, n or esc is no', async () => {
    const onAnswer = vi.fn();
    const app = render(h(ConfirmPrompt, { question: 'Go?', color: false, onAnswer }));
    expect(app.lastFrame()).toBe('Go? [Y/n]');
    await press(app, 'x', 'y', 'n', KEY.enter);
    // Answered once: the keys after it (before the next step is drawn) change nothing.
    expect(onAnswer.mock.calls).toEqual([[true]]);
    app.unmount();
    for (const [key, yes] of [
      [KEY.enter, true],
      ['n', false],
      [KEY.escape, false],
    ] as const) {
      const answer = vi.fn();
      const again = render(h(ConfirmPrompt, { question: 'Go?', color: false, onAnswer: answer }));
      await press(again, key);
      expect(answer.mock.calls).toEqual([[yes]]);
      again.unmount();
    }
  });
});

describe('key router', () => {
  function twoQuestions() {
    const answers: string[] = [];
    function Two(): ReactNode {
      const [step, setStep] = useState(0);
      if (step === 0)
        return h(SelectList<string>, {
          title: 'First',
          choices: [{ label: 'A', value: 'a' }],
          color: false,
          onSelect: (v) => {
            answers.push(v);
            setStep(1);
          },
          onCancel: vi.fn(),
        });
      return h(WeekdayPicker, { title: 'Days', initial: [], color: false, onSubmit: (d) => answers.push(d.join(',')), onCancel: vi.fn() });
    }
    return { answers, app: render(h(KeyRouter, null, h(Two))) };
  }

  it('plain keys read together are taken one at a time', async () => {
    const { answers, app } = twoQuestions();
    await press(app, KEY.enter);
    await press(app, ` ${KEY.right} \r`);
    expect(answers).toEqual(['a', 'mon,tue']);
    app.unmount();
  });
});

describe('spinner and progress', () => {
  it('the spinner turns while it waits', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const app = render(h(Spinner, { label: 'Loading…' }));
      await settle();
      expect(app.lastFrame()).toBe('⠋ Loading…');
      vi.advanceTimersByTime(80);
      await frameWhere(app, (f) => f === '⠙ Loading…');
      app.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drawn on a stream, it erases itself when stopped', async () => {
    const written: string[] = [];
    const stream = Object.assign(new EventEmitter(), {
      isTTY: true,
      columns: 80,
      rows: 24,
      write: (chunk: string) => written.push(chunk) > 0,
    }) as unknown as NodeJS.WriteStream;
    const stop = showSpinner('Pausing the series…', stream);
    expect(written.join('')).toContain('Pausing the series…');
    stop();
    // The last frame is empty, and the cursor steps back up onto the line it leaves.
    expect(written.at(-1)).toBe('\u001b[1A');
  });

  it('draws nothing unless a person is at a terminal, and passes the result through', async () => {
    // Under the test runner stdin and stderr are not terminals.
    expect(wantsSpinner()).toBe(false);
    await expect(withProgress('Working…', async () => 42)).resolves.toBe(42);
    await expect(withProgress('Working…', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  });

  it('terminal checks: both stdin and stdout and no CI for a UI; stdin, a sized stderr, no CI and no dumb terminal for a spinner', () => {
    const tty = { isTTY: true, columns: 80 };
    const pipe = { isTTY: false };
    expect(isInteractive({ stdin: tty, stdout: tty, stderr: pipe }, {})).toBe(true);
    expect(isInteractive({ stdin: tty, stdout: tty, stderr: pipe }, { CI: '1' })).toBe(false);
    expect(isInteractive({ stdin: pipe, stdout: tty, stderr: tty }, {})).toBe(false);
    expect(isInteractive({ stdin: tty, stdout: pipe, stderr: tty }, {})).toBe(false);
    const all = { stdin: tty, stdout: pipe, stderr: tty };
    expect(wantsSpinner(all, {})).toBe(true);
    expect(wantsSpinner(all, { CI: 'true' })).toBe(false);
    expect(wantsSpinner(all, { CI: 'false' })).toBe(true);
    expect(wantsSpinner(all, { TERM: 'dumb' })).toBe(false);
    expect(wantsSpinner({ ...all, stderr: { isTTY: true, columns: 0 } }, {})).toBe(false);
    expect(wantsSpinner({ ...all, stdin: pipe }, {})).toBe(false);
  });
});
