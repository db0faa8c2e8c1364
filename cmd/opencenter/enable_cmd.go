package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/plan"
	"github.com/opencenter-dev/opencenter/internal/sops"
	"github.com/opencenter-dev/opencenter/internal/yamlfile"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// EnableCmd turns a unit on in a config, with every unit it requires.
type EnableCmd struct {
	Unit     string   `arg:"" name:"UNIT" help:"The overlay unit to enable ('opencenter units' lists them)."`
	Set      []string `placeholder:"KEY=VALUE" sep:"none" help:"Set a field of the unit, its path relative to the unit's service (hostname=auth.example.com, source.branch=main); repeatable. Values are checked against the field's type. Secrets are set with 'opencenter secrets set'."`
	Config   string   `placeholder:"FILE" help:"The config to edit (default: the only .*-config.yaml at the root of --repo)."`
	RepoFlag `embed:""`
}

// DisableCmd turns a unit off in a config.
type DisableCmd struct {
	Unit           string `arg:"" name:"UNIT" help:"The overlay unit to disable ('opencenter units' lists them)."`
	WithDependents bool   `help:"Also disable the enabled units that require UNIT; without it, disable refuses and names them."`
	Config         string `placeholder:"FILE" help:"The config to edit (default: the only .*-config.yaml at the root of --repo)."`
	RepoFlag       `embed:""`
}

// change is one value to set in the config, and what to say when it changes.
type change struct {
	path, value string
	say         string
}

// Run sets enabled: true for the unit and its requires closure, then the
// --set fields, and writes the config only when it validates.
func (c *EnableCmd) Run(s *Streams) error {
	if err := c.resolve(optional(c.Config)); err != nil {
		return err
	}
	u, err := unitNamed(c.Unit)
	if err != nil {
		return err
	}
	if _, err := switchOf(u); err != nil {
		return err
	}
	var changes []change
	for _, r := range requiresClosure(u) {
		p, err := switchOf(r.unit)
		if err != nil {
			// Active with other units or always: if that leaves it off, the
			// validation after the edit says so.
			continue
		}
		say := "enabled " + r.unit.Name
		if r.by != nil {
			say += " (required by " + r.by.Name + ")"
		}
		changes = append(changes, change{p, "true", say})
	}
	sets, err := setChanges(u, c.Set)
	if err != nil {
		return err
	}
	name, data, err := readConfig(c.Repo, c.Config)
	if err != nil {
		return err
	}
	already, with := u.Name+" is already enabled", "with "+u.Name+" enabled"
	if len(sets) > 0 {
		already, with = already+" with those values", with+" and the --set values"
	}
	return editConfig(s, name, data, append(changes, sets...), already, with)
}

// Run sets enabled: false for the unit, refusing while enabled units
// require it unless --with-dependents disables them too.
func (c *DisableCmd) Run(s *Streams) error {
	if err := c.resolve(optional(c.Config)); err != nil {
		return err
	}
	u, err := unitNamed(c.Unit)
	if err != nil {
		return err
	}
	p, err := switchOf(u)
	if err != nil {
		return err
	}
	name, data, err := readConfig(c.Repo, c.Config)
	if err != nil {
		return err
	}
	if err := editable(name, data, []string{p}); err != nil {
		return err // before loading: a refused file is refused whatever it holds
	}
	f, err := config.Decode(name, data, config.LoadOptions{AllowLocked: true})
	if err != nil {
		return badInput(err)
	}
	_ = f.Check() // defaults decide gates; the problems are reported after the edit
	if !isOn(u, f.Config) {
		// Writing enabled: false where the service is absent would only add noise.
		fmt.Fprintf(s.Out, "%s: %s is already disabled: nothing to change\n", name, u.Name)
		return nil
	}
	changes := []change{{p, "false", "disabled " + u.Name}}
	var names []string
	for _, d := range dependents(u, f.Config) {
		names = append(names, d.Name)
		dp, err := switchOf(d)
		if err != nil {
			return badInput(fmt.Errorf("%s requires %s and cannot be disabled on its own: %v", d.Name, u.Name, err))
		}
		changes = append(changes, change{dp, "false", "disabled " + d.Name + " (it requires " + u.Name + ")"})
	}
	if len(names) > 0 && !c.WithDependents {
		return badInput(fmt.Errorf("%s: %s is required by %s, which %s enabled: disable %s first, or pass --with-dependents to disable %s too; the file is unchanged",
			name, u.Name, strings.Join(names, ", "), pluralIs(len(names)), them(len(names)), them(len(names))))
	}
	return editConfig(s, name, data, changes, u.Name+" is already disabled", "with "+u.Name+" disabled")
}

