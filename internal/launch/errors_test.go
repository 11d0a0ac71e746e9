package launch

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHostileFiles checks that every malformed file fails with the
// sentinel, the file and line of the culprit, and a message naming it.
func TestHostileFiles(t *testing.T) {
	cases := []struct {
		name, text string
		args       map[string]string
		is         error
		line       int
		msg        string
	}{
		{"unknown element", "<launch>\n  <nod pkg=\"demo\" exec=\"a\"/>\n</launch>", nil, ErrSyntax, 2, "unknown element <nod>"},
		{"unknown element after a comment", "<launch>\n<!-- a\ncomment -->\n  <arg name=\"a\" default=\"\"/><bogus/>\n</launch>", nil, ErrSyntax, 4, "unknown element <bogus>"},
		{"unknown element in a disabled group", "<launch>\n<group if=\"false\">\n  <bogus/>\n</group>\n</launch>", nil, ErrSyntax, 3, "<bogus>"},
		{"unknown attribute", "<launch>\n\n  <node pkg=\"demo\" exec=\"a\"\n        colour=\"red\"/>\n</launch>", nil, ErrSyntax, 3, `unknown attribute "colour"`},
		{"if on a param", "<launch><node pkg=\"demo\" exec=\"a\">\n<param name=\"a\" value=\"1\" if=\"true\"/></node></launch>", nil, ErrSyntax, 2, `unknown attribute "if"`},
		{"missing attribute", "<launch>\n  <node pkg=\"demo\"/>\n</launch>", nil, ErrSyntax, 2, `missing attribute "exec"`},
		{"param with name and from", "<launch><node pkg=\"demo\" exec=\"a\">\n<param name=\"a\" from=\"f.yaml\"/></node></launch>", nil, ErrSyntax, 2, "want name and value, or from"},
		{"element in the wrong place", "<launch>\n<remap from=\"a\" to=\"b\"/>\n</launch>", nil, ErrSyntax, 2, "unknown element <remap>"},
		{"child of a leaf", "<launch>\n<arg name=\"a\" default=\"1\">\n<arg name=\"b\" default=\"2\"/></arg>\n</launch>", nil, ErrSyntax, 3, "<arg> cannot hold <arg>"},
		{"text value", "<launch><node pkg=\"demo\" exec=\"a\">\n<param name=\"a\">5</param></node></launch>", nil, ErrSyntax, 2, "unexpected text"},
		{"wrong root", "<robot/>", nil, ErrSyntax, 1, "unknown element <robot>"},
		{"two roots", "<launch/>\n<launch/>", nil, ErrSyntax, 2, "second root"},
		{"unclosed element", "<launch>\n<group>\n</launch>", nil, ErrSyntax, 3, "invalid launch file"},
		{"empty file", "", nil, ErrSyntax, 1, "no <launch>"},
		{"undefined var", "<launch>\n<node pkg=\"demo\" exec=\"$(var nope)\"/>\n</launch>", nil, ErrSubstitution, 2, `undefined launch configuration "nope"`},
		{"undefined var in a param", "<launch><node pkg=\"demo\" exec=\"a\">\n\n<param name=\"a\" value=\"$(var nope)\"/></node></launch>", nil, ErrSubstitution, 3, "$(var nope)"},
		{"unset env", "<launch>\n<let name=\"a\" value=\"$(env NAVLAUNCH_TEST_UNSET)\"/>\n</launch>", nil, ErrSubstitution, 2, "NAVLAUNCH_TEST_UNSET is not set"},
		{"unknown substitution", "<launch>\n<let name=\"a\" value=\"$(eval 1+1)\"/>\n</launch>", nil, ErrSubstitution, 2, "$(eval) is not supported"},
		{"unclosed substitution", "<launch>\n<let name=\"a\" value=\"$(var a\"/>\n</launch>", nil, ErrSubstitution, 2, "unclosed $("},
		{"too many substitution args", "<launch>\n<let name=\"a\" value=\"$(var a b c)\"/>\n</launch>", nil, ErrSubstitution, 2, "takes 1 to 2"},
		{"optenv is ROS 1's", "<launch>\n<let name=\"a\" value=\"$(optenv HOME)\"/>\n</launch>", nil, ErrSubstitution, 2, "$(optenv) is not supported"},
		{"bad output", "<launch>\n<node pkg=\"demo\" exec=\"a\" output=\"scren\"/>\n</launch>", nil, ErrSyntax, 2, `output="scren"`},
		{"scoped substituted", "<launch><arg name=\"s\" default=\"false\"/>\n<group scoped=\"$(var s)\"/>\n</launch>", nil, ErrSyntax, 2, "not a substitution"},
		{"bad boolean", "<launch>\n<node pkg=\"demo\" exec=\"a\" if=\"yes\"/>\n</launch>", nil, ErrSubstitution, 2, `"yes" is not a boolean`},
		{"required argument", "<launch>\n<arg name=\"robot\" description=\"which robot\"/>\n</launch>", nil, ErrArgument, 2, `"robot" (which robot) is required`},
		{"bad node name", "<launch>\n<node pkg=\"demo\" exec=\"a\" name=\"9lives\"/>\n</launch>", nil, ErrSyntax, 2, `node name "9lives"`},
		{"bad namespace", "<launch>\n<node pkg=\"demo\" exec=\"a\" namespace=\"a b\"/>\n</launch>", nil, ErrSyntax, 2, `token "a b"`},
		{"empty remap", "<launch><node pkg=\"demo\" exec=\"a\">\n<remap from=\"a\" to=\"\"/></node></launch>", nil, ErrSyntax, 2, "both must be non-empty"},
		{"unknown package", "<launch>\n<node pkg=\"ros_gz_bridge\" exec=\"parameter_bridge\"/>\n</launch>", nil, ErrNotFound, 2, "package ros_gz_bridge not found"},
		{"unknown package share", "<launch>\n<let name=\"a\" value=\"$(find-pkg-share nav2_bringup)\"/>\n</launch>", nil, ErrNotFound, 2, "package nav2_bringup not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadText(t, c.text, c.args)
			require.Error(t, err)
			require.ErrorIs(t, err, c.is)
			var pe *PosError
			require.True(t, errors.As(err, &pe), "%v is not a PosError", err)
			require.Equal(t, "x.launch.xml", filepath.Base(pe.File))
			require.Contains(t, err.Error(), "x.launch.xml:"+strconv.Itoa(c.line)+":")
			require.Equal(t, c.line, innermost(err).Line, err.Error())
			require.Contains(t, err.Error(), c.msg)
		})
	}
}

