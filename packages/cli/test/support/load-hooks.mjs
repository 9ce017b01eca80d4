// Module customization hooks (run on the loader's own thread): see record-loads.mjs.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.LOAD_LOG) appendFileSync(process.env.LOAD_LOG, `${url}\n`);
  return nextLoad(url, context);
}
