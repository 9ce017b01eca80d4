import {
  consumeRecord,
  destroyRecord,
  findRecord,
  findRecordByUid,
  type RecordDeps,
  type RecordPayload,
  revokeGrantRecords,
  upsertRecord,
} from '@schedule/core';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * oidc-provider's storage interface over core's oauth_records table, so
 * the authorization server keeps its state in the same SQLite or PostgreSQL
 * database as everything else, shared by every process. One instance per
 * model (the library makes them).
 */
export function recordAdapter(deps: RecordDeps): new (model: string) => Adapter {
  return class RecordAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await upsertRecord(deps, this.model, id, payload as RecordPayload, expiresIn || undefined);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await findRecord(deps, this.model, id)) as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await findRecordByUid(deps, this.model, uid)) as AdapterPayload | undefined;
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      // The device flow is off: there are no user codes.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await consumeRecord(deps, this.model, id);
    }

    async destroy(id: string): Promise<void> {
      await destroyRecord(deps, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrantRecords(deps.db, grantId);
    }
  };
}