// isOn reports whether u's switch (switchOf) is on in c: a service's
// enabled, else the field its gate tests, which is all the gate tests.
func isOn(u *catalog.Unit, c *config.Config) bool {
	if u.Common != nil {
		sc := u.Common(c)
		return sc != nil && sc.Enabled
	}
	return u.Gate.Holds(c)
}

func pluralIs(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// unitNamed finds a unit, suggesting the closest name on a typo.
func unitNamed(name string) (*catalog.Unit, error) {
	for i := range generated.Units {
		if generated.Units[i].Name == name {
			return &generated.Units[i], nil
		}
	}
	return nil, badInput(fmt.Errorf("unknown unit %q%s: 'opencenter units' lists them", name, diag.Suggest(name, generated.UnitNames)))
}

// switchOf is the YAML path of the flag that turns u on and off: a
// service's enabled, or for customer-managed and sops the enabled field their
// gate tests under gitops.overlay_units.
func switchOf(u *catalog.Unit) (string, error) {
	if u.Service != "" {
		return u.ServicePath() + ".enabled", nil
	}
	if p, ok := strings.CutSuffix(u.Gate.Text, " is true"); ok && strings.HasSuffix(p, ".enabled") {
		if f, ok := lookupExact(p); ok && f.Kind == catalog.KindBool {
			return p, nil
		}
	}
	if len(u.ActiveWith) > 0 {
		return "", badInput(fmt.Errorf("%s has no switch of its own: it is active whenever one of %s is", u.Name, strings.Join(u.ActiveWith, ", ")))
	}
	return "", badInput(fmt.Errorf("%s has no switch: it is always active", u.Name))
}

// required is a unit of a requires closure and the unit that required it
// (nil for the unit itself).
type required struct{ unit, by *catalog.Unit }

// requiresClosure is u followed by every unit it requires, directly or not,
// breadth first in the order of each unit's requires.
func requiresClosure(u *catalog.Unit) []required {
	out := []required{{u, nil}}
	seen := map[string]bool{u.Name: true}
	for i := 0; i < len(out); i++ {
		for _, name := range out[i].unit.Requires {
			if r, err := unitNamed(name); err == nil && !seen[name] {
				seen[name] = true
				out = append(out, required{r, out[i].unit})
			}
		}
	}
	return out
}

// dependents lists the units switched on in c that require u, directly or
// not, in catalog order.
func dependents(u *catalog.Unit, c *config.Config) []*catalog.Unit {
	var out []*catalog.Unit
	for i := range generated.Units {
		d := &generated.Units[i]
		if d == u || !switchedOn(d, c) {
			continue
		}
		for _, r := range requiresClosure(d)[1:] {
			if r.unit.Name == u.Name {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// switchedOn reports whether a unit's gate holds (or, for a unit active with
// others, one of theirs), whether or not its requirements are met.
func switchedOn(u *catalog.Unit, c *config.Config) bool {
	for _, w := range u.ActiveWith {
		if o, err := unitNamed(w); err == nil && switchedOn(o, c) {
			return true
		}
	}
	return len(u.ActiveWith) == 0 && u.Gate.Holds(c)
}

// setChanges type-checks each --set KEY=VALUE against the field index,
// KEY relative to the unit's service, and writes its value as YAML.
func setChanges(u *catalog.Unit, sets []string) ([]change, error) {
	sw, _ := switchOf(u)
	base := strings.TrimSuffix(sw, ".enabled")
	seen := map[string]bool{}
	var out []change
	for _, kv := range sets {
		key, val, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, badInput(fmt.Errorf("--set %q: expected KEY=VALUE", kv))
		}
		if seen[key] {
			return nil, badInput(fmt.Errorf("--set %s is given twice", key))
		}
		seen[key] = true
		if key == "enabled" {
			return nil, badInput(fmt.Errorf("--set enabled: enable sets it; 'opencenter disable %s' clears it", u.Name))
		}
		f, ok := lookupExact(base + "." + key)
		if !ok {
			return nil, badInput(fmt.Errorf("--set %s: %s has no field %q%s; 'opencenter explain %s' lists its fields",
				key, u.Name, key, diag.Suggest(key, settable(base)), strings.TrimPrefix(base, "opencenter.")))
		}
		text, err := yamlValue(f, val)
		if err != nil {
			return nil, badInput(fmt.Errorf("--set %s=%s: %v", key, val, err))
		}
		out = append(out, change{f.Path, text, "set " + f.Path + ": " + text})
	}
	return out, nil
}

// settable lists the scalar fields below base, relative to it.
func settable(base string) []string {
	var out []string
	for _, f := range generated.Fields {
		rest, ok := strings.CutPrefix(f.Path, base+".")
		if ok && !strings.Contains(rest, "[]") && scalarKinds[f.Kind] {
			out = append(out, rest)
		}
	}
	return out
}

var scalarKinds = map[catalog.Kind]bool{catalog.KindString: true, catalog.KindBool: true, catalog.KindInt: true, catalog.KindNumber: true}

// yamlValue checks val against the field's kind and enumeration and writes
// it as the YAML scalar the config decodes to that value.
func yamlValue(f *catalog.Field, val string) (string, error) {
	switch {
	case f.Secret:
		return "", fmt.Errorf("it is a secret: set it with 'opencenter secrets set %s', which reads it without echo and encrypts it", f.Path)
	case f.Kind == catalog.KindList:
		return "", fmt.Errorf("%s is a list, which --set does not write: add it to the file, such as\n%s('opencenter explain %s' documents its items)",
			lastKey(f.Path), listExample(f), strings.TrimPrefix(f.Path, "opencenter."))
	case !scalarKinds[f.Kind]:
		return "", fmt.Errorf("%s is %s: set its fields one by one (--set %s.FIELD=VALUE), or edit the file", lastKey(f.Path), kindText(f.Kind), lastKey(f.Path))
	case !utf8.ValidString(val):
		return "", errors.New("the value is not valid UTF-8")
	case len(f.Enum) > 0 && !slices.Contains(f.Enum, val):
		return "", fmt.Errorf("unknown value: expected one of %s%s", strings.Join(f.Enum, ", "), diag.Suggest(val, f.Enum))
	}
	switch f.Kind {
	case catalog.KindBool:
		if val != "true" && val != "false" {
			return "", errors.New("expected true or false")
		}
		return val, nil
	case catalog.KindInt:
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return "", errors.New("expected a whole number")
		}
		return strconv.FormatInt(n, 10), nil
	case catalog.KindNumber:
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return "", errors.New("expected a number")
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	}
	return configedit.Quote(val), nil
}

// listExample writes the list field f as YAML with one item, its fields
// (for a list of objects) given as placeholders, required ones first.
func listExample(f *catalog.Field) string {
	key := lastKey(f.Path)
	items := childrenOf(f.Path + "[]")
	if len(items) == 0 {
		return "    " + key + ":\n      - VALUE\n"
	}
	slices.SortStableFunc(items, func(a, b catalog.Field) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	var b strings.Builder
	b.WriteString("    " + key + ":\n")
	for i, item := range items {
		lead := "        "
		if i == 0 {
			lead = "      - "
		}
		note := ""
		if item.Required {
			note = "   # required"
		}
		fmt.Fprintf(&b, "%s%s: %s%s\n", lead, lastKey(item.Path), strings.ToUpper(string(item.Kind)), note)
	}
	return b.String()
}

func kindText(k catalog.Kind) string {
	switch k {
	case catalog.KindObject:
		return "an object"
	case catalog.KindList:
		return "a list"
	}
	return "a " + string(k)
}

// readConfig reads --config, or the only config at the root of repo.
func readConfig(repo, name string) (string, []byte, error) {
	var args []string
	if name != "" {
		args = []string{name}
	}
	files, err := configFiles(repo, args)
	if err != nil {
		return "", nil, err
	}
	if len(files) > 1 {
		return "", nil, badInput(fmt.Errorf("%d configs at the root of %s (%s): pass --config FILE", len(files), repo, strings.Join(files, ", ")))
	}
	data, err := yamlfile.Read(files[0])
	if err != nil {
		return "", nil, badInput(err)
	}
	return files[0], data, nil
}

// editConfig applies the changes to the config's text, validates the result
// as validate does, and only then replaces the file. unchanged is said
// when every value was already set; with names the edit in messages.
func editConfig(s *Streams, name string, data []byte, changes []change, unchanged, with string) error {
	var paths []string
	for _, ch := range changes {
		paths = append(paths, ch.path)
	}
	if err := editable(name, data, paths); err != nil {
		return err
	}
	out := data
	var done []string
	for _, ch := range changes {
		next, changed, err := configedit.SetInOrder(out, strings.Split(ch.path, "."), ch.value, schemaOrder)
		if err != nil {
			return badInput(fmt.Errorf("%s: %v; the file is unchanged", name, err))
		}
		if changed {
			done = append(done, ch.say)
		}
		out = next
	}
	if len(done) == 0 {
		fmt.Fprintf(s.Out, "%s: %s: nothing to change\n", name, unchanged)
		return nil
	}
	diags, warnings := checkEdited(name, out)
	// A config that did not validate before may be mended one edit at a
	// time (after an import, say): only problems the edit adds refuse it.
	remain := 0
	if len(diags) > 0 {
		before, _ := checkEdited(name, data)
		diags = slices.DeleteFunc(diags, func(d diag.Diag) bool {
			old := slices.ContainsFunc(before, func(b diag.Diag) bool { return b.Path == d.Path && b.Msg == d.Msg })
			if old {
				remain++
			}
			return old
		})
	}
	if len(diags) > 0 {
		fmt.Fprintf(s.Err, "opencenter: %s is unchanged: %s, it would not validate:\n%s\n", name, with, diags)
		if hint := secretsHint(name, diags); hint != "" {
			fmt.Fprintln(s.Err, hint)
		}
		return &exitError{exitBadInput, errors.New("")}
	}
	if err := writeConfig(name, data, out); err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(s.Err, "warning: %s\n", w)
	}
	for _, d := range done {
		fmt.Fprintln(s.Out, d)
	}
	if remain > 0 {
		fmt.Fprintf(s.Out, "wrote %s: %d problems it had before remain ('opencenter validate' lists them)\n", name, remain)
		return nil
	}
	fmt.Fprintf(s.Out, "wrote %s: 'opencenter render' updates its overlay\n", name)
	return nil
}

// schemaOrder is the order of the keys of a mapping of the config, the
// schema's (the catalog's order for services): a key enable adds goes in
// its place, so two branches that enable two services edit two places of
// the file, which git merges.
func schemaOrder(mapping []string) []string {
	var keys []string
	for _, f := range childrenOf(strings.Join(mapping, ".")) {
		keys = append(keys, lastKey(f.Path))
	}
	return keys
}

// secretsHint gives the commands that set the credentials the edit
// lacks (required values under secrets:), which enable cannot set: they
// are read without echo and encrypted, never written in plaintext.
func secretsHint(name string, diags diag.List) string {
	var cmds []string
	for _, d := range diags {
		if strings.HasPrefix(d.Path, sops.SecretsKey+".") && strings.HasPrefix(d.Msg, "required") {
			cmds = append(cmds, "  opencenter secrets set "+d.Path+" --config "+name)
		}
	}
	if len(cmds) == 0 {
		return ""
	}
	return "Set the credentials first (each is read without echo, or from standard input, and encrypted), then run the command again:\n" + strings.Join(slices.Compact(cmds), "\n")
}

// checkEdited runs on an edited config, before it is written, what validate
// runs on a file (see check): load, defaults and validation, then
// plan.Build. The lines of the edited text are not those of the file on
// disk, so the problems name paths only.
func checkEdited(name string, data []byte) (diag.List, []string) {
	f, err := config.Parse(name, data, config.LoadOptions{AllowLocked: true})
	if err != nil {
		return withoutLines(diag.AsList(name, err)), nil
	}
	diags, warnings, _ := checkLoaded(f, plan.Options{PolicyRecipients: policyRecipients(name)}) // no repository: nothing is read to refuse
	return withoutLines(diags), warnings
}

// withoutLines drops the positions of diagnostics about an edited text,
// whose lines are not the file's on disk.
func withoutLines(diags diag.List) diag.List {
	for i := range diags {
		diags[i].Line, diags[i].Col = 0, 0
	}
	return diags
}

// editable refuses edits that would break a SOPS-encrypted config: without
// mac_only_encrypted its MAC covers every value, and a value sops's rules
// encrypt cannot be written in plaintext.
func editable(name string, data []byte, paths []string) error {
	if !sops.IsEncrypted(data) {
		return nil
	}
	meta, err := sops.ReadMetadata(data)
	if err != nil {
		return badInput(fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	if !meta.MACOnlyEncrypted {
		return &exitError{exitRefused, fmt.Errorf("%s is SOPS-encrypted and its MAC covers every value, so editing one in place would break the file: "+
			"use 'opencenter secrets edit %s', or encrypt it again with mac_only_encrypted: true in its .sops.yaml creation rule "+
			"('opencenter secrets decrypt', then 'opencenter secrets encrypt'); the file is unchanged", name, name)}
	}
	for _, p := range paths {
		enc, err := meta.Rules.Encrypts(strings.Split(p, "."))
		if err != nil {
			return badInput(fmt.Errorf("%s: the sops: block: %v", name, err))
		}
		if enc {
			return &exitError{exitRefused, fmt.Errorf("%s: sops encrypts %s under this file's rules, so it cannot be written in plaintext: use 'opencenter secrets edit %s'; the file is unchanged", name, p, name)}
		}
	}
	return nil
}

// writeConfig replaces the config (the file a symbolic link names) with
// out, atomically, unless it changed on disk since it was read.
func writeConfig(name string, read, out []byte) error {
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	now, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, read) {
		return &exitError{exitRefused, fmt.Errorf("%s changed while it was being edited: run the command again", name)}
	}
	return replaceFile(target, out)
}
