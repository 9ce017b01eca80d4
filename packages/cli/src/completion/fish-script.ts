import type { CommandNode } from './command-tree.js';

// In fish's single quotes only the backslash and the quote itself are special.
const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function switchFunction(name: string, nodes: readonly CommandNode[], words: (node: CommandNode) => readonly string[]): string {
  const arms = nodes
    .map((node) => ({ path: node.path, words: [...new Set(words(node))] }))
    .filter((arm) => arm.words.length > 0)
    .flatMap((arm) => [`        case ${quote(arm.path)}`, `            echo ${quote(arm.words.join(' '))}`]);
  return [`function ${name}`, '    switch "$argv[1]"', ...arms, '    end', 'end'].join('\n');
}

function flagLine(node: CommandNode, flag: CommandNode['flags'][number]): string {
  const name = flag.flag.startsWith('--') ? `-l ${flag.flag.slice(2)}` : `-s ${flag.flag.slice(1)}`;
  const value = !flag.takesValue
    ? ''
    : flag.valueKind === 'file'
      ? ' -r -F'
      : flag.valueKind === 'zone'
        ? " -x -a '(__schedule_zones)'"
        : ' -x';
  return `complete -c schedule -n ${quote(`__schedule_at ${quote(node.path)}`)} ${name}${value} -d ${quote(flag.description)}`;
}

/**
 * The fish completion script: `__schedule_path` walks the words typed so
 * far as bash-script.ts does; each subcommand and flag is one `complete`
 * line conditioned on that path, with its description.
 */
export function fishScript(nodes: readonly CommandNode[], zones: readonly string[]): string {
  const words = nodes.flatMap((node) =>
    node.next.map(
      (entry) =>
        `complete -c schedule -n ${quote(`__schedule_at ${quote(node.path)}`)} -a ${quote(entry.word)}${entry.description ? ` -d ${quote(entry.description)}` : ''}`,
    ),
  );
  const flags = nodes.flatMap((node) => node.flags.map((flag) => flagLine(node, flag)));
  return `# fish completion for schedule.
# Load it in this shell:   schedule completion fish | source
# or for every new shell:  schedule completion fish > ~/.config/fish/completions/schedule.fish

${switchFunction('__schedule_next', nodes, (n) => n.next.map((e) => e.word))}

${switchFunction('__schedule_value_flags', nodes, (n) => n.flags.filter((f) => f.takesValue).map((f) => f.flag))}

function __schedule_zones
    string split ' ' -- ${quote(zones.join(' '))}
end

function __schedule_path
    set -l cmdpath ''
    set -l previous ''
    set -l typed (commandline -opc)
    set -e typed[1]
    for word in $typed
        if not string match -q -- '-*' $word
            and not contains -- $previous (string split ' ' -- (__schedule_value_flags "$cmdpath"))
            and contains -- $word (string split ' ' -- (__schedule_next "$cmdpath"))
            set cmdpath (string trim -- "$cmdpath $word")
        end
        set previous $word
    end
    echo $cmdpath
end

function __schedule_at
    set -l cmdpath (__schedule_path)
    test "$cmdpath" = "$argv[1]"
end

complete -c schedule -f
${words.join('\n')}
${flags.join('\n')}
`;
}
