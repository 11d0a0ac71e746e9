package msgdef

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Set holds the messages of the packages found on a search path, loaded on
// demand. Each search directory holds packages as <pkg>/msg/<Type>.msg.
type Set struct {
	dirs  []string
	specs map[string]*Spec   // by reference, "pkg/Type"
	pkgs  map[string][]*Spec // loaded packages, sorted by type name
}

// NewSet returns a Set that searches dirs in order.
func NewSet(dirs ...string) *Set {
	return &Set{dirs: dirs, specs: map[string]*Spec{}, pkgs: map[string][]*Spec{}}
}

// Package returns every message of pkg, sorted by name, from the first
// search directory that has the package.
func (s *Set) Package(pkg string) ([]*Spec, error) {
	if specs, ok := s.pkgs[pkg]; ok {
		return specs, nil
	}
	for _, dir := range s.dirs {
		pkgDir, err := filepath.Abs(filepath.Join(dir, pkg))
		if err != nil {
			return nil, err
		}
		files, err := filepath.Glob(filepath.Join(pkgDir, "msg", "*.msg"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			continue
		}
		slices.Sort(files)
		specs := make([]*Spec, 0, len(files))
		for _, f := range files {
			spec, err := parseFile(pkg, f)
			if err != nil {
				return nil, err
			}
			spec.Dir = pkgDir
			s.specs[spec.Ref()] = spec
			specs = append(specs, spec)
		}
		s.pkgs[pkg] = specs
		return specs, nil
	}
	return nil, fmt.Errorf("package %s: no %s/msg/*.msg under %s: %w", pkg, pkg, strings.Join(s.dirs, ", "), fs.ErrNotExist)
}

func parseFile(pkg, path string) (*Spec, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(pkg, strings.TrimSuffix(filepath.Base(path), ".msg"), string(text))
}

// Lookup returns the message "pkg/Type", loading its package if needed.
func (s *Set) Lookup(ref string) (*Spec, error) {
	pkg, _, _ := strings.Cut(ref, "/")
	if _, err := s.Package(pkg); err != nil {
		return nil, err
	}
	if spec, ok := s.specs[ref]; ok {
		return spec, nil
	}
	return nil, fmt.Errorf("message %s not found: %w", ref, fs.ErrNotExist)
}

// Deps returns the messages that spec references, directly or through other
// messages, sorted by reference. A reference cycle is an error.
func (s *Set) Deps(spec *Spec) ([]*Spec, error) {
	seen := map[string]*Spec{}
	if err := s.collect(spec, seen, map[string]bool{spec.Ref(): true}); err != nil {
		return nil, err
	}
	deps := make([]*Spec, 0, len(seen))
	for _, d := range seen {
		deps = append(deps, d)
	}
	slices.SortFunc(deps, func(a, b *Spec) int { return strings.Compare(a.Ref(), b.Ref()) })
	return deps, nil
}

var errCycle = errors.New("reference cycle")

func (s *Set) collect(spec *Spec, seen map[string]*Spec, onPath map[string]bool) error {
	for _, f := range spec.Fields {
		if f.Type.IsPrimitive() {
			continue
		}
		if onPath[f.Type.Name] {
			return fmt.Errorf("%s: field %s: %w", spec.FullName(), f.Name, errCycle)
		}
		if _, ok := seen[f.Type.Name]; ok {
			continue
		}
		dep, err := s.Lookup(f.Type.Name)
		if err != nil {
			return fmt.Errorf("%s: field %s: %w", spec.FullName(), f.Name, err)
		}
		seen[dep.Ref()] = dep
		onPath[dep.Ref()] = true
		if err := s.collect(dep, seen, onPath); err != nil {
			return err
		}
		delete(onPath, dep.Ref())
	}
	return nil
}
