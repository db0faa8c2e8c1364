package inrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// EscapeError is a path whose resolution leaves the repository.
type EscapeError struct {
	// Path is the path as the caller named it, under the repository.
	Path string
}

func (e *EscapeError) Error() string {
	return e.Path + ": a symbolic link on this path leads out of the repository: refusing to read through it"
}

// ReadFile reads the file at rel, a slash-separated path relative to the
// repository at repo, following symbolic links that stay inside it.
func ReadFile(repo, rel string) ([]byte, error) {
	r, err := os.OpenRoot(repo)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := r.ReadFile(filepath.FromSlash(rel))
	return data, classify(repo, rel, err)
}

// Stat is os.Stat of rel under repo, following symbolic links that stay
// inside it.
func Stat(repo, rel string) (fs.FileInfo, error) {
	r, err := os.OpenRoot(repo)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	info, err := r.Stat(filepath.FromSlash(rel))
	return info, classify(repo, rel, err)
}

// Inside returns file's path relative to repo when file lies under it
// (lexically: links are not resolved), and false otherwise.
func Inside(repo, file string) (string, bool) {
	absRepo, err1 := filepath.Abs(repo)
	absFile, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(absRepo, absFile)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// errEscapes is the text of os.Root's error for a path that leaves the
// root, which the os package does not export (TestEscapeErrorText).
const errEscapes = "path escapes from parent"

// classify turns os.Root's refusal into an *EscapeError.
func classify(repo, rel string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == errEscapes {
		return &EscapeError{Path: filepath.Join(repo, filepath.FromSlash(rel))}
	}
	return err
}
