// The text beside list_slots' structured answer. The answer itself is the
// API's `data`, one object per slot with two full timestamps: about 6.8 KB
// for a typical week, 32 KB for 31 days. A model needs the start times, by
// day, in the zone it talks to people in, and the offset to book one with;
// that fits in one line per day.

type Slot = { readonly start: string; readonly end: string };

/** What list_slots answers (core's slotListSchema), as far as the text needs it. */
export interface SlotList {
  readonly event_type_id: string;
  readonly timezone: string;
  readonly slots: readonly Slot[];
}

interface WallClock {
  /** `Mon 2026-03-02` */
  readonly day: string;
  /** `09:30` */
  readonly time: string;
  /** `Z` in UTC, else `+01:00`. */
  readonly offset: string;
}

function wallClockIn(zone: string): (instant: string) => WallClock {
  const utc = zone === 'UTC' || zone === 'Etc/UTC';
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return (instant) => {
    const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
    // `GMT+01:00`, and `GMT` or `GMT+00:00` at zero.
    const offset = (part.timeZoneName ?? '').replace(/^GMT/, '') || '+00:00';
    return {
      day: `${part.weekday} ${part.year}-${part.month}-${part.day}`,
      time: `${part.hour}:${part.minute}`,
      offset: utc ? 'Z' : offset,
    };
  };
}

/** The zone's reader, or UTC's for a zone this runtime's Intl does not know. */
function readerFor(zone: string): { zone: string; read: (instant: string) => WallClock } {
  try {
    return { zone, read: wallClockIn(zone) };
  } catch {
    return { zone: 'UTC', read: wallClockIn('UTC') };
  }
}

/**
 * One line per day with a free slot, in the answer's zone: `Mon 2026-03-02
 * (UTC): 09:00 09:30 …`, the day's offset in brackets (a time whose offset
 * differs, across a DST change, carries its own). A header says how to turn
 * a time into a `start` that create_booking takes.
 */
export function slotsAsText(list: SlotList): string {
  const first = list.slots[0];
  if (!first) return `No free slots for event type ${list.event_type_id} in this window.`;
  const { zone, read } = readerFor(list.timezone);
  const minutes = Math.round((Date.parse(first.end) - Date.parse(first.start)) / 60_000);
  const days = new Map<string, { offset: string; times: string[] }>();
  for (const slot of list.slots) {
    const at = read(slot.start);
    const day = days.get(at.day) ?? { offset: at.offset, times: [] };
    day.times.push(at.offset === day.offset ? at.time : `${at.time}${at.offset}`);
    days.set(at.day, day);
  }
  const example = read(first.start);
  const [, date] = example.day.split(' ');
  const header =
    `${list.slots.length} free ${minutes}-minute slots for event type ${list.event_type_id} on ${days.size} day(s), ` +
    `start times in ${zone}; days not listed have none. ` +
    `Book one with start = date, time and offset, e.g. ${date}T${example.time}:00${example.offset}.`;
  const label = (offset: string) => (offset === 'Z' ? 'UTC' : offset);
  return [header, ...[...days].map(([day, { offset, times }]) => `${day} (${label(offset)}): ${times.join(' ')}`)].join('\n');
}
