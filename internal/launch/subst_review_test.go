package launch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The expectations below are what the real launch, launch_xml and
// launch_ros of Humble and Jazzy (run from source, fake executables
// printing their argv and parameters files) gave for the same files
// (review of 2026-11-23); both distributions agreed on every case.

// TestBackslashEscapes: launch drops a backslash before any character in
// attribute text, then splits args with shlex, which reads the backslashes
// left; \$( is text, not a substitution. Real launch printed
//
//	ARGV: [a] [b] [--re] [d+] [$(var] [x)]        and dir: C:temp
//	ARGV: [a"b] [c\d] [e\f] [q r] [t"u"]
//	ARGV: [\$(var] [y)] [Z] [Y] [Z] [a'b]
//	ARGV: [] [|a Y d] [x$Y] [a$(var] [y)]         and p: a'b
//
// navlaunch kept the backslashes (dir: C:\temp, '\d+') and failed on
// \$(var x) with "unclosed $(".
func TestBackslashEscapes(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="x" default="X"/>
  <arg name="y" default="Y"/>
  <arg name="y)" default="Z"/>
  <node pkg="demo" exec="a" args="a\ b --re '\d+' \$(var x)">
    <param name="dir" value="C:\temp"/>
  </node>
  <node pkg="demo" exec="b" args="&quot;a\\&quot;b&quot; 'c\\d' e\\\\f &quot;q\ r&quot; t\\&quot;u\\&quot;"/>
  <node pkg="demo" exec="c" args="\\\\$(var y) $(var y\)) $(var 'y' '\d') $(var &quot;y\)&quot;) $(var z 'a\'b')"/>
  <node pkg="demo" exec="d" args="$(var z '') $(var z &quot;&quot;)|$(var z 'a $(var y &quot;b) d') x$$(var y) a\$(var y)">
    <param name="p" value="a\'b"/>
  </node>
</launch>`, nil)
	require.NoError(t, err)
	require.Len(t, procs, 4)
	require.Equal(t, []string{"a", "b", "--re", "d+", "$(var", "x)"}, procs[0].Args[:6])
	require.Equal(t, "/**:\n    ros__parameters:\n        dir: C:temp\n", readFile(t, paramsFile(t, procs[0])))
	require.Equal(t, []string{`a"b`, `c\d`, `e\f`, "q r", `t"u"`}, procs[1].Args)
	require.Equal(t, []string{`\$(var`, "y)", "Z", "Y", "Z", "a'b"}, procs[2].Args)
	require.Equal(t, []string{"", "|a Y d", "x$Y", "a$(var", "y)"}, procs[3].Args[:5])
	require.Equal(t, "/**:\n    ros__parameters:\n        p: a'b\n", readFile(t, paramsFile(t, procs[3])))
}

