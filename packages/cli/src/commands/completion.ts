import { Argument, type Command } from 'commander';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** `schedule completion bash|zsh|fish`: prints a completion script for this binary's commands and flags. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, subcommands, flags) for bash, zsh or fish.')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  schedule completion bash > ~/.local/share/bash-completion/completions/schedule',
        '  source <(schedule completion zsh)',
        '  schedule completion fish > ~/.config/fish/completions/schedule.fish',
      ].join('\n'),
    )
    .action(async (shell: Shell, _, command: Command) => {
      // The scripts are made from the program itself, so they always match this binary.
      const [{ commandTree, zoneNames }, script] = await Promise.all([import('../completion/command-tree.js'), scriptOf(shell)]);
      process.stdout.write(script(commandTree(command.parent!), zoneNames()));
    });
}

async function scriptOf(shell: Shell) {
  switch (shell) {
    case 'bash':
      return (await import('../completion/bash-script.js')).bashScript;
    case 'zsh':
      return (await import('../completion/zsh-script.js')).zshScript;
    case 'fish':
      return (await import('../completion/fish-script.js')).fishScript;
  }
}
