package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Every entry gets this modification time, so the same input gives the same archive
// bytes (and digests) on every read: a stack's plan stays empty until its sources change.
var epoch = time.Date(1980, time.January, 1, 0, 0, 0, 0, time.UTC)

// entry is one file of the archive: its name inside it, and a file to copy or content.
type entry struct {
	name    string
	mode    fs.FileMode
	file    string
	content []byte
}

type spec struct {
	kind    string
	output  string
	mode    *fs.FileMode
	entries []entry
}

// specOf turns the configuration into the archive to write, or says what is wrong with it.
func specOf(model *fileModel, excludes []string) (*spec, error) {
	s := &spec{kind: model.Type.ValueString(), output: model.OutputPath.ValueString()}
	if s.kind != "zip" && s.kind != "tar.gz" {
		return nil, fmt.Errorf("archive type not supported: %s (zip or tar.gz)", s.kind)
	}
	if m := model.OutputFileMode.ValueString(); m != "" {
		parsed, err := strconv.ParseUint(m, 8, 32)
		if err != nil {
			return nil, fmt.Errorf("output_file_mode %q is not an octal file mode", m)
		}
		mode := fs.FileMode(parsed)
		s.mode = &mode
	}
	given := 0
	for _, set := range []bool{len(model.Source) > 0, !model.SourceContent.IsNull(),
		!model.SourceFile.IsNull(), !model.SourceDir.IsNull()} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, errors.New("exactly one of source, source_content (with " +
			"source_content_filename), source_file or source_dir must be given")
	}
	var err error
	switch {
	case len(model.Source) > 0:
		for _, src := range model.Source {
			s.entries = append(s.entries, entry{name: src.Filename.ValueString(), mode: 0o644,
				content: []byte(src.Content.ValueString())})
		}
		sort.Slice(s.entries, func(i, j int) bool { return s.entries[i].name < s.entries[j].name })
	case !model.SourceContent.IsNull():
		if model.SourceContentFilename.IsNull() {
			return nil, errors.New("source_content_filename must be given with source_content")
		}
		s.entries = []entry{{name: model.SourceContentFilename.ValueString(), mode: 0o644,
			content: []byte(model.SourceContent.ValueString())}}
	case !model.SourceFile.IsNull():
		err = s.addFile(model.SourceFile.ValueString())
	default:
		err = s.addDir(model.SourceDir.ValueString(), excludes, model.ExcludeSymlinkDirectories.ValueBool())
	}
	return s, err
}

func (s *spec) addFile(file string) error {
	info, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("could not archive missing file: %s", file)
	}
	if info.IsDir() {
		return fmt.Errorf("source_file %s is a directory (use source_dir)", file)
	}
	s.entries = append(s.entries, entry{name: filepath.Base(file), mode: info.Mode().Perm(), file: file})
	return nil
}

// addDir adds every file under dir (following symbolic links, to directories too unless
// skipSymlinkDirs), named by its path relative to dir, except what `excludes` names
// (a relative path, a directory under which everything is excluded, or a glob) and the
// archive itself.
func (s *spec) addDir(dir string, excludes []string, skipSymlinkDirs bool) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("could not archive missing directory: %s", dir)
	}
	output, _ := filepath.Abs(s.output)
	var walk func(real, rel string) error
	walk = func(real, rel string) error {
		items, err := os.ReadDir(real)
		if err != nil {
			return err
		}
		for _, item := range items {
			full, name := filepath.Join(real, item.Name()), path.Join(rel, item.Name())
			info, err := os.Stat(full)
			if err != nil {
				return fmt.Errorf("could not archive %s: %w", full, err)
			}
			abs, _ := filepath.Abs(full)
			switch {
			case excluded(name, excludes) || abs == output:
			case info.IsDir() && item.Type()&fs.ModeSymlink != 0 && skipSymlinkDirs:
			case info.IsDir():
				if err := walk(full, name); err != nil {
					return err
				}
			default:
				s.entries = append(s.entries, entry{name: name, mode: info.Mode().Perm(), file: full})
			}
		}
		return nil
	}
	return walk(dir, "")
}

func excluded(name string, excludes []string) bool {
	for _, pattern := range excludes {
		pattern = strings.TrimSuffix(filepath.ToSlash(pattern), "/")
		if matched, _ := path.Match(pattern, name); matched || name == pattern ||
			strings.HasPrefix(name, pattern+"/") {
			return true
		}
	}
	return false
}

// write writes the archive to a temporary file beside output_path, then renames it.
func (s *spec) write() error {
	if err := os.MkdirAll(filepath.Dir(s.output), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.output), ".archive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if s.kind == "zip" {
		err = s.writeZip(tmp)
	} else {
		err = s.writeTarGz(tmp)
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("could not write %s: %w", s.output, err)
	}
	return os.Rename(tmp.Name(), s.output)
}

func (s *spec) modeOf(e entry) fs.FileMode {
	if s.mode != nil {
		return *s.mode
	}
	return e.mode
}

func (e entry) copyTo(w io.Writer) error {
	if e.file == "" {
		_, err := w.Write(e.content)
		return err
	}
	f, err := os.Open(e.file)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func (s *spec) writeZip(out io.Writer) error {
	z := zip.NewWriter(out)
	for _, e := range s.entries {
		header := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: epoch}
		header.SetMode(s.modeOf(e))
		w, err := z.CreateHeader(header)
		if err != nil {
			return err
		}
		if err := e.copyTo(w); err != nil {
			return err
		}
	}
	return z.Close()
}

func (s *spec) writeTarGz(out io.Writer) error {
	gz := gzip.NewWriter(out)
	t := tar.NewWriter(gz)
	for _, e := range s.entries {
		size := int64(len(e.content))
		if e.file != "" {
			info, err := os.Stat(e.file)
			if err != nil {
				return err
			}
			size = info.Size()
		}
		header := &tar.Header{Name: e.name, Mode: int64(s.modeOf(e)), Size: size, ModTime: epoch,
			Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := t.WriteHeader(header); err != nil {
			return err
		}
		if err := e.copyTo(t); err != nil {
			return err
		}
	}
	if err := t.Close(); err != nil {
		return err
	}
	return gz.Close()
}
