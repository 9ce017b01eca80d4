import type { CommandNode } from './command-tree.js';

// Pieces bash and zsh scripts share: both read `case` statements alike.

/** A shell function printing a space-separated word list for the command path in `$1`. */
export function pathCaseFunction(name: string, nodes: readonly CommandNode[], words: (node: CommandNode) => readonly string[]): string {
  const arms = nodes
    .map((node) => ({ path: node.path, words: [...new Set(words(node))] }))
    .filter((arm) => arm.words.length > 0)
    .map((arm) => `    '${arm.path}') echo '${arm.words.join(' ')}' ;;`);
  return [`${name}() {`, '  case "$1" in', ...arms, '  esac', '}'].join('\n');
}

/** The helpers both scripts define: what may follow each path, its flags, and which flags take a value. */
export function sharedFunctions(nodes: readonly CommandNode[], zones: readonly string[]): string {
  return [
    pathCaseFunction('__schedule_next', nodes, (n) => n.next.map((e) => e.word)),
    pathCaseFunction('__schedule_flags', nodes, (n) => n.flags.map((f) => f.flag)),
    pathCaseFunction('__schedule_value_flags', nodes, (n) => n.flags.filter((f) => f.takesValue).map((f) => f.flag)),
    `__schedule_zones='${zones.join(' ')}'`,
  ].join('\n\n');
}

/** The flags of a kind across the program, as a `case` pattern (`--db|--workspace`). */
export function flagPattern(nodes: readonly CommandNode[], kind: 'file' | 'zone'): string {
  const flags = new Set(nodes.flatMap((n) => n.flags.filter((f) => f.valueKind === kind).map((f) => f.flag)));
  return [...flags].join('|');
}
