import { Box, Text, useStdout } from 'ink';
import { createElement as h, type ReactNode, useCallback, useEffect, useState } from 'react';
import { CliError } from '../backend/backend.js';
import { canceledText, rescheduledText } from '../output/confirmations.js';
import { addDays, instantText, localDate, rangeText } from '../output/zone-time.js';
import { groupByDay } from './agenda.js';
import { AgendaView } from './agenda-view.js';
import type { BookingItem } from './api-items.js';
import { ConfirmPrompt } from './confirm-prompt.js';
import { useAnswerOnce } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { SelectList } from './select-list.js';
import { SlotGrid } from './slot-grid.js';
import type { Slot } from './slot-grid-model.js';
import { Spinner } from './spinner.js';
import { TextPrompt } from './text-prompt.js';
import { HINT, tint } from './text-style.js';
import { type Week, weekOfInstant, weekStarting } from './week.js';

// `schedule agenda` on a terminal: the agenda, a meeting chosen with the
// arrow keys, then canceled (a reason, then a confirmation whose enter says
// no) or moved to a free time picked on the slot grid `schedule book` uses
// (then a confirmation). After each change the agenda is read again and the
// result said on one line; q leaves the agenda drawn as `agenda` prints it.

/** A booking as a cancel or a reschedule answers it. */
export type ChangedBooking = BookingItem & { readonly version: number };

/** What the agenda needs from a backend: four calls, so the flow tests without one. */
export interface AgendaApi {
  /** The agenda's bookings as they are now. */
  bookings(): Promise<readonly BookingItem[]>;
  /** The free starts of the booking's event type in a week. */
  slots(booking: BookingItem, week: Week): Promise<readonly Slot[]>;
  cancel(booking: BookingItem, reason: string | undefined): Promise<ChangedBooking>;
  reschedule(booking: BookingItem, start: string): Promise<ChangedBooking>;
}

export interface AgendaAppProps {
  readonly api: AgendaApi;
  /** The bookings read before drawing, soonest first. */
  readonly bookings: readonly BookingItem[];
  readonly zone: string;
  readonly nowMs: number;
  readonly color: boolean;
  readonly span: number;
  readonly showHost: boolean;
  /** Called once q (or esc) leaves the agenda, after its last frame is drawn. */
  onDone(): void;
}

type Step =
  | { readonly name: 'browse' }
  | { readonly name: 'menu'; readonly booking: BookingItem }
  | { readonly name: 'reason'; readonly booking: BookingItem }
  | { readonly name: 'confirm-cancel'; readonly booking: BookingItem; readonly reason: string | undefined }
  | { readonly name: 'canceling'; readonly booking: BookingItem; readonly reason: string | undefined }
  | { readonly name: 'slot'; readonly booking: BookingItem }
  | { readonly name: 'confirm-move'; readonly booking: BookingItem; readonly slot: Slot }
  | { readonly name: 'moving'; readonly booking: BookingItem; readonly slot: Slot }
  | { readonly name: 'done' };

/** A line about the last change: what it did, or why it was refused. */
interface Notice {
  readonly ok: boolean;
  readonly text: string;
}

function refusal(error: unknown): Notice {
  if (error instanceof CliError) return { ok: false, text: `error ${error.code}: ${error.message}` };
  return { ok: false, text: `error internal_error: ${error instanceof Error ? error.message : String(error)}` };
}

/** The uid chosen after the list changed: the same booking if it is still there, else the one now at its place. */
function stillChosen(before: readonly BookingItem[], after: readonly BookingItem[], uid: string | undefined): string | undefined {
  if (after.some((b) => b.uid === uid)) return uid;
  const at = Math.max(
    0,
    before.findIndex((b) => b.uid === uid),
  );
  return after[Math.min(at, after.length - 1)]?.uid;
}

