import { createElement as h } from 'react';
import { ConfirmPrompt } from './confirm-prompt.js';
import { runApp } from './run-app.js';

/** Asks a yes/no question on the terminal; enter and Ctrl-C say no, since what follows writes. */
export function confirmOnTerminal(question: string, color: boolean): Promise<boolean> {
  return runApp<boolean>((done) => h(ConfirmPrompt, { question, color, enterSays: false, onAnswer: done }), false);
}
