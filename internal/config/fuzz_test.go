package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/opencenter-dev/opencenter/internal/config"
	"github.com/opencenter-dev/opencenter/internal/diag"
	"github.com/opencenter-dev/opencenter/internal/fixturekey"
	_ "github.com/opencenter-dev/opencenter/zz_generated" // registers the catalog the load runs
)

// FuzzLoad feeds arbitrary bytes through the whole load pipeline (strict
// decoding, defaults, validation): it must never panic, and every failure
// must be diagnostics naming the file.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../../testdata/fixture/.*-config.yaml", "../../testdata/invalid/*.yaml", "../../testdata/invalid/.*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := config.Parse("fuzz.yaml", data, config.LoadOptions{})
		if err == nil {
			return
		}
		var l diag.List
		if !errors.As(err, &l) || len(l) == 0 {
			t.Fatalf("error is not diagnostics: %v", err)
		}
		for _, d := range l {
			if d.File != "fuzz.yaml" || d.Msg == "" {
				t.Fatalf("diagnostic without file or message: %#v", d)
			}
		}
	})
}

func TestFixturesLoad(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/fixture/.*-config.yaml")
	if len(files) != 5 {
		t.Fatalf("want the five fixture configs, got %v", files)
	}
	for _, name := range files {
		if _, err := config.Load(name, config.LoadOptions{}); err != nil {
			t.Errorf("%s:\n%v", name, err)
		}
	}
}

// TestMain loads the fixture with its TEST-ONLY key, as a user would with theirs.
func TestMain(m *testing.M) {
	cleanup, err := fixturekey.Use()
	if err != nil {
		panic(err)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}
