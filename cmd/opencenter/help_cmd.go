package main

import "github.com/alecthomas/kong"

// HelpCmd shows help, as --help does.
type HelpCmd struct {
	Command []string `arg:"" optional:"" name:"COMMAND" help:"The command (secrets set, say); none for opencenter's own help."`
}

// Help gives the examples.
func (HelpCmd) Help() string {
	return `Examples:

    opencenter help
    opencenter help render
    opencenter help secrets set`
}

// Run prints the help of the command named, as its --help does.
func (c *HelpCmd) Run(ctx *kong.Context) error {
	_, err := ctx.Kong.Parse(append(c.Command, "--help"))
	return err
}