// TestArgsSplitAroundSubstitutions: launch splits the text between
// substitutions, each on its own, with shlex.split, so a quote cannot
// span a substitution, and a text of spaces only ends a word even when it
// is empty. Real launch refused -p 'x:=$(var y) z' and 'a $(var y)' with
// "ValueError: No closing quotation", and printed
//
//	ARGV: [Y b] [a bY] [-p] [x:=Yz] [w] [s p]   for the first node below
//	ARGV: [] [Y]                                for args=" $(var y)"
//	ARGV: []                                    for args="" and args="  "
//
// navlaunch gave [-p] [x:=Y z] and [a Y] for the quoted ones, and no empty
// argument.
func TestArgsSplitAroundSubstitutions(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="y" default="Y"/>
  <arg name="s" default="s p"/>
  <node pkg="demo" exec="a" args="$(var y)' b' 'a b'$(var y) -p x:=$(var y)z w $(var s)"/>
  <node pkg="demo" exec="a" args=" $(var y)"/>
  <node pkg="demo" exec="a" args=""/>
  <node pkg="demo" exec="a" args="  "/>
</launch>`, nil)
	require.NoError(t, err)
	require.Len(t, procs, 4)
	require.Equal(t, []string{"Y b", "a bY", "-p", "x:=Yz", "w", "s p"}, procs[0].Args)
	require.Equal(t, []string{"", "Y"}, procs[1].Args)
	require.Equal(t, []string{""}, procs[2].Args)
	require.Equal(t, []string{""}, procs[3].Args)
	for _, args := range []string{`-p 'x:=$(var y) z'`, `'a $(var y)'`} {
		_, err := loadText(t, `<launch><arg name="y" default="Y"/><node pkg="demo" exec="a" args="`+args+`"/></launch>`, nil)
		require.ErrorIs(t, err, ErrSyntax, args)
		require.ErrorContains(t, err, "no closing quotation", args)
	}
}

// TestSubstitutionsCheckedInBranchesOff: launch parses a whole file before
// it runs any of it, so it refuses, even in a branch that is off, a
// substitution argument set off by two spaces ("UnexpectedCharacters: No
// terminal matches ' '"), an unknown substitution ("Unknown substitution:
// vr"), a quote in args that is never closed, and if with unless. navlaunch
// accepted all four (and the first anywhere, as $(var x)).
func TestSubstitutionsCheckedInBranchesOff(t *testing.T) {
	for name, c := range map[string]struct {
		el, want string
		line     int
		is       error
	}{
		"two spaces":    {`<node pkg="demo" exec="a" args="$(var  x)"/>`, "want an argument", 3, ErrSubstitution},
		"space in $( ":  {`<node pkg="demo" exec="a" args="$( var x)"/>`, "want a substitution name", 3, ErrSubstitution},
		"unknown":       {`<group><node pkg="demo" exec="a" args="$(vr x)"/></group>`, "$(vr) is not supported", 3, ErrSubstitution},
		"quote":         {`<node pkg="demo" exec="a" args="'a"/>`, "no closing quotation", 3, ErrSyntax},
		"if and unless": {`<node pkg="demo" exec="a" if="true" unless="false"/>`, "if and unless", 3, ErrSyntax},
	} {
		_, err := loadText(t, "<launch>\n  <arg name=\"x\" default=\"X\"/>\n  <group if=\"false\">"+c.el+"</group>\n"+
			"  <node pkg=\"demo\" exec=\"a\" args=\"on\"/>\n</launch>", nil)
		require.ErrorIs(t, err, c.is, name)
		require.ErrorContains(t, err, c.want, name)
		var pe *PosError
		require.ErrorAs(t, err, &pe, name)
		require.Equal(t, c.line, pe.Line, name)
	}
}

// TestAttributeWhitespace: the XML parser launch uses turns a literal tab,
// newline or carriage return in an attribute value into a space, and
// keeps the one a character reference gives; encoding/xml keeps both, so
// "$(var\nx)", fine before arguments had to be set off by one space, would
// now be refused. Real launch printed [X] [y] [p  q] [p\nq\tr\r]; navlaunch
// gave 'p\n\tq' for the third.
func TestAttributeWhitespace(t *testing.T) {
	procs, err := loadText(t, "<launch>\n  <arg name=\"x\" default=\"X\"/>\n"+
		"  <node pkg=\"demo\" exec=\"a\" args=\"$(var\nx)\ty 'p\n\tq' &quot;p&#10;q&#x9;r&#13;&quot;\"/>\n</launch>", nil)
	require.NoError(t, err)
	require.Equal(t, []string{"X", "y", "p  q", "p\nq\tr\r"}, procs[0].Args)
}

// TestParamEscapeStaysString: launch types a <param value> without
// substitutions from its text as written (yaml.safe_load), then drops
// the backslashes of a string. The real launch (Humble and Jazzy, a
// review of 2026-11-23) wrote p1: '1', p2: 'true', p3: '[1, 2]'; with
// backslashes dropped first navlaunch wrote the integer 1, the boolean
// true and a list.
func TestParamEscapeStaysString(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <node pkg="demo" exec="a">
    <param name="p1" value="\1"/>
    <param name="p2" value="tru\e"/>
    <param name="p3" value="\[1, 2]"/>
    <param name="p4" value="2"/>
  </node>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, "/**:\n    ros__parameters:\n        p1: \"1\"\n        p2: \"true\"\n        p3: '[1, 2]'\n        p4: 2\n",
		readFile(t, paramsFile(t, procs[0])))
}

// TestParamValueIsYAMLBeforeSubstitution: launch_xml reads a <param
// value> as YAML before it looks for substitutions, and launch_ros types
// their value as YAML again. Real launch (Humble and Jazzy) wrote, for
// x:=1: sq_var: 1, dq_var: 1, sq_avar: a1, sq_1: '1', dq_1: '1',
// plain_var: 1, sq_in: a'1', sq_sp: 1, list_var: [1, 2], sq_list: [1, 2],
// dq_esc: $(var x), sq_esc: '1' (one parameters file each).
func TestParamValueIsYAMLBeforeSubstitution(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <arg name="x" default="1"/>
  <node pkg="demo" exec="a">
    <param name="sq_var" value="'$(var x)'"/>
    <param name="dq_var" value="&quot;$(var x)&quot;"/>
    <param name="sq_avar" value="'a$(var x)'"/>
    <param name="sq_1" value="'1'"/>
    <param name="dq_1" value="&quot;1&quot;"/>
    <param name="plain_var" value="$(var x)"/>
    <param name="sq_in" value="a'$(var x)'"/>
    <param name="sq_sp" value=" '$(var x)' "/>
    <param name="list_var" value="[$(var x), 2]"/>
    <param name="sq_list" value="['$(var x)', 2]"/>
    <param name="dq_esc" value="&quot;\\$(var x)&quot;"/>
    <param name="sq_esc" value="'\1'"/>
  </node>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, `/**:
    ros__parameters:
        sq_var: 1
        dq_var: 1
        sq_avar: a1
        sq_1: '1'
        dq_1: "1"
        plain_var: 1
        sq_in: a'1'
        sq_sp: 1
        list_var: [1, 2]
        sq_list: [1, 2]
        dq_esc: $(var x)
        sq_esc: "1"
`, readFile(t, paramsFile(t, procs[0])))
}

// TestParamValuesLaunchRefuses: real launch (Humble and Jazzy) refused
// value="null", "~", "a: $(var x)", "[1, 2.5]" and "2001-01-01" when it
// parsed the file ("Attribute 'value' of Entity 'param' expected to be of
// type 'None'"), "[$(var x), a]" once substituted ("The output list is
// not uniform"), and value="$(var x)" for x:=null, x:='a: b' and
// x:='[1, a]' ("Failed to convert ... using yaml rules: output type is
// not allowed"); an empty x gave the empty string.
func TestParamValuesLaunchRefuses(t *testing.T) {
	file := func(value string) string {
		return `<launch>
  <arg name="x" default="1"/>
  <group if="false"><node pkg="demo" exec="off"><param name="p" value="` + value + `"/></node></group>
  <node pkg="demo" exec="a"><param name="p" value="` + value + `"/></node>
</launch>`
	}
	for _, v := range []string{"null", "~", "a: $(var x)", "[1, 2.5]", "2001-01-01"} {
		_, err := loadText(t, file(v), nil)
		require.ErrorIs(t, err, ErrSyntax, v)
		require.ErrorContains(t, err, ":3:", v) // in the branch that is off
	}
	_, err := loadText(t, file("[$(var x), a]"), nil)
	require.ErrorIs(t, err, ErrSubstitution)
	for _, x := range []string{"null", "a: b", "[1, a]"} {
		_, err := loadText(t, file("$(var x)"), map[string]string{"x": x})
		require.ErrorIs(t, err, ErrSubstitution, x)
	}
	procs, err := loadText(t, file("$(var x)"), map[string]string{"x": ""})
	require.NoError(t, err)
	require.Equal(t, "/**:\n    ros__parameters:\n        p: \"\"\n", readFile(t, paramsFile(t, procs[0])))
}

// TestParamValueWithTextAfterIt: go-yaml reads "'a'x" as the string a
// and "[1, 2]x" as [1, 2], dropping what follows; PyYAML fails on both,
// so real launch (Humble and Jazzy, 2026-11-24) kept them as written
// (p: ”'a”x' and q: '[1, 2]x'), read "'a' # c" as a, and refused
// value="'$(var x)'x" for x:=1 and value="$(var x)" for x:="'a'x"
// ("Failed to convert ”1'x' using yaml rules: yaml.safe_load() failed").
func TestParamValueWithTextAfterIt(t *testing.T) {
	procs, err := loadText(t, `<launch>
  <node pkg="demo" exec="a">
    <param name="p" value="'a'x"/>
    <param name="q" value="[1, 2]x"/>
    <param name="c" value="'a' # c"/>
  </node>
</launch>`, nil)
	require.NoError(t, err)
	require.Equal(t, `/**:
    ros__parameters:
        p: '''a''x'
        q: '[1, 2]x'
        c: 'a'
`, readFile(t, paramsFile(t, procs[0])))
	file := `<launch>
  <arg name="x" default="1"/>
  <node pkg="demo" exec="a"><param name="p" value="VALUE"/></node>
</launch>`
	_, err = loadText(t, strings.Replace(file, "VALUE", "'$(var x)'x", 1), nil)
	require.ErrorIs(t, err, ErrSubstitution)
	_, err = loadText(t, strings.Replace(file, "VALUE", "$(var x)", 1), map[string]string{"x": "'a'x"})
	require.ErrorIs(t, err, ErrSubstitution)
}
