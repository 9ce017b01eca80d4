import { afterAll } from 'vitest';
import { removeTempDirs } from './support/serve.js';

// After each test file: its servers have stopped, so their files can go.
afterAll(removeTempDirs);
