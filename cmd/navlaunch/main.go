// Command navlaunch runs a ROS 2 XML launch file without ROS: the subset
// of the format navnode's launch files use (see internal/launch), so CI
// and `make demo` start the same files users start with `ros2 launch`.
//
//	navlaunch [-bin DIR] [-share DIR] [-dry-run] [-exit-on-first] [-grace D] FILE.launch.xml [name:=value ...]
//
// It resolves every <node> to an executable (navnode's in -bin, then the
// ament prefixes of AMENT_PREFIX_PATH, then PATH) and a command line, and
// with -dry-run prints them, one line per process, ready to paste into a
// shell. Otherwise it starts them all and prefixes each line they print
// with [name]. SIGINT, SIGTERM and SIGHUP are forwarded to every
// process's process group (the process and what it started); those still
// running after -grace are killed.
//
// Exit policy: like ros2 launch, navlaunch keeps the others running when
// one process exits, and returns once all have exited. With
// -exit-on-first, the first exit (of any status) sends SIGINT to the rest,
// as a launch file whose nodes all have on_exit=Shutdown would. Either
// way navlaunch exits with the status of the first process that failed (a
// non-zero exit status, or death by a signal navlaunch did not send), 0 if
// none did.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/navnode/navnode/internal/launch"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return
	}
	fmt.Fprintln(os.Stderr, "navlaunch:", err)
	var ee *exitError
	if errors.As(err, &ee) {
		os.Exit(ee.status())
	}
	os.Exit(1)
}

// run is navlaunch with its command-line arguments; cancelling ctx stops
// the processes as SIGTERM does.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("navlaunch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("bin", "", "directory holding navnode's executables (navnode, navsim), searched first")
	share := fs.String("share", "", "what $(find-pkg-share navnode) gives (default: the directory above the launch file's launch/ directory)")
	dryRun := fs.Bool("dry-run", false, "print the processes and their command lines; start nothing")
	exitOnFirst := fs.Bool("exit-on-first", false, "stop every process as soon as one exits")
	grace := fs.Duration("grace", 10*time.Second, "how long processes have to exit after SIGINT or SIGTERM before SIGKILL")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: navlaunch [flags] FILE.launch.xml [name:=value ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return errors.New("no launch file")
	}
	file := fs.Arg(0)
	launchArgs, err := launch.ParseArgs(fs.Args()[1:])
	if err != nil {
		return err
	}
	if *share == "" {
		*share = launch.ShareOf(file)
	}
	pk := launch.Packages{Share: *share, Bin: *bin}
	procs, err := launch.Load(file, launch.Options{Args: launchArgs, Share: pk.PackageShare, Exec: pk.Executable})
	if err != nil {
		return err
	}
	if *dryRun {
		// The parameters files stay, for the command lines to be run.
		for _, p := range procs {
			fmt.Fprintln(stdout, commandLine(p))
		}
		return nil
	}
	defer func() {
		for _, p := range procs {
			for _, f := range p.TempFiles {
				os.Remove(f)
			}
		}
	}()
	return supervise(ctx, procs, supervisor{exitOnFirst: *exitOnFirst, grace: *grace, stdout: stdout, stderr: stderr})
}

// commandLine renders a process as "[name] NAME=value ... PATH ARG ...",
// shell-quoted: an environment entry's value only, so that sh still reads
// it as an assignment.
func commandLine(p launch.Process) string {
	var words []string
	for _, e := range p.Env {
		name, value, _ := strings.Cut(e, "=")
		words = append(words, name+"="+shellQuote(value))
	}
	for _, w := range append([]string{p.Path}, p.Args...) {
		words = append(words, shellQuote(w))
	}
	return "[" + p.Name + "] " + strings.Join(words, " ")
}

// shellQuote quotes a word for sh when it needs it.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
