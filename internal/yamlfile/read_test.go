package yamlfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// TestReadAtMost holds readAtMost to io.ReadAll over a LimitReader, whatever
// the size the file was seen with (it may have grown or shrunk since) and
// however short the reads are.
func TestReadAtMost(t *testing.T) {
	for _, n := range []int{0, 1, 7, 64, 4095, 4096, 4097, 100_000} {
		data := bytes.Repeat([]byte("abcdefg\n"), n/8+1)[:n]
		for _, limit := range []int64{1, 8, 4096, 1 << 20} {
			want, _ := io.ReadAll(io.LimitReader(bytes.NewReader(data), limit))
			for _, size := range []int64{-1, 0, int64(n) / 2, int64(n), int64(n) * 3} {
				for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data)), iotest.DataErrReader(bytes.NewReader(data))} {
					got, err := readAtMost(r, limit, size)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("n=%d limit=%d size=%d: got %d bytes, %v; want %d", n, limit, size, len(got), err, len(want))
					}
				}
			}
		}
	}
	if _, err := readAtMost(iotest.ErrReader(io.ErrUnexpectedEOF), 10, 5); err != io.ErrUnexpectedEOF {
		t.Fatalf("a read error: got %v", err)
	}
}

// TestReadText holds ReadText to Read: the same bytes, and each text its
// own memory (a later read must not change an earlier text).
func TestReadText(t *testing.T) {
	dir := t.TempDir()
	var texts []string
	var wants []string
	for i, content := range []string{"", "a: 1\n", "b: 2\nc: [x, y]\n"} {
		name := filepath.Join(dir, "f.yaml")
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		text, err := ReadText(name)
		if err != nil || text != content {
			t.Fatalf("file %d: got %q, %v; want %q", i, text, err, content)
		}
		texts, wants = append(texts, text), append(wants, content)
	}
	for i := range texts {
		if texts[i] != wants[i] {
			t.Errorf("text %d changed to %q after later reads; want %q", i, texts[i], wants[i])
		}
	}
	if _, err := ReadText(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("a missing file: no error")
	}
}
