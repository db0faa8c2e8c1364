package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"golang.org/x/term"

	"github.com/opencenter-dev/opencenter/internal/catalog"
	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/configedit"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/sops"
	generated "github.com/opencenter-dev/opencenter/zz_generated"
)

// SecretsCmd encrypts, decrypts and edits the secrets: of a config in place,
// in the format sops writes, without the sops CLI. Whom they are encrypted
// for always comes from the .sops.yaml creation rule for the config (the
// policy), never from the file's own sops: block, which anyone can add a
// recipient to.
type SecretsCmd struct {
	Encrypt    SecretsEncryptCmd    `cmd:"" help:"Encrypt the values under secrets: in place for the recipients of the .sops.yaml creation rule for CONFIG (the nearest .sops.yaml at or above its directory)."`
	Decrypt    SecretsDecryptCmd    `cmd:"" help:"Decrypt the values under secrets: in place (the file then holds them in plaintext: encrypt it again before committing). Prints no value."`
	Edit       SecretsEditCmd       `cmd:"" help:"Open CONFIG decrypted in $EDITOR (a private temporary file, removed on every exit), then check it and encrypt it again with the same data key."`
	Updatekeys SecretsUpdatekeysCmd `cmd:"" help:"Encrypt the secrets of CONFIG for the recipients its .sops.yaml rule names now, with a new data key (like sops updatekeys, then sops rotate)."`
	Set        SecretsSetCmd        `cmd:"" help:"Set one secret of a config from standard input or a prompt that does not echo, and encrypt the config's secrets: the value is never written in plaintext."`
}

// SecretsSetCmd sets one secret.
type SecretsSetCmd struct {
	Path     string `arg:"" name:"PATH" help:"The secret, as 'opencenter explain secrets' names it: secrets.services.harbor.admin_password (the leading secrets. may be left out)."`
	Config   string `placeholder:"FILE" help:"The config to edit (default: the only .*-config.yaml at the root of the repository)."`
	RepoFlag `embed:""`
}

// SecretsEncryptCmd encrypts a config's secrets.
type SecretsEncryptCmd struct {
	Config string `arg:"" name:"CONFIG" help:"The config file (.<cluster>-config.yaml)."`
}

// SecretsDecryptCmd decrypts a config's secrets.
type SecretsDecryptCmd struct {
	Config string `arg:"" name:"CONFIG" help:"The config file (.<cluster>-config.yaml)."`
}

// SecretsEditCmd edits a config's secrets.
type SecretsEditCmd struct {
	Config string `arg:"" name:"CONFIG" help:"The config file (.<cluster>-config.yaml)."`
}

// SecretsUpdatekeysCmd re-encrypts a config's secrets for its policy.
type SecretsUpdatekeysCmd struct {
	Config string `arg:"" name:"CONFIG" help:"The config file (.<cluster>-config.yaml)."`
}

// Run encrypts the file's secrets.
func (c *SecretsEncryptCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	if sops.IsEncrypted(data) {
		return badInput(fmt.Errorf("%s is already encrypted (it has a sops: block): use 'opencenter secrets edit'", c.Config))
	}
	p, err := sopsPolicy(c.Config)
	if err != nil {
		return policyError(err)
	}
	if err := encryptTo(c.Config, data, p, nil); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "%s: secrets encrypted for %s\n", c.Config, strings.Join(p.Rule.Age, ", "))
	return nil
}

