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

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/sops"
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

// encryptTo encrypts plain's secrets for the policy's recipients and
// writes the result over name. dataKey nil makes a new data key.
func encryptTo(name string, plain []byte, p *policy, dataKey []byte) error {
	out, err := sops.EncryptSecrets(plain, sops.EncryptOptions{Recipients: p.Rule.Age, DataKey: dataKey, Rules: sops.Rules{MACOnlyEncrypted: p.Rule.MACOnlyEncrypted}})
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
	plain, meta, err := sops.Decrypt(data, ids)
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

// Run edits the file decrypted, then encrypts it again with its data key.
func (c *SecretsEditCmd) Run(s *Streams) error {
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
	if extra, missing := p.recipientDrift(meta.Recipients); len(extra) > 0 || len(missing) > 0 {
		// Encrypting again with this data key would hand it to whoever
		// added themselves to the sops: block.
		msg := fmt.Sprintf("%s: refusing to edit: its sops: block names %s, where %s names %s", c.Config, strings.Join(set(meta.Recipients), ", "), p.File, strings.Join(set(p.Rule.Age), ", "))
		if len(extra) > 0 {
			msg += fmt.Sprintf("; %s could read what you save", strings.Join(extra, ", "))
		}
		return &exitError{exitRefused, errors.New(msg + ": run 'opencenter secrets updatekeys " + c.Config + "' first, which encrypts for the rule's recipients with a new data key")}
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
	if bytes.Equal(edited, plain) {
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
	if err := encryptTo(c.Config, edited, p, meta.DataKey); err != nil {
		return err
	}
	os.Remove(rejected)
	fmt.Fprintf(s.Err, "%s: secrets encrypted again for %s\n", c.Config, strings.Join(p.Rule.Age, ", "))
	return nil
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
