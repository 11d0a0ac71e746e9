package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/syncbuf"
)

// roleEnv makes the test binary play navlaunch ("navlaunch") or a launched
// process ("child") instead of running the tests.
const roleEnv = "NAVLAUNCH_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "navlaunch":
		main()
		os.Exit(0)
	case "child":
		os.Exit(testChild(os.Args[1:]))
	}
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0") // race-enabled children would each linger a second at exit
	}
	os.Exit(m.Run())
}

// testChild is a launched test process. It prints its arguments and its pid,
// then waits for SIGINT or SIGTERM, which it reports. Flags before
// --ros-args: -ready FILE creates FILE once it is waiting; -wait FILE waits
// for FILE to exist first; -exit N exits with status N instead of waiting;
// -stubborn ignores the signals.
func testChild(args []string) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	fmt.Printf("args: %s\n", strings.Join(args, " "))
	fmt.Fprintf(os.Stderr, "pid %d\n", os.Getpid())
	stubborn, exit := false, -1
	for i := 0; i < len(args) && args[i] != "--ros-args"; i++ {
		switch args[i] {
		case "-ready":
			os.WriteFile(args[i+1], nil, 0o644) //nolint:errcheck // the test sees it or times out
		case "-wait":
			for _, err := os.Stat(args[i+1]); err != nil; _, err = os.Stat(args[i+1]) {
				time.Sleep(5 * time.Millisecond)
			}
		case "-exit":
			exit, _ = strconv.Atoi(args[i+1])
		case "-stubborn":
			stubborn = true
		}
	}
	if exit >= 0 {
		fmt.Printf("exiting with %d\n", exit)
		return exit
	}
	fmt.Println("ready")
	for {
		s := <-sigs
		fmt.Printf("got %v\n", s)
		if !stubborn {
			return 0
		}
	}
}

// testLaunch writes a launch file of nodes running the test binary as a
// child and returns it and the -bin directory holding the binary.
func testLaunch(t *testing.T, nodes ...string) (file, bin string) {
	t.Helper()
	bin, dir := t.TempDir(), t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(exe, filepath.Join(bin, "navnode_test_child")))
	text := "<launch>\n  <arg name=\"greeting\" default=\"hi\"/>\n"
	for _, n := range nodes {
		text += "  " + n + "\n"
	}
	file = filepath.Join(dir, "test.launch.xml")
	require.NoError(t, os.WriteFile(file, []byte(text+"</launch>\n"), 0o644))
	return file, bin
}

// node is a <node> running the test child, with no args attribute when
// args is "".
func node(name, args, children string) string {
	if args != "" { // args="" is one empty argument, as under ros2 launch
		args = ` args="` + args + `"`
	}
	return fmt.Sprintf(`<node pkg="navnode" exec="navnode_test_child" name="%s"%s>`+
		`<env name="%s" value="child"/>%s</node>`, name, args, roleEnv, children)
}

// waitFor waits until b holds s.
func waitFor(t *testing.T, b *syncbuf.Buffer, s string) {
	t.Helper()
	require.Eventually(t, func() bool { return strings.Contains(b.String(), s) }, 30*time.Second, 5*time.Millisecond,
		"no %q in:\n%s", s, b.String())
}

// TestDryRun: -dry-run prints the command lines and leaves the
// parameters files they name, for them to be run.
func TestDryRun(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the parameters files go
	file, bin := testLaunch(t, node("alpha", "$(var greeting) -x", `<param name="rate" value="5"/><remap from="in" to="/alpha_in"/>`),
		node("beta", "", ""))
	var out, errs bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-bin", bin, "-dry-run", file, "greeting:=hello world"}, &out, &errs))
	params, err := filepath.Glob(filepath.Join(tmp, "navlaunch_params_*.yaml"))
	require.NoError(t, err)
	require.Len(t, params, 1)
	text, err := os.ReadFile(params[0])
	require.NoError(t, err)
	require.Equal(t, "/**:\n    ros__parameters:\n        rate: 5\n", string(text)) // a name but no namespace: launch_ros keys it /**
	exe := filepath.Join(bin, "navnode_test_child")
	require.Equal(t, "[alpha] "+roleEnv+"=child "+exe+" 'hello world' -x --ros-args -r __node:=alpha -r in:=/alpha_in --params-file "+params[0]+"\n"+
		"[beta] "+roleEnv+"=child "+exe+" --ros-args -r __node:=beta\n", out.String())
	require.Empty(t, errs.String())
}