// encryptTo encrypts plain's secrets for the policy's recipients, in the
// file's own text, and writes the result over name. dataKey nil makes a
// new data key.
func encryptTo(name string, plain []byte, p *policy, dataKey []byte) error {
	out, err := configedit.EncryptSecrets(plain, sops.EncryptOptions{Recipients: p.Rule.Age, DataKey: dataKey, Rules: sops.Rules{MACOnlyEncrypted: p.Rule.MACOnlyEncrypted}})
	if err != nil {
		return badInput(fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	return replaceFile(name, out)
}

// Run decrypts the file's secrets in place.
func (c *SecretsDecryptCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	plain, _, err := decryptConfig(c.Config, data)
	if err != nil {
		return err
	}
	if err := replaceFile(c.Config, plain); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "%s: secrets decrypted in place: the file holds them in plaintext now; run 'opencenter secrets encrypt %s' before committing\n", c.Config, c.Config)
	return nil
}

func decryptConfig(name string, data []byte) ([]byte, sops.Metadata, error) {
	if !sops.IsEncrypted(data) {
		return nil, sops.Metadata{}, badInput(fmt.Errorf("%s is not encrypted (no sops: block): run 'opencenter secrets encrypt %s' first", name, name))
	}
	ids, err := sops.LoadIdentities()
	if err != nil {
		return nil, sops.Metadata{}, badInput(fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	plain, meta, err := configedit.DecryptSecrets(data, ids)
	if err != nil {
		return nil, sops.Metadata{}, badInput(fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	return plain, meta, nil
}

// Run re-encrypts the file's secrets for the policy with a new data key.
func (c *SecretsUpdatekeysCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	p, err := sopsPolicy(c.Config)
	if err != nil {
		return policyError(err)
	}
	plain, meta, err := decryptConfig(c.Config, data)
	if err != nil {
		return err
	}
	extra, missing := p.recipientDrift(meta.Recipients)
	if len(extra) == 0 && len(missing) == 0 && meta.MACOnlyEncrypted == p.Rule.MACOnlyEncrypted {
		fmt.Fprintf(s.Err, "%s: already encrypted for the recipients of %s (%s): unchanged\n", c.Config, p.File, strings.Join(set(p.Rule.Age), ", "))
		return nil
	}
	// A new data key: a removed recipient may have kept the old one.
	if err := encryptTo(c.Config, plain, p, nil); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "%s: secrets encrypted with a new data key for %s", c.Config, strings.Join(set(p.Rule.Age), ", "))
	if len(extra) > 0 {
		fmt.Fprintf(s.Err, "; no longer for %s", strings.Join(extra, ", "))
	}
	fmt.Fprintln(s.Err)
	return nil
}

// Run edits the file decrypted, then encrypts it again with its data key
// (a new one for a config whose secrets were plaintext).
func (c *SecretsEditCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	p, plain, dataKey, err := openForEdit(c.Config, data)
	if err != nil {
		return err
	}
	rejected := c.Config + rejectedSuffix
	start := plain
	if kept, err := readRejected(rejected); err == nil {
		start = kept
		fmt.Fprintf(s.Err, "%s: resuming the edit kept in %s (delete it to start over)\n", c.Config, rejected)
	} else if !errors.Is(err, os.ErrNotExist) {
		return badInput(fmt.Errorf("%s: %v", rejected, err))
	}
	edited, err := editInPrivate(filepath.Base(c.Config), start)
	if err != nil {
		code := exitBadInput
		var ee *exitError
		if errors.As(err, &ee) {
			code, err = ee.code, ee.err
		}
		return &exitError{code, fmt.Errorf("%s: %v; the file is unchanged", c.Config, err)}
	}
	if bytes.Equal(edited, plain) && dataKey != nil {
		os.Remove(rejected)
		fmt.Fprintf(s.Err, "%s: unchanged\n", c.Config)
		return nil
	}
	if _, err := config.Parse(c.Config, edited, config.LoadOptions{}); err != nil {
		if kerr := keepRejected(rejected, edited, p.Rule.Age); kerr != nil {
			return badInput(fmt.Errorf("the edit is not a valid config, so %s is unchanged, and the edit could not be kept (%v):\n%w", c.Config, kerr, err))
		}
		return badInput(fmt.Errorf("the edit is not a valid config, so %s is unchanged; the edit is kept, encrypted for %s, in %s, and the next 'opencenter secrets edit %s' resumes it:\n%w",
			c.Config, strings.Join(p.Rule.Age, ", "), rejected, c.Config, err))
	}
	if err := encryptTo(c.Config, edited, p, dataKey); err != nil {
		return err
	}
	os.Remove(rejected)
	fmt.Fprintf(s.Err, "%s: secrets encrypted again for %s\n", c.Config, strings.Join(p.Rule.Age, ", "))
	return nil
}

// openForEdit returns the policy of a config about to be edited, its text
// with the secrets decrypted (as it is, when they are plaintext), and its
// data key (nil for plaintext secrets, which are then encrypted with a new
// one). It refuses a config whose sops: block names other recipients than
// the policy: encrypting again with its data key would hand it to whoever
// added themselves to the block.
func openForEdit(name string, data []byte) (*policy, []byte, []byte, error) {
	p, err := sopsPolicy(name)
	if err != nil {
		return nil, nil, nil, policyError(err)
	}
	if !sops.IsEncrypted(data) {
		return p, data, nil, nil
	}
	plain, meta, err := decryptConfig(name, data)
	if err != nil {
		return nil, nil, nil, err
	}
	if extra, missing := p.recipientDrift(meta.Recipients); len(extra) > 0 || len(missing) > 0 {
		msg := fmt.Sprintf("%s: refusing to edit: its sops: block names %s, where %s names %s", name, strings.Join(set(meta.Recipients), ", "), p.File, strings.Join(set(p.Rule.Age), ", "))
		if len(extra) > 0 {
			msg += fmt.Sprintf("; %s could read what you save", strings.Join(extra, ", "))
		}
		return nil, nil, nil, &exitError{exitRefused, errors.New(msg + ": run 'opencenter secrets updatekeys " + name + "' first, which encrypts for the rule's recipients with a new data key")}
	}
	return p, plain, meta.DataKey, nil
}

// Run sets the secret and encrypts the config's secrets.
func (c *SecretsSetCmd) Run(s *Streams) error {
	if err := c.resolve(optional(c.Config)); err != nil {
		return err
	}
	path := c.Path
	if !strings.HasPrefix(path, sops.SecretsKey+".") {
		path = sops.SecretsKey + "." + path
	}
	f, ok := lookupExact(path)
	if !ok || !f.Secret || f.Kind != catalog.KindString {
		return badInput(fmt.Errorf("%s is not a secret of the config%s: 'opencenter explain secrets' lists them", c.Path, diag.Suggest(path, secretPaths())))
	}
	name, data, err := readConfig(c.Repo, c.Config)
	if err != nil {
		return err
	}
	p, plain, dataKey, err := openForEdit(name, data)
	if err != nil {
		return err
	}
	value, err := readSecret(s, path)
	if err != nil {
		return err
	}
	// One line whatever the value holds (Quote escapes line breaks): the
	// text is encrypted before it is written.
	edited, _, err := configedit.SetInOrder(plain, strings.Split(path, "."), configedit.Quote(value), schemaOrder)
	if err != nil {
		return badInput(fmt.Errorf("%s: %v; the file is unchanged", name, err))
	}
	// Refused only for what the value brings: set the credentials of a
	// service before enabling it, one by one.
	if added := newProblems(name, plain, edited); len(added) > 0 {
		return badInput(fmt.Errorf("with that value, %s would not be a valid config, so it is unchanged:\n%w", name, added))
	}
	if err := encryptTo(name, edited, p, dataKey); err != nil {
		return err
	}
	how := "encrypted"
	if dataKey == nil {
		how = "encrypted, with the config's other secrets, for the first time"
	}
	fmt.Fprintf(s.Err, "%s: set %s, %s for %s\n", name, path, how, strings.Join(p.Rule.Age, ", "))
	return nil
}

// newProblems lists the problems of the config text after that it did not
// have before (by path and message; lines move).
func newProblems(name string, before, after []byte) diag.List {
	problems := func(data []byte) diag.List {
		_, err := config.Parse(name, data, config.LoadOptions{})
		return diag.AsList(name, err)
	}
	had := map[string]bool{}
	for _, d := range problems(before) {
		had[d.Path+"\x00"+d.Msg] = true
	}
	var out diag.List
	for _, d := range problems(after) {
		if !had[d.Path+"\x00"+d.Msg] {
			out = append(out, d)
		}
	}
	return out
}

// secretPaths lists the secret fields of the schema.
func secretPaths() []string {
	var out []string
	for _, f := range generated.Fields {
		if f.Secret && f.Kind == catalog.KindString {
			out = append(out, f.Path)
		}
	}
	return out
}

// readSecret reads a secret's value: at a prompt that does not echo when
// standard input is a terminal, else all of standard input, less one final
// line break when that leaves a one-line value (echo pass |, but a key
// file keeps its lines).
func readSecret(s *Streams, path string) (string, error) {
	in := s.In
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(s.Err, "%s (not shown): ", path)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(s.Err)
		if err != nil {
			return "", err
		}
		if len(b) == 0 {
			return "", badInput(errors.New("no value given: the file is unchanged"))
		}
		return string(b), nil
	}
	b, err := io.ReadAll(in)
	if err != nil {
		return "", err
	}
	v := string(b)
	if one, ok := strings.CutSuffix(v, "\n"); ok && !strings.Contains(one, "\n") {
		v = strings.TrimSuffix(one, "\r")
	}
	if v == "" {
		return "", badInput(errors.New("no value on standard input: the file is unchanged"))
	}
	return v, nil
}

// rejectedSuffix names where an edit that is not a valid config is kept,
// beside the config, as an armored age file for the policy's recipients:
// never in plaintext.
const rejectedSuffix = ".rejected-edit.age"

// keepRejected encrypts a rejected edit for recipients into file.
func keepRejected(file string, edited []byte, recipients []string) error {
	var rs []age.Recipient
	for _, r := range recipients {
		parsed, err := sops.ParseRecipient(strings.TrimSpace(r))
		if err != nil {
			return err
		}
		rs = append(rs, parsed)
	}
	var b bytes.Buffer
	aw := armor.NewWriter(&b)
	w, err := age.Encrypt(aw, rs...)
	if err != nil {
		return err
	}
	if _, err := w.Write(edited); err != nil {
		return err
	}
	if err := errors.Join(w.Close(), aw.Close()); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o600)
}

// readRejected decrypts an edit kept by keepRejected.
func readRejected(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ids, err := sops.LoadIdentities()
	if err != nil {
		return nil, err
	}
	r, err := age.Decrypt(armor.NewReader(f), ids...)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// replaceFile writes data over name atomically, keeping its mode.
func replaceFile(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".opencenter-*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(f.Name(), info.Mode().Perm())); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
