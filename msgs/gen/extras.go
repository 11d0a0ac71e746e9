package main

import (
	"fmt"
	"path"
	"strings"
)

// docFile returns the package documentation of j's Go package.
func (g *generator) docFile(j *job) []byte {
	var s source
	s.p("%s from %s/%s/msg/*.msg. DO NOT EDIT.\n", genHeader, j.set, j.pkg)
	s.p("// Package %s holds the ROS 2 messages of the %s package (%d types), with", j.pkg, j.pkg, len(j.specs))
	s.p("// their XCDR1 codecs. Each type's fields carry `ros:\"name\"` tags with the")
	s.p("// ROS field name and, for bounded fields, strmax=N and max=N.")
	s.p("package %s", j.pkg)
	return s.Bytes()
}

// fuzzFile returns a test file with one fuzz target per message of j.
func (g *generator) fuzzFile(j *job) []byte {
	var s source
	s.p("%s. DO NOT EDIT.\n", genHeader)
	s.p("package %s_test\n", j.pkg)
	s.p("import (\n%q\n\n%q\n%q\n%q\n)\n", "testing", g.module, g.importPath(j), g.module+"/internal/msgtest")
	for _, spec := range j.specs {
		s.p("func Fuzz%s(f *testing.F) {", spec.Name)
		s.p("msgtest.Fuzz(f, func() msgs.Message { return new(%s.%s) })\n}\n", j.pkg, spec.Name)
	}
	return s.Bytes()
}

// writeList writes a Go package that lists every generated type.
func (g *generator) writeList(file string) error {
	alias := map[*job]string{}
	used := map[string]int{}
	for _, j := range g.jobs {
		used[j.pkg]++
	}
	for _, j := range g.jobs {
		alias[j] = j.pkg
		if used[j.pkg] > 1 {
			alias[j] = strings.ReplaceAll(j.outDir, "/", "_")
		}
	}
	var s source
	s.p("%s. DO NOT EDIT.\n", genHeader)
	s.p("// Package %s lists every generated message type, for tests that cover them all.", path.Base(path.Dir(file)))
	s.p("package %s\n", path.Base(path.Dir(file)))
	s.p("import (\n%q", g.module)
	for _, j := range g.jobs {
		s.p("%s %q", alias[j], g.importPath(j))
	}
	s.p(")\n")
	s.p("// Entry is one generated message type.")
	s.p("type Entry struct {")
	s.p("Set string // the definition set it was generated from, e.g. \"jazzy\"")
	s.p("New func() msgs.Message // returns a new zero value\n}\n")
	s.p("// Entries lists every generated message type, in generation order.")
	s.p("var Entries = []Entry{")
	for _, j := range g.jobs {
		for _, spec := range j.specs {
			s.p("{%q, func() msgs.Message { return new(%s.%s) }},", j.set, alias[j], spec.Name)
		}
	}
	s.p("}")
	if err := g.write(file, s.Bytes()); err != nil {
		return fmt.Errorf("-list: %w", err)
	}
	return nil
}
