package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/fluxdiff"
)

// OutputFlag is the -o flag of the commands that report on configs.
type OutputFlag struct {
	Output string `short:"o" enum:"text,json" default:"text" help:"Output format: text, or json (one document on stdout, its shape in docs/reference/json.md)."`
}

// A message is one line a command says of a config on stderr.
type message struct {
	kind string // "error", "warning" or "note"
	text string
	// listed: the text of problems the report lists already (JSON).
	listed bool
}

// result is what a command found for one config. Text is printed as it
// was gathered, in config order once every cluster is done, so output is
// deterministic; the same facts make the JSON document.
type result struct {
	// out is the config's stdout text (--check lines, diffs, summaries).
	out strings.Builder
	// messages go to stderr, in order: --quiet keeps the errors alone.
	messages []message
	code     int // exit code of this config alone
	rep      configReport
}

// errorf, warnf and notef add a stderr line of their kind.
func (r *result) errorf(format string, args ...any) {
	r.messages = append(r.messages, message{kind: "error", text: fmt.Sprintf(format, args...)})
}

func (r *result) warnf(format string, args ...any) {
	r.messages = append(r.messages, message{kind: "warning", text: fmt.Sprintf(format, args...)})
}

func (r *result) notef(format string, args ...any) {
	r.messages = append(r.messages, message{kind: "note", text: fmt.Sprintf(format, args...)})
}

// problems records a config's diagnostics, printed as the list prints.
func (r *result) problems(l diag.List, code int) {
	r.rep.Problems = append(r.rep.Problems, problemsJSON(l)...)
	r.messages = append(r.messages, message{kind: "error", text: l.Error(), listed: true})
	r.code = max(r.code, code)
}

// configReport is the JSON of one config: docs/reference/json.md.
type configReport struct {
	Config   string        `json:"config"`
	Cluster  string        `json:"cluster,omitempty"`
	Overlay  string        `json:"overlay,omitempty"`
	Exit     int           `json:"exit"`
	Valid    *bool         `json:"valid,omitempty"`
	Secrets  string        `json:"secrets,omitempty"`
	Files    int           `json:"files,omitempty"`
	Changes  []changeJSON  `json:"changes,omitempty"`
	Refused  []refusalJSON `json:"refused,omitempty"`
	Findings []findingJSON `json:"findings,omitempty"`
	Info     []findingJSON `json:"info,omitempty"`
	Summary  string        `json:"summary,omitempty"`
	// Diff is how what Flux applies to the cluster changes (diff).
	Diff     *fluxdiff.Cluster `json:"diff,omitempty"`
	Problems []problemJSON     `json:"problems,omitempty"`
	Errors   []string          `json:"errors,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
	Notes    []string          `json:"notes,omitempty"`
}

type problemJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

type changeJSON struct {
	Op   string `json:"op"`
	Path string `json:"path"`
	// Adopted: the file on disk was another tool's (render --adopt).
	Adopted bool `json:"adopted,omitempty"`
}

type refusalJSON struct {
	Path  string `json:"path"`
	State string `json:"state"`
	Op    string `json:"op"`
	Keep  string `json:"keep,omitempty"`
}

type findingJSON struct {
	Unit    string `json:"unit,omitempty"`
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

func problemsJSON(l diag.List) []problemJSON {
	sorted := append(diag.List(nil), l...)
	diag.Sort(sorted)
	out := make([]problemJSON, len(sorted))
	for i, d := range sorted {
		out[i] = problemJSON{d.File, d.Line, d.Col, d.Path, d.Msg}
	}
	return out
}

// reportJSON is the document -o json prints.
type reportJSON struct {
	Command string `json:"command"`
	Exit    int    `json:"exit"`
	// Base and Head are the states diff compares.
	Base    *stateJSON     `json:"base,omitempty"`
	Head    *stateJSON     `json:"head,omitempty"`
	Configs []configReport `json:"configs"`
	Orphans []orphanJSON   `json:"orphans,omitempty"`
}

type orphanJSON struct {
	Cluster string   `json:"cluster"`
	Overlay string   `json:"overlay"`
	Owned   []string `json:"owned"`
	Kept    []string `json:"kept,omitempty"`
	Pruned  bool     `json:"pruned"`
}

// results are the outcomes of configs, in config order.
type results []result

// print writes every config's output in config order, as text (without
// warnings and notes when quiet) or as one JSON document, and returns the
// worst exit code as an error (nil when all are 0).
func (rs results) print(s *Streams, command, output string, quiet bool, orphans []orphanJSON, extraCode int) error {
	code := rs.code(extraCode)
	if output == "json" {
		if err := writeJSON(s, reportJSON{Command: command, Exit: code, Configs: rs.reports(), Orphans: orphans}); err != nil {
			return err
		}
	} else {
		rs.writeText(s, quiet)
	}
	return exitFor(code)
}

// code is the worst exit code of the configs and extra.
func (rs results) code(extra int) int {
	code := extra
	for i := range rs {
		code = max(code, rs[i].code)
	}
	return code
}

// reports are the configs' JSON, their stderr lines included.
func (rs results) reports() []configReport {
	out := make([]configReport, len(rs))
	for i := range rs {
		r := &rs[i]
		r.rep.Exit = r.code
		for _, m := range r.messages {
			switch m.kind {
			case "warning":
				r.rep.Warnings = append(r.rep.Warnings, m.text)
			case "note":
				r.rep.Notes = append(r.rep.Notes, m.text)
			case "error":
				if !m.listed {
					r.rep.Errors = append(r.rep.Errors, m.text)
				}
			}
		}
		out[i] = r.rep
	}
	return out
}

// writeJSON prints the JSON document.
func writeJSON(s *Streams, doc reportJSON) error {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// writeText prints each config's stdout text (unless quiet and it is fine)
// and its stderr lines (errors only when quiet), in config order.
func (rs results) writeText(s *Streams, quiet bool) {
	for i := range rs {
		r := &rs[i]
		if !quiet || r.code != exitOK {
			io.WriteString(s.Out, r.out.String())
		}
		for _, m := range r.messages {
			if quiet && m.kind != "error" {
				continue
			}
			fmt.Fprintln(s.Err, m.text)
		}
	}
}

// exitFor is the error run reports for an exit code: nil for 0.
func exitFor(code int) error {
	if code != exitOK {
		return &exitError{code, errors.New("")}
	}
	return nil
}
