// Package shareddata locates the project's shared data directory: real ROS 2
// interface definitions, maps and benchmarks that the project reads but does
// not copy. It is ../shared beside the module root, or $NAVNODE_SHARED.
package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the shared data directory.
func Root() (string, error) {
	if dir := os.Getenv("NAVNODE_SHARED"); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared"), nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no go.mod above %s", wd)
		}
	}
}

// Path returns a path under the shared data directory. Tests that need the
// data fail, not skip, when it is missing: it is the ground truth they check.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared data missing (%v): put the shared directory beside the module or set NAVNODE_SHARED", err)
	}
	return p
}
