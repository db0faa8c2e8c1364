package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// CompletionCmd prints a shell completion script, made from the command
// line's own model: its commands, flags, enumerations, units and configs.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// Help says how to install the scripts.
func (CompletionCmd) Help() string {
	return `Examples:

    # bash, for this shell, then for every new one
    source <(opencenter completion bash)
    opencenter completion bash > ~/.local/share/bash-completion/completions/opencenter

    # zsh (a directory on $fpath)
    opencenter completion zsh > "${fpath[1]}/_opencenter"

    # fish
    opencenter completion fish > ~/.config/fish/completions/opencenter.fish`
}

// Run prints the script.
func (c *CompletionCmd) Run(ctx *kong.Context, s *Streams) error {
	cmds := commandsOf(ctx.Model.Node, nil)
	switch c.Shell {
	case "bash":
		fmt.Fprint(s.Out, bashCompletion(cmds))
	case "zsh":
		fmt.Fprint(s.Out, "#compdef opencenter\n# zsh completion for opencenter: the bash completion, through bashcompinit.\nautoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(cmds))
	case "fish":
		fmt.Fprint(s.Out, fishCompletion(cmds))
	}
	return nil
}

// completedCommand is a command of the model as completion sees it.
type completedCommand struct {
	path  []string // the words after opencenter that name it
	help  string
	flags []completedFlag
	// subs are its subcommands' names; args what its positional
	// arguments take: "units", "configs" or the words of an enum.
	subs []string
	args []string
}

type completedFlag struct {
	name, help string
	short      rune
	values     []string // an enumeration's, or nil
	takesValue bool
	files      bool // a path
}

// commandsOf lists node's commands, depth first, node itself first.
func commandsOf(node *kong.Node, path []string) []completedCommand {
	c := completedCommand{path: path, help: node.Help}
	for _, f := range node.AllFlags(true) {
		for _, flag := range f {
			if flag.Hidden {
				continue
			}
			cf := completedFlag{name: flag.Name, help: flag.Help, short: flag.Short, takesValue: !flag.IsBool()}
			if enum := flag.Enum; enum != "" {
				cf.values = strings.Split(enum, ",")
			}
			cf.files = flag.Name == "config" || flag.Name == "repo" || flag.Name == "base"
			c.flags = append(c.flags, cf)
		}
	}
	for _, p := range node.Positional {
		switch {
		case p.Enum != "":
			c.args = strings.Split(p.Enum, ",")
		case p.Name == "UNIT":
			c.args = append(c.args, generated.UnitNames...)
		case p.Name == "CONFIG":
			c.args = []string{"@configs"}
		}
	}
	out := []completedCommand{c}
	for _, child := range node.Children {
		if child.Hidden {
			continue
		}
		out[0].subs = append(out[0].subs, child.Name)
		out = append(out, commandsOf(child, append(slices.Clip(path), child.Name))...)
	}
	return out
}

// bashCompletion is the bash script: the command path is read from the
// words typed, then its subcommands, flags, or arguments are offered.
func bashCompletion(cmds []completedCommand) string {
	var b strings.Builder
	b.WriteString(`# bash completion for opencenter (opencenter completion bash)
_opencenter() {
    local cur prev path="" i w words=""
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${COMP_WORDS[i]}"
        case "$path/$w" in
`)
	var known []string
	for _, c := range cmds[1:] {
		known = append(known, "/"+strings.Join(c.path, "/"))
	}
	fmt.Fprintf(&b, "            %s) path=\"$path/$w\" ;;\n", strings.Join(known, "|"))
	b.WriteString("        esac\n    done\n")
	// A flag's values.
	b.WriteString("    case \"$path:$prev\" in\n")
	for _, c := range cmds {
		for _, f := range c.flags {
			if !f.takesValue {
				continue
			}
			key := "/" + strings.Join(c.path, "/")
			if len(c.path) == 0 {
				key = ""
			}
			switch {
			case len(f.values) > 0:
				fmt.Fprintf(&b, "        %q) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", key+":--"+f.name, strings.Join(f.values, " "))
			case f.files:
				fmt.Fprintf(&b, "        %q) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", key+":--"+f.name)
			default:
				fmt.Fprintf(&b, "        %q) return ;;\n", key+":--"+f.name)
			}
		}
	}
	b.WriteString("    esac\n    case \"$path\" in\n")
	for _, c := range cmds {
		key := "/" + strings.Join(c.path, "/")
		if len(c.path) == 0 {
			key = ""
		}
		var flags []string
		for _, f := range c.flags {
			flags = append(flags, "--"+f.name)
			if f.short != 0 {
				flags = append(flags, "-"+string(f.short))
			}
		}
		words := slices.Concat(c.subs, c.args)
		configs := slices.Contains(words, "@configs")
		words = slices.DeleteFunc(words, func(s string) bool { return s == "@configs" })
		fmt.Fprintf(&b, "        %q)\n            words=%q\n", key, strings.Join(words, " "))
		fmt.Fprintf(&b, "            if [[ \"$cur\" == -* ]]; then words=%q; fi\n", strings.Join(flags, " "))
		if configs {
			b.WriteString("            if [[ \"$cur\" != -* ]]; then COMPREPLY=($(compgen -f -X '!*-config.yaml' -- \"$cur\")); fi\n")
		}
		b.WriteString("            ;;\n")
	}
	b.WriteString(`    esac
    COMPREPLY+=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _opencenter opencenter
`)
	return b.String()
}

// fishCompletion is the fish script: a line per command, flag and value,
// each offered once its command path has been typed.
func fishCompletion(cmds []completedCommand) string {
	var b strings.Builder
	b.WriteString("# fish completion for opencenter (opencenter completion fish)\ncomplete -c opencenter -f\n")
	for _, c := range cmds {
		cond := "__fish_use_subcommand"
		if len(c.path) > 0 {
			var parts []string
			for _, w := range c.path {
				parts = append(parts, "__fish_seen_subcommand_from "+w)
			}
			cond = strings.Join(parts, "; and ")
			if len(c.subs) > 0 {
				cond += "; and not __fish_seen_subcommand_from " + strings.Join(c.subs, " ")
			}
		}
		for _, sub := range c.subs {
			help := ""
			for _, d := range cmds {
				if len(d.path) == len(c.path)+1 && d.path[len(d.path)-1] == sub && slices.Equal(d.path[:len(c.path)], c.path) {
					help = d.help
				}
			}
			fmt.Fprintf(&b, "complete -c opencenter -n %q -a %s -d %q\n", cond, sub, strings.TrimSuffix(firstSentence(help), "."))
		}
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c opencenter -n %q -l %s", cond, f.name)
			if f.short != 0 {
				line += " -s " + string(f.short)
			}
			if f.takesValue {
				line += " -r"
			}
			if len(f.values) > 0 {
				line += fmt.Sprintf(" -a %q", strings.Join(f.values, " "))
			} else if f.files {
				line += " -F"
			}
			fmt.Fprintf(&b, "%s -d %q\n", line, strings.TrimSuffix(firstSentence(f.help), "."))
		}
		for _, a := range c.args {
			if a == "@configs" {
				fmt.Fprintf(&b, "complete -c opencenter -n %q -F\n", cond)
				continue
			}
			fmt.Fprintf(&b, "complete -c opencenter -n %q -a %s\n", cond, a)
		}
	}
	return b.String()
}
