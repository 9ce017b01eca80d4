import { DEFAULT_LIMITS, type Limits, limitsSchema } from '../rate-limit/limits.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { upsertChanged } from './workspace-writes.js';

// The organization: one entry whose fields come from three sections of the
// file (`organization`, `attendee_mail`, `limits`), each managed only when
// the file has it. A database without the row has the defaults, which is
// what every reader of the row assumes when it is missing.

const KEY = 'organization';
const LIMIT_FIELD = 'limits.';

const limitFields = (limits: Limits) => Object.fromEntries(Object.entries(limits).map(([name, value]) => [`${LIMIT_FIELD}${name}`, value]));

function limitsOf(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => name.startsWith(LIMIT_FIELD))
      .map(([name, value]) => [name.slice(LIMIT_FIELD.length), value]),
  );
}

export const organizationKind: ResourceKind = {
  kind: 'organization',
  sections: ['organization', 'attendee_mail', 'limits'],
  userRefs: [],
  fromFile({ declared: { workspace, sections } }) {
    const fields: Record<string, unknown> = {
      ...(sections.has('organization') && { name: workspace.organization.name }),
      ...(sections.has('attendee_mail') && { attendee_mail: workspace.attendee_mail }),
      ...(sections.has('limits') && workspace.limits && limitFields(workspace.limits)),
    };
    return [
      {
        at: KEY,
        key: KEY,
        label: KEY,
        fields,
        async write(trx, ctx) {
          // Only the fields the file has; the others keep what is stored.
          const [stored] = await organizationKind.read(trx, new Map(), new Set());
          const merged = { ...stored!.fields, ...fields };
          const row = {
            name: String(merged.name),
            limits_json: JSON.stringify(limitsOf(merged)),
            attendee_mail: merged.attendee_mail ? 1 : 0,
          };
          await upsertChanged(trx, 'organization', 1, row, ctx.now);
        },
      },
    ];
  },
  async read(trx) {
    const row = await trx.selectFrom('organization').selectAll().where('id', '=', 1).executeTakeFirst();
    const limits = row ? limitsSchema.parse(JSON.parse(row.limits_json)) : DEFAULT_LIMITS;
    const entry: Entry = {
      key: KEY,
      label: KEY,
      fields: { name: row?.name ?? 'Workspace', attendee_mail: row ? row.attendee_mail !== 0 : true, ...limitFields(limits) },
    };
    return [entry];
  },
  // `read` gives the one entry, the defaults when the row is missing.
  exportAs([fields]) {
    return { organization: { name: fields!.name }, attendee_mail: fields!.attendee_mail, limits: limitsOf(fields!) };
  },
};