func TestUndeclaredCommandLineArgument(t *testing.T) {
	_, err := loadText(t, `<launch><arg name="rate" default="1"/></launch>`, map[string]string{"rtae": "2"})
	require.ErrorIs(t, err, ErrArgument)
	require.Contains(t, err.Error(), `declare no argument "rtae" (they declare rate)`)
}

func TestIncludeLoop(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.launch.xml":    "<launch>\n  <include file=\"$(dirname)/b.launch.xml\"/>\n</launch>",
		"b.launch.xml":    "<launch>\n\n  <include file=\"$(dirname)/a.launch.xml\"/>\n</launch>",
		"self.launch.xml": "<launch><include file=\"$(filename)\"/></launch>",
	})
	_, err := Load(filepath.Join(dir, "a.launch.xml"), testOptions(t, nil))
	require.ErrorIs(t, err, ErrIncludeLoop)
	require.Contains(t, err.Error(), "a.launch.xml:2: ")
	require.Contains(t, err.Error(), "b.launch.xml:3: ")
	require.Contains(t, err.Error(), "a.launch.xml includes itself")

	_, err = Load(filepath.Join(dir, "self.launch.xml"), testOptions(t, nil))
	require.ErrorIs(t, err, ErrIncludeLoop)
}

func TestErrorInIncludedFileNamesBothFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"top.launch.xml": "<launch>\n\n  <include file=\"$(dirname)/sub.launch.xml\"/>\n</launch>",
		"sub.launch.xml": "<launch>\n  <node pkg=\"demo\" exec=\"$(var missing)\"/>\n</launch>",
	})
	_, err := Load(filepath.Join(dir, "top.launch.xml"), testOptions(t, nil))
	require.ErrorIs(t, err, ErrSubstitution)
	msg := err.Error()
	require.Less(t, strings.Index(msg, "top.launch.xml:3:"), strings.Index(msg, "sub.launch.xml:2:"), msg)
	require.Contains(t, msg, "top.launch.xml:3:")

	_, err = Load(filepath.Join(dir, "missing.launch.xml"), testOptions(t, nil))
	require.Error(t, err)
}

// innermost returns the deepest PosError in err's chain.
func innermost(err error) *PosError {
	var last *PosError
	for err != nil {
		if pe, ok := err.(*PosError); ok {
			last = pe
		}
		err = errors.Unwrap(err)
	}
	return last
}
