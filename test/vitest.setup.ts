import { afterAll } from 'vitest';
import { recordContractCounts } from './support/openapi-contract.js';
import { removeTempDirs } from './support/serve.js';

// After each test file: its servers have stopped, so their files can go.
afterAll(removeTempDirs);
// After each test file: how many answers it checked against docs/openapi.json.
afterAll(recordContractCounts);
