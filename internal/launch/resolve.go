package launch

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Self is the package this repository is.
const Self = "navnode"

// Packages finds packages and executables for Load: navnode in this
// repository (or wherever Share and Bin say), every package in the ament
// prefixes of AMENT_PREFIX_PATH as ros2 launch does, and executables of
// other packages on PATH, so a launch file naming a package this machine
// lacks (ros_gz_bridge without ROS) fails with "package NAME not found".
type Packages struct {
	// Share is what $(find-pkg-share navnode) gives: the repository root, or
	// an install's share/navnode. "" looks in AMENT_PREFIX_PATH.
	Share string
	// Bin is a directory holding navnode's executables (navnode, navsim),
	// searched before the ament prefixes and PATH; "" for none.
	Bin string
	// LookupEnv reads AMENT_PREFIX_PATH and PATH; nil is os.LookupEnv.
	LookupEnv func(name string) (string, bool)
}

func (p Packages) env(name string) string {
	lookup := p.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	v, _ := lookup(name)
	return v
}

// prefixes returns the ament prefixes, in search order.
func (p Packages) prefixes() []string {
	return filepath.SplitList(p.env("AMENT_PREFIX_PATH"))
}

// PackageShare returns pkg's share directory.
func (p Packages) PackageShare(pkg string) (string, error) {
	if pkg == Self && p.Share != "" {
		return p.Share, nil
	}
	for _, prefix := range p.prefixes() {
		dir := filepath.Join(prefix, "share", pkg)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir, nil
		}
	}
	return "", fmt.Errorf("package %s %w (no share/%s in AMENT_PREFIX_PATH=%q)", pkg, ErrNotFound, pkg, p.env("AMENT_PREFIX_PATH"))
}

// Executable returns the path of executable exe of package pkg: for
// navnode in Bin first; then in the ament prefixes' lib/PKG; then on PATH.
func (p Packages) Executable(pkg, exe string) (string, error) {
	if exe == "" || strings.ContainsRune(exe, '/') || exe == "." || exe == ".." {
		return "", fmt.Errorf("executable %q of package %s: want a plain file name", exe, pkg)
	}
	var dirs []string
	if pkg == Self && p.Bin != "" {
		dirs = append(dirs, p.Bin)
	}
	for _, prefix := range p.prefixes() {
		dirs = append(dirs, filepath.Join(prefix, "lib", pkg))
	}
	dirs = append(dirs, filepath.SplitList(p.env("PATH"))...)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, exe)
		if isExecutable(path) {
			return path, nil
		}
	}
	if pkg == Self {
		if p.Bin == "" {
			return "", fmt.Errorf("executable %s of package %s %w in AMENT_PREFIX_PATH or PATH, and no bin directory is set"+
				" (build it: go build -o build/bin/%s ./cmd/%s, then navlaunch -bin build/bin)", exe, pkg, ErrNotFound, exe, exe)
		}
		return "", fmt.Errorf("executable %s of package %s %w in %s, AMENT_PREFIX_PATH or PATH (build it: go build -o %s ./cmd/%s)",
			exe, pkg, ErrNotFound, p.Bin, filepath.Join(p.Bin, exe), exe)
	}
	if _, err := p.PackageShare(pkg); err != nil {
		return "", fmt.Errorf("package %s %w (no %s in AMENT_PREFIX_PATH or PATH; is ROS 2 installed and sourced?)",
			pkg, ErrNotFound, exe)
	}
	return "", fmt.Errorf("executable %s of package %s %w in the ament prefixes or PATH", exe, pkg, ErrNotFound)
}

// ShareOf guesses navnode's share directory from a launch file: the parent
// of the launch/ directory holding it when that is navnode's package (its
// package.xml names navnode), as this repository and an install's
// share/navnode are; "" otherwise, so that a launch file of another
// package finds navnode through AMENT_PREFIX_PATH.
func ShareOf(launchFile string) string {
	abs, err := filepath.Abs(launchFile)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) != "launch" {
		return ""
	}
	pkg := filepath.Dir(dir)
	b, err := os.ReadFile(filepath.Join(pkg, "package.xml"))
	if err != nil || !packageNamed(b, Self) {
		return ""
	}
	return pkg
}

// packageNamed reports whether a package.xml names the package name.
func packageNamed(packageXML []byte, name string) bool {
	var p struct {
		Name string `xml:"name"`
	}
	return xml.Unmarshal(packageXML, &p) == nil && strings.TrimSpace(p.Name) == name
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
