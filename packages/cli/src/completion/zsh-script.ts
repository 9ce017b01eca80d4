import type { CommandNode } from './command-tree.js';
import { flagPattern, sharedFunctions } from './shell-case.js';

/**
 * The zsh completion script: the walk of bash-script.ts over `words`, and
 * `compadd`. It works sourced (after compinit) or saved as `_schedule` on
 * $fpath, where zsh runs the file as the completion function.
 */
export function zshScript(nodes: readonly CommandNode[], zones: readonly string[]): string {
  return `#compdef schedule
# zsh completion for schedule.
# Load it in this shell (after compinit):  source <(schedule completion zsh)
# or for every new shell:                  schedule completion zsh > "\${fpath[1]}/_schedule"

${sharedFunctions(nodes, zones)}

_schedule() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} cmdpath='' word i
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    [[ $word == -* ]] && continue
    [[ " $(__schedule_value_flags "$cmdpath") " == *" \${words[i-1]} "* ]] && continue
    [[ " $(__schedule_next "$cmdpath") " == *" $word "* ]] && cmdpath="\${cmdpath:+$cmdpath }$word"
  done
  if [[ $prev == -* && " $(__schedule_value_flags "$cmdpath") " == *" $prev "* ]]; then
    case $prev in
      ${flagPattern(nodes, 'file')}) _files ;;
      ${flagPattern(nodes, 'zone')}) compadd -- \${=__schedule_zones} ;;
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    compadd -- $(__schedule_flags "$cmdpath")
  else
    compadd -- $(__schedule_next "$cmdpath")
  fi
}

# Sourced: register. Autoloaded from $fpath: zsh is already running this file as _schedule, so complete now.
if [[ \${funcstack[1]} == _schedule ]]; then
  _schedule "$@"
else
  compdef _schedule schedule
fi
`;
}
