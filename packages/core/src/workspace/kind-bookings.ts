import { rescheduleReminders } from '../reminders/schedule-reminders.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { writeImportedBooking } from './workspace-writes.js';

// Imported bookings are data, not configuration: export leaves them out,
// and a booking the file does not name (every booking made through the
// API) is never listed or pruned. An entry is compared by the fingerprint
// of what the file wrote, exactly as the loader decides to write it again.

interface BookingColumns {
  readonly uid: string;
  readonly start_at: string;
  readonly attendee_email: string;
  readonly import_hash: string | null;
}

const bookingEntry = (row: BookingColumns): Entry => ({
  key: row.uid,
  label: `${row.uid} ${row.start_at} ${row.attendee_email}`,
  fields: { entry: row.import_hash },
});

export const bookingsKind: ResourceKind = {
  kind: 'booking',
  sections: ['bookings'],
  userRefs: [],
  fromFile({ bookingRows }) {
    return bookingRows.map((row, i) => ({
      ...bookingEntry(row),
      at: `bookings[${i}]`,
      write: async (trx, ctx) => {
        await writeImportedBooking(trx, row, ctx.now);
        // An imported booking is reminded like one booked here, from its type's rules as of now.
        await rescheduleReminders(trx, ctx.deps, row);
      },
    }));
  },
  async read(trx, _names, fileKeys) {
    // PostgreSQL refuses an empty `in ()`; without prune rule, a stored entry the file does not name is never read.
    // Stryker disable next-line ArrayDeclaration: as said, what is returned for a file of no bookings is not read
    if (fileKeys.size === 0) return [];
    const rows = await trx
      .selectFrom('bookings')
      .select(['uid', 'start_at', 'attendee_email', 'import_hash'])
      .where('uid', 'in', [...fileKeys])
      .execute();
    return rows.map(bookingEntry);
  },
};
