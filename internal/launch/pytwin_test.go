package launch

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The Python launch files in launch/ are twins of the XML ones for users
// who prefer Python. ROS is not installed here, so they are not run: these
// tests check that they compile and that they declare the same arguments
// and start the same nodes, with the same arguments, parameters and
// remaps, and include the same files with the same arguments. Both sides
// are reduced to launchFacts, values written in the XML substitution
// syntax ($(var x), $(find-pkg-share p)).

// launchFacts is what a launch file does, as far as the twins go.
type launchFacts struct {
	Args     map[string]string // declared argument → default
	Nodes    []nodeFacts
	Includes []includeFacts
}

type nodeFacts struct {
	Pkg, Exec, Name, Namespace, Output string
	Args, RosArgs                      []string
	Remaps                             []string // from:=to
	Params                             []string // name:=value, or file:PATH
}

type includeFacts struct {
	File string            // without its .xml or .py
	Args map[string]string // name → value
}

func TestPythonTwins(t *testing.T) {
	xmls, err := filepath.Glob(filepath.Join("..", "..", "launch", "*.launch.xml"))
	require.NoError(t, err)
	pys, err := filepath.Glob(filepath.Join("..", "..", "launch", "*.launch.py"))
	require.NoError(t, err)
	require.Equal(t, len(xmls), len(pys), "every XML launch file has a Python twin and back")
	python, _ := exec.LookPath("python3")
	for _, x := range xmls {
		py := strings.TrimSuffix(x, ".xml") + ".py"
		t.Run(filepath.Base(py), func(t *testing.T) {
			if python == "" {
				t.Log("no python3: syntax not checked")
			} else {
				out, err := exec.Command(python, "-c",
					"import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
					py, filepath.Join(t.TempDir(), "x.pyc")).CombinedOutput()
				require.NoError(t, err, "%s", out)
			}
			want := xmlFacts(t, x)
			got := pyFacts(t, py)
			require.Equal(t, want, got)
			require.NotEmpty(t, want.Nodes)
		})
	}
}

// xnode is any XML element.
type xnode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xnode    `xml:",any"`
}

