import type { CommandNode } from './command-tree.js';
import { flagPattern, sharedFunctions } from './shell-case.js';

/**
 * The bash completion script. `_schedule` walks the words typed so far to
 * find the command (skipping flags and their values), then offers that
 * command's flags after a `-`, else its subcommands; after a flag that
 * takes a file or a zone, files or zone names.
 */
export function bashScript(nodes: readonly CommandNode[], zones: readonly string[]): string {
  return `# bash completion for schedule.
# Load it in this shell:   source <(schedule completion bash)
# or for every new shell:  schedule completion bash > ~/.local/share/bash-completion/completions/schedule

${sharedFunctions(nodes, zones)}

_schedule() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath='' word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ $word == -* ]] && continue
    [[ " $(__schedule_value_flags "$cmdpath") " == *" \${COMP_WORDS[i-1]} "* ]] && continue
    [[ " $(__schedule_next "$cmdpath") " == *" $word "* ]] && cmdpath="\${cmdpath:+$cmdpath }$word"
  done
  if [[ $prev == -* && " $(__schedule_value_flags "$cmdpath") " == *" $prev "* ]]; then
    case "$prev" in
      ${flagPattern(nodes, 'file')}) COMPREPLY=($(compgen -f -- "$cur")) ;;
      ${flagPattern(nodes, 'zone')}) COMPREPLY=($(compgen -W "$__schedule_zones" -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(__schedule_flags "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(__schedule_next "$cmdpath")" -- "$cur"))
  fi
}

complete -F _schedule schedule
`;
}
