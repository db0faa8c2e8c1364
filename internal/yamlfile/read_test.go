package yamlfile

import (
	"bytes"
	"io"
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