/** The agenda that takes actions. */
export function AgendaApp({ api, bookings: first, zone, nowMs, color, span, showHost, onDone }: AgendaAppProps): ReactNode {
  // The list and the meeting chosen in it change together when the list is read again.
  const [{ bookings, selected }, setList] = useState({ bookings: first, selected: first[0]?.uid });
  const setSelected = useCallback((uid: string) => setList((list) => ({ ...list, selected: uid })), []);
  const [step, setStep] = useState<Step>({ name: 'browse' });
  const [notice, setNotice] = useState<Notice | undefined>();
  const [thisWeek] = useState(() => weekOfInstant(nowMs, zone));
  const [week, setWeek] = useState<Week>(thisWeek);
  const [slots, setSlots] = useState<{ key: string; slots: readonly Slot[] } | undefined>();
  const { stdout } = useStdout();
  const today = localDate(nowMs, zone);
  const browse = useCallback(() => setStep({ name: 'browse' }), []);

  // A change done or refused: say so, read the agenda again, and go back to it.
  const settle = useCallback(
    (said: Notice) => {
      setNotice(said);
      api.bookings().then(
        (after) => {
          setList((list) => ({ bookings: after, selected: stillChosen(list.bookings, after, list.selected) }));
          setStep({ name: 'browse' });
        },
        (error: unknown) => {
          setNotice(refusal(error));
          setStep({ name: 'browse' });
        },
      );
    },
    [api],
  );

  useEffect(() => {
    if (step.name !== 'canceling') return;
    api.cancel(step.booking, step.reason).then(
      (done) => settle({ ok: true, text: canceledText(done, zone) }),
      (error: unknown) => settle(refusal(error)),
    );
  }, [api, step, settle, zone]);

  useEffect(() => {
    if (step.name !== 'moving') return;
    api.reschedule(step.booking, step.slot.start).then(
      (done) => settle({ ok: true, text: rescheduledText(done, zone) }),
      (error: unknown) => settle(refusal(error)),
    );
  }, [api, step, settle, zone]);

  const moving = step.name === 'slot' ? step.booking : undefined;
  const slotsKey = moving ? `${moving.uid} ${week.monday}` : undefined;
  useEffect(() => {
    if (!moving || !slotsKey) return;
    let current = true;
    api.slots(moving, week).then(
      (found) => current && setSlots({ key: slotsKey, slots: found }),
      (error: unknown) => current && settle(refusal(error)),
    );
    return () => {
      current = false;
    };
  }, [api, moving, week, slotsKey, settle]);

  // Reported after the final frame is committed, so it stays on screen.
  useEffect(() => {
    if (step.name === 'done') onDone();
  }, [step, onDone]);

  const days = groupByDay(bookings, zone);
  const view = { days, zone, color, today, span, showHost };
  const when = (b: BookingItem) => rangeText(b.start_at, b.end_at, zone);
  const reschedule = (booking: BookingItem) => {
    // The week the meeting is in: a meeting is most often moved a little.
    setWeek(weekStarting(weekOfInstant(Date.parse(booking.start_at), zone).monday, zone));
    setStep({ name: 'slot', booking });
  };
  switch (step.name) {
    case 'done':
      return h(AgendaView, view);
    case 'browse':
      return h(AgendaBrowser, {
        ...view,
        bookings,
        selected,
        notice,
        maxLines: stdout.rows ? Math.max(3, stdout.rows - 5) : undefined,
        onSelect: setSelected,
        onMenu: (booking) => setStep({ name: 'menu', booking }),
        onCancel: (booking) => setStep({ name: 'reason', booking }),
        onReschedule: reschedule,
        onQuit: () => setStep({ name: 'done' }),
      });
    case 'menu':
      return h(SelectList<'cancel' | 'reschedule' | 'back'>, {
        title: `${step.booking.title}, ${when(step.booking)}`,
        choices: [
          { label: 'Cancel it…', value: 'cancel' },
          { label: 'Reschedule it…', value: 'reschedule' },
          { label: 'Back to the agenda', value: 'back' },
        ],
        color,
        onSelect: (choice) =>
          choice === 'cancel'
            ? setStep({ name: 'reason', booking: step.booking })
            : choice === 'reschedule'
              ? reschedule(step.booking)
              : browse(),
        onCancel: browse,
      });
    case 'reason':
      return h(
        Box,
        { flexDirection: 'column' },
        h(Text, null, `Cancel ${step.booking.title}, ${when(step.booking)}`),
        h(TextPrompt, {
          label: 'Reason (optional, sent to the attendee):',
          color,
          validate: (text) => (text.length > 1024 ? 'At most 1024 characters.' : undefined),
          onSubmit: (reason) => setStep({ name: 'confirm-cancel', booking: step.booking, reason: reason || undefined }),
          onCancel: browse,
        }),
      );
    case 'confirm-cancel':
      return h(ConfirmPrompt, {
        question: `Cancel ${step.booking.title} on ${when(step.booking)}?`,
        color,
        enterSays: false,
        onAnswer: (yes) => (yes ? setStep({ name: 'canceling', booking: step.booking, reason: step.reason }) : browse()),
      });
    case 'canceling':
      return h(Spinner, { label: 'Canceling…' });
    case 'slot':
      return h(
        Box,
        { flexDirection: 'column' },
        h(Text, null, 'Move ', h(Text, tint(color, { bold: true }), step.booking.title), `, now ${when(step.booking)}, to:`),
        h(SlotGrid, {
          days: week.days,
          slots: slots?.key === slotsKey ? slots?.slots : undefined,
          zone,
          color,
          canGoBack: week.monday > thisWeek.monday,
          maxRows: stdout.rows ? Math.max(3, stdout.rows - 9) : undefined,
          pickWord: 'choose',
          onPick: (slot) => setStep({ name: 'confirm-move', booking: step.booking, slot }),
          onWeek: (delta) => setWeek(weekStarting(addDays(week.monday, 7 * delta), zone)),
          onCancel: browse,
        }),
      );
    case 'confirm-move':
      return h(ConfirmPrompt, {
        question: `Move ${step.booking.title} from ${instantText(step.booking.start_at, zone)} to ${rangeText(step.slot.start, step.slot.end, zone)}?`,
        color,
        onAnswer: (yes) => (yes ? setStep({ name: 'moving', booking: step.booking, slot: step.slot }) : browse()),
      });
    case 'moving':
      return h(Spinner, { label: 'Moving…' });
  }
}