func (n xnode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func xmlFacts(t *testing.T, path string) launchFacts {
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	var root xnode
	require.NoError(t, xml.Unmarshal(text, &root))
	f := launchFacts{Args: map[string]string{}}
	for _, e := range root.Children {
		switch e.XMLName.Local {
		case "arg":
			f.Args[e.attr("name")] = e.attr("default")
		case "node":
			n := nodeFacts{Pkg: e.attr("pkg"), Exec: e.attr("exec"), Name: e.attr("name"), Namespace: e.attr("namespace"),
				Output: e.attr("output"), Args: mustSplit(e.attr("args")), RosArgs: mustSplit(e.attr("ros_args"))}
			for _, c := range e.Children {
				switch {
				case c.XMLName.Local == "remap":
					n.Remaps = append(n.Remaps, c.attr("from")+":="+c.attr("to"))
				case c.attr("from") != "":
					n.Params = append(n.Params, "file:"+c.attr("from"))
				default:
					n.Params = append(n.Params, c.attr("name")+":="+c.attr("value"))
				}
			}
			f.Nodes = append(f.Nodes, n)
		case "include":
			inc := includeFacts{File: strings.TrimSuffix(e.attr("file"), ".xml"), Args: map[string]string{}}
			for _, a := range e.Children {
				inc.Args[a.attr("name")] = a.attr("value")
			}
			f.Includes = append(f.Includes, inc)
		default:
			t.Fatalf("%s: <%s> is not compared with the Python twin; extend pytwin_test.go", path, e.XMLName.Local)
		}
	}
	return f
}

var callRE = regexp.MustCompile(`\b(DeclareLaunchArgument|Node|IncludeLaunchDescription)\(`)

func pyFacts(t *testing.T, path string) launchFacts {
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	src := string(text)
	f := launchFacts{Args: map[string]string{}}
	norm := func(expr string) string {
		v, err := pyNorm(expr)
		require.NoError(t, err, "%s", path)
		return v
	}
	list := func(expr string) []string {
		expr = strings.TrimSpace(expr)
		require.True(t, strings.HasPrefix(expr, "[") && strings.HasSuffix(expr, "]"), "not a list: %s", expr)
		return splitTop(expr[1 : len(expr)-1])
	}
	for _, m := range callRE.FindAllStringSubmatchIndex(src, -1) {
		pos, kw := pyCallArgs(t, src, m[1])
		switch src[m[2]:m[3]] {
		case "DeclareLaunchArgument":
			f.Args[norm(pos[0])] = norm(kw["default_value"])
		case "Node":
			n := nodeFacts{Pkg: norm(kw["package"]), Exec: norm(kw["executable"])}
			for key, dst := range map[string]*string{"name": &n.Name, "namespace": &n.Namespace, "output": &n.Output} {
				if v, ok := kw[key]; ok {
					*dst = norm(v)
				}
			}
			for key, dst := range map[string]*[]string{"arguments": &n.Args, "ros_arguments": &n.RosArgs} {
				if v, ok := kw[key]; ok {
					for _, item := range list(v) {
						*dst = append(*dst, norm(item))
					}
				}
			}
			if v, ok := kw["remappings"]; ok {
				for _, pair := range list(v) {
					ends := splitTop(strings.TrimSuffix(strings.TrimPrefix(pair, "("), ")"))
					require.Len(t, ends, 2, pair)
					n.Remaps = append(n.Remaps, norm(ends[0])+":="+norm(ends[1]))
				}
			}
			if v, ok := kw["parameters"]; ok {
				for _, item := range list(v) {
					if !strings.HasPrefix(item, "{") {
						n.Params = append(n.Params, "file:"+norm(item))
						continue
					}
					for _, kv := range pyDict(t, item) {
						n.Params = append(n.Params, norm(kv[0])+":="+norm(kv[1]))
					}
				}
			}
			f.Nodes = append(f.Nodes, n)
		case "IncludeLaunchDescription":
			source := strings.TrimSpace(pos[0])
			require.True(t, strings.HasPrefix(source, "PythonLaunchDescriptionSource(") && strings.HasSuffix(source, ")"), source)
			file := norm(strings.TrimSuffix(strings.TrimPrefix(source, "PythonLaunchDescriptionSource("), ")"))
			inc := includeFacts{File: strings.TrimSuffix(file, ".py"), Args: map[string]string{}}
			for _, kv := range pyDict(t, strings.TrimSuffix(strings.TrimSpace(kw["launch_arguments"]), ".items()")) {
				inc.Args[norm(kv[0])] = norm(kv[1])
			}
			f.Includes = append(f.Includes, inc)
		}
	}
	return f
}

// pyCallArgs splits the arguments of the call whose "(" ends at open into
// positional and keyword ones.
func pyCallArgs(t *testing.T, src string, open int) ([]string, map[string]string) {
	end := matching(src, open-1)
	require.Positive(t, end, "unbalanced call at offset %d", open)
	var pos []string
	kw := map[string]string{}
	for _, item := range splitTop(src[open:end]) {
		if m := regexp.MustCompile(`(?s)^(\w+)\s*=\s*(.*)$`).FindStringSubmatch(item); m != nil {
			kw[m[1]] = m[2]
		} else {
			pos = append(pos, item)
		}
	}
	return pos, kw
}

// pyDict returns the entries of a dict literal {'k': v, ...}, in order.
func pyDict(t *testing.T, expr string) [][2]string {
	expr = strings.TrimSpace(expr)
	require.True(t, strings.HasPrefix(expr, "{") && strings.HasSuffix(expr, "}"), "not a dict: %s", expr)
	var out [][2]string
	for _, entry := range splitTop(expr[1 : len(expr)-1]) {
		m := regexp.MustCompile(`(?s)^('[^']*')\s*:\s*(.*)$`).FindStringSubmatch(entry)
		require.NotNil(t, m, "dict entry %s", entry)
		out = append(out, [2]string{m[1], m[2]})
	}
	return out
}

// pyNorm writes a Python launch expression in the XML substitution syntax:
// 'text', LaunchConfiguration('x'), FindPackageShare('p'),
// PathJoinSubstitution([...]) and lists of them (concatenated).
func pyNorm(expr string) (string, error) {
	expr = strings.TrimSpace(expr)
	inner := func(prefix string) (string, bool) {
		if strings.HasPrefix(expr, prefix+"(") && matching(expr, len(prefix)) == len(expr)-1 {
			return expr[len(prefix)+1 : len(expr)-1], true
		}
		return "", false
	}
	str := regexp.MustCompile(`^'([^'\\]*)'$|^"([^"\\]*)"$`)
	if m := str.FindStringSubmatch(expr); m != nil {
		return m[1] + m[2], nil
	}
	if arg, ok := inner("LaunchConfiguration"); ok {
		name, err := pyNorm(arg)
		return "$(var " + name + ")", err
	}
	if arg, ok := inner("FindPackageShare"); ok {
		pkg, err := pyNorm(arg)
		return "$(find-pkg-share " + pkg + ")", err
	}
	sep := ""
	if arg, ok := inner("PathJoinSubstitution"); ok {
		expr, sep = strings.TrimSpace(arg), "/"
	}
	if strings.HasPrefix(expr, "[") && matching(expr, 0) == len(expr)-1 {
		var parts []string
		for _, item := range splitTop(expr[1 : len(expr)-1]) {
			v, err := pyNorm(item)
			if err != nil {
				return "", err
			}
			parts = append(parts, v)
		}
		return strings.Join(parts, sep), nil
	}
	return "", fmt.Errorf("unsupported Python expression %q (keep the twins to literals, LaunchConfiguration, FindPackageShare, PathJoinSubstitution and lists)", expr)
}

// matching returns the index of the bracket closing the one at open, or -1.
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return -1
			}
			i += j + 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTop splits s at commas outside brackets and strings, dropping
// empty items (a trailing comma).
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			if j := strings.IndexByte(s[i+1:], c); j >= 0 {
				i += j + 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	out = append(out, s[start:])
	var items []string
	for _, item := range out {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}

func TestPyNorm(t *testing.T) {
	for expr, want := range map[string]string{
		`'a'`: "a", `LaunchConfiguration('x')`: "$(var x)",
		`['/m/', LaunchConfiguration('m'), '/o']`:                                 "/m/$(var m)/o",
		`PathJoinSubstitution([FindPackageShare('navnode'), 'config', 'n.yaml'])`: "$(find-pkg-share navnode)/config/n.yaml",
	} {
		got, err := pyNorm(expr)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := pyNorm("some_variable")
	require.Error(t, err)
}

// mustSplit is rawWords on text known to be well formed; "" (no
// attribute) has no words.
func mustSplit(s string) []string {
	if s == "" {
		return nil
	}
	w, err := rawWords(s)
	if err != nil {
		panic(err)
	}
	return w
}
