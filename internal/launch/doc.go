// Package launch reads ROS 2 XML launch files, the subset navnode's own
// launch files use, and turns them into the processes to start, so CI and
// `make demo` run the same files users run with `ros2 launch`.
//
//	procs, err := launch.Load("launch/navnode.launch.xml", launch.Options{
//		Args:  map[string]string{"namespace": "/uav1"},
//		Share: pkgs.PackageShare,
//		Exec:  pkgs.Executable,
//	})
//
// # Elements
//
//	<launch [version]>                      the root
//	<arg name [default] [description]>      a launch argument; name:=value on the command line wins
//	<let name value>                        sets a launch configuration
//	<include file>  <arg name value/>*      another launch file
//	<group [scoped]>                        actions whose configurations and namespace do not leak (scoped="true", the default)
//	<push-ros-namespace namespace>          namespaces the nodes after it in its group
//	<node pkg exec [name] [namespace] [args] [ros_args] [output]>
//	    <param name value/>                 -p name:=value
//	    <param from/>                       --params-file FILE
//	    <remap from to/>                    -r from:=to
//	    <env name value/>                   an environment variable of the process
//
// Every element but <launch>, <param>, <remap>, <env> and an include's
// <arg> takes if="BOOL" and unless="BOOL"; BOOL is true, false, 1 or 0 in
// any case after substitution, as in launch. Anything else is an error
// naming the file and line, checked for the whole file before anything
// runs, so a typo in a branch that is switched off still fails.
//
// # Substitutions
//
//	$(var NAME [DEFAULT])  a launch configuration (an <arg> or <let>); undefined without a default is an error;
//	                       DEFAULT is evaluated only when NAME is not set, as in launch
//	$(env NAME [DEFAULT])  an environment variable; unset without a default is an error ($(env NAME '') for ROS 1's optenv);
//	                       DEFAULT is evaluated even when NAME is set, as in launch
//	$(find-pkg-share PKG)  a package's share directory, from Options.Share
//	$(dirname)             the directory of the launch file being read
//	$(filename)            the launch file being read
//
// Attribute text is read with launch's substitution grammar: arguments
// are set off by exactly one space ("$(var  x)" is an error, as in
// launch) and may be quoted whole with ' or " to hold spaces; they may
// themselves hold substitutions. A backslash is dropped before any
// character but a newline (C:\temp is C:temp; write C:\\temp), and keeps
// the $, (, ) or quote after it literal: \$(var x) is text. Substitutions
// are checked for the whole file before anything runs, in branches that
// are off too: an unknown one, or one with too many arguments, fails.
//
// Names are read as launch reads them: a <let>'s and an include <arg>'s
// take substitutions (<let name="$(var n)">), an <arg>'s takes none but
// drops its backslashes (<arg name="a\b"> declares ab), as launch's
// escape_characters does. An <include> evaluates the names of its <arg>s
// all first, to check the file's required arguments, then again as it
// sets each, as IncludeLaunchDescription does.
//
// # Semantics kept from ros2 launch
//
// Launch configurations are those of launch: command-line arguments are
// set first, an <arg> takes its default only when its name is not set yet,
// and <include> is not scoped: the includer's configurations are visible
// in the included file, the include's <arg> values are set in the
// includer's scope, and what the included file sets stays set after it, as
// in ros2 launch (ros2/launch#801); wrap an include in <group> to scope it.
// A relative include path is relative to the working directory, as in
// launch; write $(dirname)/x.launch.xml for a sibling file.
//
// A node's args and ros_args are split into words as launch splits them
// (ExecuteProcess._parse_cmdline): the text between substitutions, each
// on its own and with its backslash escapes already dropped, as
// shlex.split does, its first and last words joined to the substitutions
// they touch; a substitution's value stays one word. So a quote cannot
// span a substitution (an error, as in launch), and args="" or
// args=" $(var x)" start with an empty argument, as in launch.
//
// A node's command line is launch_ros's: the words of args, then
// --ros-args, the words of ros_args, -r __node:=NAME, -r __ns:=NS, the
// remaps in document order (the first matching one wins), then its
// parameters as --params-file in document order: each <param from> file
// where it stands, and each run of <param name value> in a file Load
// writes (in Options.TempDir), values typed as launch types them (see
// param.go: read as YAML before substitution, so value="'$(var x)'" is
// the integer 1 for x:=1, and again after it), keyed by the node's full name when it has a name and a namespace (its
// namespace attribute or a <push-ros-namespace>), else /**. Later files
// win, so a <param from> after a name and value overrides it, as under
// ros2 launch. If Load fails it removes the files it wrote. A namespace
// that is not absolute is put in the one pushed by <push-ros-namespace>.
//
// # Differences
//
// Load is stricter than ros2 launch in one way: a command-line argument
// that no file declares with <arg> is an error, to catch typos. Every
// <arg> counts, in branches that run or not, and so do those of the
// files that includes in branches that are off would read; when such a
// file cannot be named (its path needs a configuration not set) or read,
// command-line arguments go unchecked. It also refuses a <group scoped>
// that is not true, false, 1 or 0, such as scoped="$(var s)", which
// launch keeps as text, unsubstituted, and so takes as true. Parameter
// values are typed with YAML 1.2 (go-yaml), where launch uses PyYAML's
// YAML 1.1: value="yes" is written as yes, not true. Only the elements
// above exist; launch files that need more belong to ros2 launch.
package launch