func TestRunErrors(t *testing.T) {
	file, bin := testLaunch(t, `<node pkg="ros_gz_bridge" exec="parameter_bridge"/>`)
	var out, errs bytes.Buffer
	err := run(context.Background(), []string{"-bin", bin, file}, &out, &errs)
	require.ErrorContains(t, err, "package ros_gz_bridge not found")
	require.ErrorContains(t, run(context.Background(), nil, &out, &errs), "no launch file")
	require.ErrorContains(t, run(context.Background(), []string{file, "greeting"}, &out, &errs), "want name:=value")
	require.ErrorContains(t, run(context.Background(), []string{"-no-such-flag"}, &out, &errs), "no-such-flag")
	require.Empty(t, out.String())
}

// TestExitOnFirst: one process fails; the other is stopped with SIGINT and
// run returns the failure.
// TestExitOnFirst: with -exit-on-first one process's exit stops the
// others; once they have all exited the parameters files are removed.
func TestExitOnFirst(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ready := filepath.Join(t.TempDir(), "ready")
	file, bin := testLaunch(t, node("alpha", "-wait "+ready+" -exit 3", `<param name="rate" value="5"/>`), node("beta", "-ready "+ready, ""))
	var out, errs syncbuf.Buffer
	err := run(context.Background(), []string{"-bin", bin, "-exit-on-first", file}, &out, &errs)
	var ee *exitError
	require.True(t, errors.As(err, &ee), "%v", err)
	require.Equal(t, "alpha", ee.name)
	require.Equal(t, 3, ee.status())
	require.Contains(t, out.String(), "[alpha] exiting with 3\n")
	require.Contains(t, out.String(), "[beta] got interrupt\n")
	require.Contains(t, errs.String(), "[navlaunch] beta: exited with status 0\n")
	require.Regexp(t, `\[alpha\] args: -wait \S+ -exit 3 --ros-args -r __node:=alpha --params-file `+tmp+`/navlaunch_params_\d+\.yaml`, out.String())
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	require.Empty(t, left)
}

// TestOthersKeepRunning: by default one process's exit leaves the others
// running; cancelling the context stops them with SIGTERM, and run still
// reports the failure.
func TestOthersKeepRunning(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "ready")
	file, bin := testLaunch(t, node("alpha", "-wait "+ready+" -exit 3", ""), node("beta", "-ready "+ready, ""))
	var out, errs syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	result := make(chan error, 1)
	go func() { result <- run(ctx, []string{"-bin", bin, file}, &out, &errs) }()
	waitFor(t, &errs, "[navlaunch] alpha: exited with status 3")
	time.Sleep(100 * time.Millisecond)
	require.NotContains(t, out.String(), "[beta] got")
	cancel()
	var err error
	select {
	case err = <-result:
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	require.ErrorContains(t, err, "alpha failed: exit status 3")
	require.Contains(t, out.String(), "[beta] got terminated\n")
}

// TestGraceThenKill: a process ignoring SIGTERM is killed after -grace.
func TestGraceThenKill(t *testing.T) {
	file, bin := testLaunch(t, node("stubborn", "-stubborn", ""))
	var out, errs syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan error, 1)
	go func() { result <- run(ctx, []string{"-bin", bin, "-grace", "200ms", file}, &out, &errs) }()
	waitFor(t, &out, "[stubborn] ready")
	cancel()
	select {
	case err := <-result:
		require.NoError(t, err, "a process navlaunch had to kill is not a failure")
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return")
	}
	require.Contains(t, out.String(), "[stubborn] got terminated\n")
	require.Contains(t, errs.String(), "stubborn: still running 200ms after the signal: killing it")
	require.Contains(t, errs.String(), "stubborn: ended by signal: killed")
}

func TestLineWriter(t *testing.T) {
	var buf bytes.Buffer
	w := newLineWriter(&syncWriter{out: &buf}, "n")
	for _, s := range []string{"a", "b\nc\r\n", "", "d"} {
		n, err := w.Write([]byte(s))
		require.NoError(t, err)
		require.Equal(t, len(s), n)
	}
	w.Write(bytes.Repeat([]byte("x"), maxLine+10)) //nolint:errcheck
	w.flush()
	lines := strings.Split(buf.String(), "\n")
	require.Equal(t, []string{"[n] ab", "[n] c", "[n] d" + strings.Repeat("x", maxLine-1), "[n] " + strings.Repeat("x", 11), ""}, lines)
}

func TestShellQuote(t *testing.T) {
	require.Equal(t, "a/b:=c", shellQuote("a/b:=c"))
	require.Equal(t, "''", shellQuote(""))
	require.Equal(t, `'it'\''s here'`, shellQuote("it's here"))
}
