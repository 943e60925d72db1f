package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// stateFile is the JSON document of Options.StateFile.
type stateFile struct {
	Version  int       `json:"version"`
	NextID   int64     `json:"next_id"`
	Websites []Website `json:"websites"`
	// Statistics are the websites' recorded statistics (absent in files
	// written before the emulator recorded any).
	Statistics []storedStatistic `json:"statistics,omitempty"`
}

// storedStatistic is one statistics row in the state file.
type storedStatistic struct {
	WebsiteID int64 `json:"website_id"`
	Statistic
}

// load reads the state file, if it exists. Callers own e exclusively.
func (e *Emulator) load() error {
	raw, err := os.ReadFile(e.opts.StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var st stateFile
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("%s: %w", e.opts.StateFile, err)
	}
	if st.Version != 1 {
		return fmt.Errorf("%s: unsupported state version %d", e.opts.StateFile, st.Version)
	}
	e.nextID = max(st.NextID, 1)
	for _, w := range st.Websites {
		if w.ID <= 0 {
			return fmt.Errorf("%s: website with invalid id %d", e.opts.StateFile, w.ID)
		}
		w := w.clone()
		e.websites[w.ID] = &w
		if w.ID >= e.nextID {
			e.nextID = w.ID + 1
		}
	}
	for _, r := range st.Statistics {
		if _, ok := e.websites[r.WebsiteID]; !ok {
			continue // its website is gone: deleted with it
		}
		m := e.statistics[r.WebsiteID]
		if m == nil {
			m = map[statKey]int{}
			e.statistics[r.WebsiteID] = m
		}
		m[statKey{name: r.Name, value: r.Value, date: r.Date}] += r.Count
	}
	return nil
}

// persistLocked writes the state file, if one is configured, and records the
// outcome in e.persistErr. Callers hold e.mu.
func (e *Emulator) persistLocked() error {
	if e.opts.StateFile == "" {
		return nil
	}
	st := stateFile{Version: 1, NextID: e.nextID, Websites: make([]Website, 0, len(e.websites))}
	for _, w := range e.websites {
		st.Websites = append(st.Websites, *w)
	}
	sort.Slice(st.Websites, func(i, j int) bool { return st.Websites[i].ID < st.Websites[j].ID })
	for _, w := range st.Websites {
		for k, n := range e.statistics[w.ID] {
			st.Statistics = append(st.Statistics, storedStatistic{WebsiteID: w.ID,
				Statistic: Statistic{Name: k.name, Value: k.value, Date: k.date, Count: n}})
		}
	}
	sort.Slice(st.Statistics, func(i, j int) bool {
		a, b := st.Statistics[i], st.Statistics[j]
		if a.WebsiteID != b.WebsiteID {
			return a.WebsiteID < b.WebsiteID
		}
		return a.Name+"\x00"+a.Date+"\x00"+a.Value < b.Name+"\x00"+b.Date+"\x00"+b.Value
	})
	e.persistErr = writeFileAtomic(e.opts.StateFile, st)
	return e.persistErr
}

// writeFileAtomic writes v as indented JSON to a temporary file beside path
// and renames it over path.
func writeFileAtomic(path string, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	raw = append(raw, '\n')
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(raw)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
