// Command opencenter turns typed cluster configs (.<cluster>-config.yaml) into
// FluxCD GitOps overlay trees (applications/overlays/<cluster>/).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/opencenter-dev/opencenter/internal/diag"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// vars feeds the generated tables to kong's enums and help.
func vars() kong.Vars {
	providers, _ := lookupExact("opencenter.infrastructure.provider")
	return kong.Vars{
		"units":            strings.Join(generated.UnitNames, ", "),
		"version":          "opencenter " + versionString(),
		"providers":        strings.Join(providers.Enum, ","),
		"default_provider": providers.Enum[0],
	}
}

// Exit codes.
const (
	exitOK       = 0
	exitDiffers  = 1 // --check / --diff found differences
	exitBadInput = 2 // invalid input or usage
	exitRefused  = 3 // refused for safety
	exitBusy     = 4 // another process held the repository lock too long
)

// CLI is the command line.
type CLI struct {
	Version kong.VersionFlag `name:"version" help:"Print the version of opencenter and exit."`
	Quiet   bool             `short:"q" help:"Print errors only: no summaries, notes or warnings (the exit status says the rest)."`

	Render     RenderCmd     `cmd:"" help:"Render the overlay of each cluster config into applications/overlays/<cluster>/."`
	Validate   ValidateCmd   `cmd:"" help:"Check cluster configs as render does before writing: loading, validation, the base release, Flux ordering, ownership, secrets."`
	Verify     VerifyCmd     `cmd:"" help:"Simulate Flux offline on each rendered overlay against a checkout of the base repository."`
	Diff       DiffCmd       `cmd:"" help:"Show what a change does to each cluster: the objects Flux applies, by Flux unit, and HelmRelease values, between two states of the repository."`
	Build      BuildCmd      `cmd:"" help:"Print what a cluster's overlay builds to, as Flux builds it, before any bootstrap (kubectl kustomize needs flux-system/)."`
	Secrets    SecretsCmd    `cmd:"" help:"Set, edit, encrypt or decrypt the secrets: of a config in place (SOPS, age), without the sops CLI."`
	Units      UnitsCmd      `cmd:"" help:"List the overlay units; with --config, which are active and why not."`
	Explain    ExplainCmd    `cmd:"" help:"Document the config: sections, an object's fields, or one field."`
	Schema     SchemaCmd     `cmd:"" help:"Print the JSON Schema of .<cluster>-config.yaml (for editors)."`
	Init       InitCmd       `cmd:"" help:"Write a new .<cluster>-config.yaml with the defaults."`
	Import     ImportCmd     `cmd:"" help:"Write .<cluster>-config.yaml from openCenter-cli's v2 cluster configs, and report what it does not carry over."`
	Enable     EnableCmd     `cmd:"" help:"Enable a unit and every unit it requires in a config, keeping its comments and layout; --set sets the unit's fields."`
	Disable    DisableCmd    `cmd:"" help:"Disable a unit in a config, keeping its comments and layout."`
	HelpCmd    HelpCmd       `cmd:"" name:"help" help:"Show the help of opencenter or of a command."`
	Completion CompletionCmd `cmd:"" help:"Print a shell completion script: bash, zsh or fish."`
	VersionCmd VersionCmd    `cmd:"" name:"version" help:"Print the version of opencenter."`
}

// Streams are the command's input and output streams.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
	// Quiet keeps the commands to their errors (--quiet).
	Quiet bool
}

// exitError carries an exit code with the error that caused it.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput wraps err as exit code 2.
func badInput(err error) error { return &exitError{exitBadInput, err} }

type kongExit int

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the CLI with args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(kongExit)
			if !ok {
				panic(r)
			}
			code = int(e)
		}
	}()
	var cli CLI
	streams := &Streams{In: stdin, Out: stdout, Err: stderr}
	parser, err := kong.New(&cli,
		kong.Name("opencenter"),
		kong.Description("Render FluxCD GitOps overlays from typed cluster configs (.<cluster>-config.yaml)."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(kongExit(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
		kong.Bind(streams),
		vars(),
	)
	if err != nil {
		fmt.Fprintln(stderr, "opencenter: internal error:", err)
		return exitBadInput
	}
	if len(args) == 0 {
		args = []string{"--help"} // usage, not an error
	}
	ctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "opencenter: %v\n", err)
		if pe, ok := err.(*kong.ParseError); ok && pe.Context != nil {
			fmt.Fprintln(stderr, "Run 'opencenter --help' for usage.")
		}
		return exitBadInput
	}
	streams.Quiet = cli.Quiet
	return report(ctx.Run(), stderr)
}

// report prints err (one diagnostic per line) and returns its exit code.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitBadInput
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		err = ee.err
	}
	if l, ok := err.(diag.List); ok {
		fmt.Fprintln(stderr, l.Error())
	} else if err.Error() != "" {
		fmt.Fprintln(stderr, "opencenter:", err)
	}
	return code
}
