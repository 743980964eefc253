import type { Command, Option } from 'commander';
import { commandPath } from './kit';

/** One command of the tree, as completion sees it. */
interface Node {
  path: string;
  commands: Array<{ name: string; description: string }>;
  options: Array<{ flag: string; description: string }>;
}

function walk(cmd: Command, into: Node[]): void {
  const visible = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
  into.push({
    path: commandPath(cmd),
    commands: visible.map((c) => ({ name: c.name(), description: c.description() })),
    options: [...cmd.options.flatMap((o) => (o.long && !o.hidden ? [{ flag: o.long, description: o.description }] : [])), { flag: '--help', description: 'show help' }],
  });
  for (const c of visible) walk(c, into);
}

function optionsOf(cmd: Command, into: Array<{ path: string; option: Option }>): Array<{ path: string; option: Option }> {
  into.push(...cmd.options.map((option) => ({ path: commandPath(cmd), option })));
  for (const c of cmd.commands) optionsOf(c, into);
  return into;
}

/** One option's values, for the command at `path`; `*` for the program's own options, which every command takes. */
interface Choice {
  path: string;
  flags: string[];
  values: readonly string[];
}

/**
 * The flags that take a value, long and short (their value is skipped when finding the command), and the values of
 * those that have them, per command: two commands' `--status` may take different values. The program's options
 * (every command has a hidden copy) are listed once, for any command.
 */
function valueFlags(program: Command): { flags: string[]; choices: Choice[] } {
  const flags = new Set<string>();
  const choices: Choice[] = [];
  const global = new Set(program.options.map((o) => o.long));
  for (const { path, option: o } of optionsOf(program, [])) {
    if (!o.long || !(o.required || o.optional)) continue;
    const names = [o.long, ...(o.short ? [o.short] : [])];
    names.forEach((n) => flags.add(n));
    const values = o.argChoices;
    if (!values) continue;
    if (path === '') choices.push({ path: '*', flags: names, values });
    else if (!(o.hidden && global.has(o.long))) choices.push({ path, flags: names, values });
  }
  // A command's own option first: the program's `*` entries are the fallback.
  choices.sort((a, b) => Number(a.path === '*') - Number(b.path === '*'));
  return { flags: [...flags].sort(), choices };
}

/** The `case` patterns of a choice: `'requests list|--status'`, or `*'|--output'|*'|-o'` for any command. */
function choicePatterns(c: Choice): string {
  return c.flags.map((f) => (c.path === '*' ? `*${quote(`|${f}`)}` : quote(`${c.path}|${f}`))).join('|');
}

/** The first clause of a description, for zsh's listing. */
function short(description: string): string {
  return description.replace(/\s*\(.*$/, '').replace(/[:;].*$/, '');
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function bashCompletion(program: Command): string {
  const nodes: Node[] = [];
  walk(program, nodes);
  const { flags, choices } = valueFlags(program);
  const cases = (pick: (n: Node) => string[]) =>
    nodes
      .map((n) => ({ path: n.path, words: pick(n) }))
      .filter((c) => c.words.length > 0)
      .map((c) => `    ${quote(c.path)}) echo ${quote(c.words.join(' '))} ;;`)
      .join('\n');
  return `# bash completion for dsar. Load it with: source <(dsar completion bash)
# or install it: dsar completion bash > /etc/bash_completion.d/dsar
_dsar_commands() {
  case "$1" in
${cases((n) => n.commands.map((c) => c.name))}
  esac
}
_dsar_options() {
  case "$1" in
${cases((n) => n.options.map((o) => o.flag))}
  esac
}
_dsar_choices() {
  case "$1|$2" in
${choices.map((c) => `    ${choicePatterns(c)}) echo ${quote(c.values.join(' '))} ;;`).join('\n')}
  esac
}
_dsar_value_options=${quote(` ${flags.join(' ')} `)}
_dsar() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmdpath="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      [[ $_dsar_value_options == *" $word "* ]] && ((i++))
      continue
    fi
    [[ " $(_dsar_commands "$cmdpath") " == *" $word "* ]] && cmdpath="\${cmdpath:+$cmdpath }$word"
  done
  if [[ $_dsar_value_options == *" $prev "* ]]; then
    local choices
    choices=$(_dsar_choices "$cmdpath" "$prev")
    if [[ -n $choices ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
    else
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
  elif [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_dsar_options "$cmdpath") $([[ -n $cmdpath ]] && _dsar_options "")" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -W "$(_dsar_commands "$cmdpath")" -- "$cur")
  fi
}
complete -o default -F _dsar dsar
`;
}

export function zshCompletion(program: Command): string {
  const nodes: Node[] = [];
  walk(program, nodes);
  const { flags, choices } = valueFlags(program);
  const described = (items: Array<{ name: string; description: string }>) => items.map((i) => quote(`${i.name.replace(/:/g, '\\:')}:${short(i.description)}`)).join(' ');
  const cases = (pick: (n: Node) => Array<{ name: string; description: string }>) =>
    nodes
      .map((n) => ({ path: n.path, items: pick(n) }))
      .filter((c) => c.items.length > 0)
      .map((c) => `    ${quote(c.path)}) reply=(${described(c.items)}) ;;`)
      .join('\n');
  return `#compdef dsar
# zsh completion for dsar. Load it with: source <(dsar completion zsh)
# or install it as _dsar in a directory of $fpath: dsar completion zsh > "\${fpath[1]}/_dsar"
_dsar_commands() {
  reply=()
  case "$1" in
${cases((n) => n.commands)}
  esac
}
_dsar_options() {
  reply=()
  case "$1" in
${cases((n) => n.options.map((o) => ({ name: o.flag, description: o.description })))}
  esac
}
_dsar_choices() {
  reply=()
  case "$1|$2" in
${choices.map((c) => `    ${choicePatterns(c)}) reply=(${c.values.map(quote).join(' ')}) ;;`).join('\n')}
  esac
}
_dsar_value_options=(${flags.join(' ')})
_dsar() {
  local cmdpath="" word prev i
  local -a reply found
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      (( \${_dsar_value_options[(Ie)$word]} )) && ((i++))
      continue
    fi
    _dsar_commands "$cmdpath"
    (( \${reply[(I)$word:*]} )) && cmdpath="\${cmdpath:+$cmdpath }$word"
  done
  prev=\${words[CURRENT-1]}
  if (( \${_dsar_value_options[(Ie)$prev]} )); then
    _dsar_choices "$cmdpath" "$prev"
    if (( \${#reply} )); then compadd -a reply; else _files; fi
  elif [[ \${words[CURRENT]} == -* ]]; then
    _dsar_options "$cmdpath"; found=($reply)
    [[ -n $cmdpath ]] && { _dsar_options ""; found+=($reply); }
    _describe -t options 'option' found
  else
    _dsar_commands "$cmdpath"; found=($reply)
    _describe -t commands 'dsar command' found
  fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _dsar "$@"
else
  compdef _dsar dsar
fi
`;
}
