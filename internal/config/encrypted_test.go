package config_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"filippo.io/age"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	"github.com/opencenter-dev/opencenter/internal/sops"
)

const fixtureDev = "../../testdata/fixture/.k8s-dev-config.yaml"

// plainOf returns the fixture config decrypted, as sops --decrypt prints it.
func plainOf(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := fixturekey.Decrypt(data)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

func TestLoadEncrypted(t *testing.T) {
	enc, err := config.Load(fixtureDev, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := config.Parse("plain.yaml", plainOf(t, fixtureDev), config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(enc.Config, plain.Config) {
		t.Error("the encrypted config does not load to what it decrypts to")
	}
	if enc.Encryption.DataKey == nil || enc.Encryption.Locked || len(enc.Encryption.Recipients) != 1 || !plain.Encryption.PlaintextSecrets {
		t.Errorf("encryption: %+v / plaintext: %+v", enc.Encryption, plain.Encryption)
	}
	// Lines are the file's own: an error under secrets: points into it.
	if d := enc.Diag("secrets.services.loki.secret_access_key", "x"); d.Line == 0 || d.File != fixtureDev {
		t.Errorf("diagnostic position %+v", d)
	}
}

// TestLoadWhatSopsWrote: a config the real sops encrypted loads.
func TestLoadWhatSopsWrote(t *testing.T) {
	bin, ok := fixturekey.SopsCLI()
	if !ok {
		t.Skip("the sops CLI is not built: make test builds bin/sops")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, ".k8s-dev-config.yaml")
	os.WriteFile(file, plainOf(t, fixtureDev), 0o600)
	key, _ := os.ReadFile(fixturekey.Path())
	id, _ := age.ParseIdentities(bytes.NewReader(key))
	cmd := exec.Command(bin, "encrypt", "--in-place", "--encrypted-regex", "^secrets$",
		"--age", id[0].(*age.X25519Identity).Recipient().String(), file)
	cmd.Env = []string{"HOME=" + dir, "SOPS_DISABLE_VERSION_CHECK=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sops encrypt: %v\n%s", err, out)
	}
	f, err := config.Load(file, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := config.Load(fixtureDev, config.LoadOptions{})
	if !reflect.DeepEqual(f.Config, want.Config) {
		t.Error("what sops encrypted does not load to the same config")
	}
}

func TestLoadEncryptedRefusals(t *testing.T) {
	data, _ := os.ReadFile(fixtureDev)
	write := func(b []byte) string {
		file := filepath.Join(t.TempDir(), ".k8s-dev-config.yaml")
		os.WriteFile(file, b, 0o600)
		return file
	}
	check := func(name, file string, want ...string) {
		t.Helper()
		_, err := config.Load(file, config.LoadOptions{})
		if err == nil {
			t.Fatalf("%s: loaded", name)
		}
		msg := err.Error()
		if strings.Count(msg, "\n") > 0 || !strings.HasPrefix(msg, file+":") {
			t.Errorf("%s: want one diagnostic naming the file, got:\n%s", name, msg)
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", name, msg, w)
			}
		}
	}

	// A value changed in the ciphertext.
	i := bytes.Index(data, []byte("secret_access_key: ENC[AES256_GCM,data:")) + len("secret_access_key: ENC[AES256_GCM,data:")
	tampered := bytes.Clone(data)
	tampered[i] ^= 0x01
	if tampered[i] == '=' || tampered[i] == ',' {
		tampered[i] = 'A'
	}
	check("tampered value", write(tampered), "sops")
	// The MAC changed.
	j := bytes.Index(data, []byte("mac: ENC[AES256_GCM,data:")) + len("mac: ENC[AES256_GCM,data:")
	tampered = bytes.Clone(data)
	tampered[j] = map[bool]byte{true: 'B', false: 'A'}[tampered[j] == 'A']
	check("tampered MAC", write(tampered), "MAC")

	// Another key: the error names the recipients, and the key variable.
	other, _ := age.GenerateX25519Identity()
	keyFile := filepath.Join(t.TempDir(), "keys.txt")
	os.WriteFile(keyFile, []byte(other.String()+"\n"), 0o600)
	t.Setenv(sops.KeyFileEnv, keyFile)
	f := write(data)
	check("wrong key", f, "age18tjucsprhh3rqntyzsfmt28p3uctwtru93xcklk3zwsjpd5mlszszlx9j4", sops.KeyFileEnv)

	// Without the key, a keyless check still loads, with placeholders.
	locked, err := config.Load(f, config.LoadOptions{AllowLocked: true})
	if err != nil {
		t.Fatal(err)
	}
	if !locked.Encryption.Locked || locked.Config.Secrets.Services.Loki.SecretAccessKey != config.Placeholder ||
		locked.Config.OpenCenter.Cluster.ClusterName != "k8s-dev" {
		t.Errorf("locked load: %+v", locked.Encryption)
	}
}

// TestLoadsShareNothing: configs loaded one after another are the configs
// loaded on their own, and an earlier config does not change when later
// ones load: no parse, decryption or cache shares memory between loads.
func TestLoadsShareNothing(t *testing.T) {
	t.Setenv(sops.KeyFileEnv, fixturekey.Path())
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(files) < 2 {
		t.Fatal("no fixture configs")
	}
	var first []*config.File
	for _, f := range files {
		c, err := config.Load(f, config.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, c)
	}
	snapshot := make([][]byte, len(first)) // deep: the configs' maps and slices too
	for i, c := range first {
		s, err := json.Marshal(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		snapshot[i] = s
	}
	for range 2 {
		for i := len(files) - 1; i >= 0; i-- {
			c, err := config.Load(files[i], config.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Config, first[i].Config) {
				t.Fatalf("%s loads differently after other configs", files[i])
			}
		}
	}
	for i, c := range first {
		if now, _ := json.Marshal(c.Config); !bytes.Equal(now, snapshot[i]) {
			t.Fatalf("%s changed when other configs loaded", files[i])
		}
	}
}

// TestLoadKeyring: with LoadOptions.Keys, the keys are those the keyring
// read the first time, for every config after: a key file emptied since
// does not stop a load, and without the keyring it does.
func TestLoadKeyring(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "keys.txt")
	key, err := os.ReadFile(fixturekey.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sops.KeyFileEnv, keyFile)
	const name = "../../testdata/fixture/.k8s-dev-config.yaml"
	keys := &sops.Keyring{}
	if _, err := config.Load(name, config.LoadOptions{Keys: keys}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(name, config.LoadOptions{Keys: keys})
	if err != nil || f.Encryption.Locked {
		t.Fatalf("a second load with the keyring: %v", err)
	}
	if _, err := config.Load(name, config.LoadOptions{}); err == nil {
		t.Error("a load without the keyring found a key in an empty keys file")
	}
}
