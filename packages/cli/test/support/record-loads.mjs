// Preloaded with `node --import`: every module Node loads through its ES
// module loader (our bundle's chunks, and any package imported from ES code,
// such as react's entry) is logged, one URL a line, to the file $LOAD_LOG.
import { register } from 'node:module';

register(new URL('./load-hooks.mjs', import.meta.url));
