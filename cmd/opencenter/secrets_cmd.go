package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

// SecretsCmd encrypts, decrypts and edits the secrets: of a config in place,
// in the format sops writes, without the sops CLI.
type SecretsCmd struct {
	Encrypt SecretsEncryptCmd `cmd:"" help:"Encrypt the values under secrets: in place for the recipients of the .sops.yaml creation rule matching CONFIG (found as sops finds it: from the working directory up)."`
	Decrypt SecretsDecryptCmd `cmd:"" help:"Decrypt the values under secrets: in place (the file then holds them in plaintext: encrypt it again before committing). Prints no value."`
	Edit    SecretsEditCmd    `cmd:"" help:"Open CONFIG decrypted in $EDITOR (a private temporary file), then check it and encrypt it again for the same recipients."`
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

// Run encrypts the file's secrets.
func (c *SecretsEncryptCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	if sops.IsEncrypted(data) {
		return badInput(fmt.Errorf("%s is already encrypted (it has a sops: block): use 'opencenter secrets edit'", c.Config))
	}
	rule, err := creationRule(c.Config)
	if err != nil {
		return err
	}
	recipients := rule.Age
	out, err := sops.EncryptSecrets(data, sops.EncryptOptions{Recipients: recipients, Rules: sops.Rules{MACOnlyEncrypted: rule.MACOnlyEncrypted}})
	if err != nil {
		return badInput(fmt.Errorf("%s: %s", c.Config, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	if err := replaceFile(c.Config, out); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "%s: secrets encrypted for %s\n", c.Config, strings.Join(recipients, ", "))
	return nil
}

// creationRule returns the .sops.yaml rule sops would use for file.
func creationRule(file string) (*sops.CreationRule, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	cfgPath, err := sops.FindConfigFile(wd)
	if err != nil {
		return nil, badInput(fmt.Errorf("no %s in %s or above it (sops looks from the working directory up): add one with a creation_rule for %s", sops.ConfigFileName, wd, filepath.Base(file)))
	}
	cfg, err := sops.LoadConfig(cfgPath)
	if err != nil {
		return nil, badInput(fmt.Errorf("%s: %s", cfgPath, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	rule, err := cfg.FindRule(filepath.Dir(cfgPath), abs)
	if err != nil {
		return nil, badInput(fmt.Errorf("%s: %s", cfgPath, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	if len(rule.Age) == 0 {
		return nil, badInput(fmt.Errorf("%s: the creation rule for %s has no age recipients (%s)", cfgPath, file, strings.Join(rule.Unsupported, ", ")))
	}
	return rule, nil
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
		return nil, sops.Metadata{}, badInput(fmt.Errorf("%s is not encrypted (no sops: block)", name))
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

// Run edits the file decrypted, then encrypts it again with its data key.
func (c *SecretsEditCmd) Run(s *Streams) error {
	data, err := os.ReadFile(c.Config)
	if err != nil {
		return badInput(err)
	}
	plain, meta, err := decryptConfig(c.Config, data)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "opencenter-edit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, filepath.Base(c.Config))
	if err := os.WriteFile(tmp, plain, 0o600); err != nil {
		return err
	}
	editor := os.Getenv("EDITOR")
	if editor == "" {
		editor = "vi"
	}
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", tmp)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: the editor failed (%v): the file is unchanged", c.Config, err)
	}
	edited, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	if bytes.Equal(edited, plain) {
		fmt.Fprintf(s.Err, "%s: unchanged\n", c.Config)
		return nil
	}
	if _, err := config.Parse(c.Config, edited, config.LoadOptions{}); err != nil {
		return badInput(fmt.Errorf("the edit is not a valid config, so %s is unchanged:\n%w", c.Config, err))
	}
	out, err := sops.EncryptSecrets(edited, sops.EncryptOptions{Recipients: meta.Recipients, DataKey: meta.DataKey, Rules: sops.Rules{MACOnlyEncrypted: meta.MACOnlyEncrypted}})
	if err != nil {
		return badInput(fmt.Errorf("%s: %s", c.Config, strings.TrimPrefix(err.Error(), "sops: ")))
	}
	if err := replaceFile(c.Config, out); err != nil {
		return err
	}
	fmt.Fprintf(s.Err, "%s: secrets encrypted again for %s\n", c.Config, strings.Join(meta.Recipients, ", "))
	return nil
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
