package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// An export into a local folder (directory, or a destination that is a
// path or a file:// URL). The export's folder is created with os.Mkdir,
// which fails when the name exists, so an export never writes into (or
// over) an earlier one. Every file is written to a temporary name in the
// folder, synced, then renamed into place.

// folderStore writes an export into a new folder of parent.
type folderStore struct {
	parent  string
	dir     string   // the export's folder, once begun
	written []string // files renamed into place so far
}

// NewFolderStore is the store of exports into new folders of parent
// (created at the first export, if missing).
func NewFolderStore(parent string) *folderStore { return &folderStore{parent: parent} }

// Close does nothing: a folder holds nothing open.
func (s *folderStore) Close() error { return nil }

// Location is the export's folder, or its parent before it begins.
func (s *folderStore) Location() string {
	if s.dir == "" {
		return s.parent
	}
	return s.dir
}

// begin creates the folder name in parent (parent too, if missing). It
// fails with ErrExists when the folder exists.
func (s *folderStore) begin(_ context.Context, name string) error {
	if err := os.MkdirAll(s.parent, 0o750); err != nil {
		return err
	}
	dir := filepath.Join(s.parent, name)
	if err := os.Mkdir(dir, 0o750); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", ErrExists, dir)
		}
		return err
	}
	s.dir = dir
	return nil
}

// put writes name atomically: into a temporary file of the folder, synced
// and closed, then renamed into place.
func (s *folderStore) put(_ context.Context, name, _ string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(s.dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriter(tmp)
	if err := write(buf); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(s.dir, name), err)
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(s.dir, name), err)
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	final := filepath.Join(s.dir, name)
	if err := os.Rename(tmp.Name(), final); err != nil {
		return err
	}
	s.written = append(s.written, final)
	return nil
}

// discard removes what the export wrote, then its folder, so that a failed
// export leaves nothing that looks like an export. Only its own files are
// removed: if anything else has appeared in the folder, the folder stays.
// What could not be removed is in the error, a *CleanupError.
func (s *folderStore) discard(context.Context) error {
	if s.dir == "" {
		return nil
	}
	ce := &CleanupError{Where: s.dir}
	var errs []error
	for _, f := range s.written {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			ce.Left = append(ce.Left, filepath.Base(f))
			errs = append(errs, err)
		}
	}
	if err := os.Remove(s.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if len(ce.Left) == 0 {
			ce.Left = append(ce.Left, "the folder itself")
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil
	}
	ce.Err = errors.Join(errs...)
	return ce
}