interface AgendaBrowserProps {
  readonly days: ReturnType<typeof groupByDay>;
  readonly bookings: readonly BookingItem[];
  readonly zone: string;
  readonly color: boolean;
  readonly today: string;
  readonly span: number;
  readonly showHost: boolean;
  readonly selected: string | undefined;
  readonly notice: Notice | undefined;
  readonly maxLines: number | undefined;
  onSelect(uid: string): void;
  onMenu(booking: BookingItem): void;
  onCancel(booking: BookingItem): void;
  onReschedule(booking: BookingItem): void;
  onQuit(): void;
}

/** The agenda with one meeting chosen: ↑/↓ choose, enter a menu, c cancel, r reschedule, q quit. */
function AgendaBrowser(props: AgendaBrowserProps): ReactNode {
  const { days, bookings, selected, notice, color, onSelect, onMenu, onCancel, onReschedule, onQuit } = props;
  // In the order drawn: by day in the viewer's zone, then by start.
  const order = days.flatMap((day) => day.bookings);
  const index = Math.max(
    0,
    order.findIndex((b) => b.uid === selected),
  );
  const chosen = order[index];
  const once = useAnswerOnce();
  useKeys((input, key) => {
    if (key.escape || input === 'q') return once(onQuit);
    if (!chosen) return;
    if (key.upArrow) return onSelect(order[Math.max(0, index - 1)]!.uid);
    if (key.downArrow) return onSelect(order[Math.min(order.length - 1, index + 1)]!.uid);
    if (key.return) return once(() => onMenu(chosen));
    if (input === 'c') return once(() => onCancel(chosen));
    if (input === 'r') return once(() => onReschedule(chosen));
  });
  return h(
    Box,
    { flexDirection: 'column' },
    h(AgendaView, { ...props, selected: chosen?.uid }),
    notice ? h(Text, tint(color, { color: notice.ok ? 'green' : 'red' }), `${notice.ok ? '✓ ' : ''}${notice.text}`) : null,
    h(Text, tint(color, HINT), bookings.length === 0 ? 'q quit' : '↑/↓ choose  enter actions  c cancel  r reschedule  q quit'),
  );
}
