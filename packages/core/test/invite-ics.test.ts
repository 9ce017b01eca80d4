import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, type InviteEvent, inviteCalendar, paramValue, utcDateTime } from '../src/notifications/invite-ics.js';

// The iCalendar writer of the invites (RFC 5545): escaping, folding, and
// whole calendars, each checked against ical.js as an independent reader.

const octets = (text: string) => Buffer.byteLength(text, 'utf8');
const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('escapeText', () => {
  it('escapes backslash, semicolon and comma, and writes every kind of line break as \\n', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('leaves everything else, colons and quotes included, as it is', () => {
    expect(escapeText('Meet: "Q3" plan – ünïcödé')).toBe('Meet: "Q3" plan – ünïcödé');
  });
});

describe('paramValue', () => {
  it('is bare when it can be, quoted when it holds a colon, semicolon or comma', () => {
    expect(paramValue('Hana Host')).toBe('Hana Host');
    expect(paramValue('Host, Hana')).toBe('"Host, Hana"');
    expect(paramValue('a:b')).toBe('"a:b"');
    expect(paramValue('a;b')).toBe('"a;b"');
  });

  it('replaces what a parameter can never hold: double quotes and control characters', () => {
    expect(paramValue('Say "hi"')).toBe("Say 'hi'");
    expect(paramValue('two\r\nlines\tand tab')).toBe('two  lines and tab');
  });
});

describe('foldLine', () => {
  it('leaves a line of 75 octets whole and folds one of 76 after the 75th', () => {
    const line75 = `SUMMARY:${'x'.repeat(67)}`;
    expect(octets(line75)).toBe(75);
    expect(foldLine(line75)).toBe(line75);
    expect(foldLine(`${line75}y`)).toBe(`${line75}\r\n y`);
  });

  it('folds a long line into pieces of at most 75 octets, the leading space counted, that unfold to the line', () => {
    const line = `DESCRIPTION:${'abcdefghij'.repeat(30)}`;
    const pieces = foldLine(line).split('\r\n');
    expect(pieces.map(octets)).toEqual([75, 75, 75, 75, 16]);
    expect(pieces.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    expect(unfold(foldLine(line))).toBe(line);
  });

  it('never cuts inside a character: two-, three- and four-octet characters stay whole', () => {
    for (const char of ['é', '€', '😀']) {
      const line = `SUMMARY:${char.repeat(100)}`;
      const pieces = foldLine(line).split('\r\n');
      for (const piece of pieces) {
        expect(octets(piece)).toBeLessThanOrEqual(75);
        // Decoding the piece's own bytes gives the piece back: no character was split.
        expect(Buffer.from(piece, 'utf8').toString('utf8')).toBe(piece);
        expect(piece.replace(/^ /, '').replace(/^SUMMARY:/, '')).toMatch(new RegExp(`^(${char})+$`, 'u'));
      }
      expect(unfold(foldLine(line))).toBe(line);
    }
  });
});

describe('utcDateTime', () => {
  it('writes an instant as a UTC DATE-TIME', () => {
    expect(utcDateTime('2026-03-29T00:30:00.000Z')).toBe('20260329T003000Z');
    expect(utcDateTime('2026-12-31T23:59:59Z')).toBe('20261231T235959Z');
  });
});

const EVENT: InviteEvent = {
  uid: 'b1@schedule',
  sequence: 2,
  start: '2026-10-25T00:30:00.000Z',
  end: '2026-10-25T01:30:00.000Z',
  stamp: '2026-03-20T08:15:00.000Z',
  summary: 'Meet between Hana Host and Bob Guest',
  location: 'https://meet.test/b1',
  url: 'https://meet.test/b1',
  status: 'CONFIRMED',
  organizer: { email: 'hana@host.test', name: 'Hana Host' },
  attendees: [
    { email: 'bob@guest.test', name: 'Bob Guest', partstat: 'ACCEPTED' },
    { email: 'gail@guest.test', partstat: 'NEEDS-ACTION' },
  ],
};

describe('inviteCalendar', () => {
  it('writes METHOD and one VEVENT per meeting, every line ended by CRLF', () => {
    expect(inviteCalendar('REQUEST', EVENT)).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//schedule//schedule//EN',
        'CALSCALE:GREGORIAN',
        'METHOD:REQUEST',
        'BEGIN:VEVENT',
        'UID:b1@schedule',
        'SEQUENCE:2',
        'DTSTAMP:20260320T081500Z',
        'DTSTART:20261025T003000Z',
        'DTEND:20261025T013000Z',
        'SUMMARY:Meet between Hana Host and Bob Guest',
        'LOCATION:https://meet.test/b1',
        'URL:https://meet.test/b1',
        'STATUS:CONFIRMED',
        'TRANSP:OPAQUE',
        'ORGANIZER;CN=Hana Host:mailto:hana@host.test',
        // Folded after exactly 75 octets.
        'ATTENDEE;CN=Bob Guest;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mai',
        ' lto:bob@guest.test',
        'ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:gail@',
        ' guest.test',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
  });

  it('reads back through ical.js exactly as written: text with every special character, names with commas, instants', () => {
    const summary = 'Plan; review, then \\ ship\nsecond line – ünïcödé '.repeat(4);
    const text = inviteCalendar('CANCEL', {
      ...EVENT,
      summary,
      status: 'CANCELLED',
      location: null,
      url: null,
      organizer: { email: 'hana@host.test', name: 'Host, Hana "HH"' },
    });
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    // One iTIP message, one calendar object (issue 30 item 8).
    const [first, ...more] = calendar.getAllSubcomponents('vevent');
    expect(more).toEqual([]);
    expect(first!.getFirstPropertyValue('summary')).toBe(summary);
    expect(first!.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(first!.getFirstProperty('organizer')!.getParameter('cn')).toBe("Host, Hana 'HH'");
    expect(first!.getAllProperties('attendee').map((p) => [p.getFirstValue(), p.getParameter('partstat')])).toEqual([
      ['mailto:bob@guest.test', 'ACCEPTED'],
      ['mailto:gail@guest.test', 'NEEDS-ACTION'],
    ]);
    expect(first!.getFirstPropertyValue('location')).toBeNull();
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
  });
});
