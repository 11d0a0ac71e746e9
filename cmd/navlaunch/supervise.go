package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/navnode/navnode/internal/launch"
)

// supervisor holds how supervise runs the processes.
type supervisor struct {
	exitOnFirst    bool          // stop all when one exits
	grace          time.Duration // between SIGINT/SIGTERM and SIGKILL
	stdout, stderr io.Writer
}

// exitError is the first failure of a process.
type exitError struct {
	name  string
	code  int    // exit status; -1 when a signal ended the process
	state string // as os.ProcessState says it, e.g. "signal: killed"
}

func (e *exitError) Error() string { return fmt.Sprintf("%s failed: %s", e.name, e.state) }

// status is navlaunch's exit status for it: the process's, or 1.
func (e *exitError) status() int {
	if e.code > 0 {
		return e.code
	}
	return 1
}

// child is one started process.
type child struct {
	p        launch.Process
	cmd      *exec.Cmd
	out, err *lineWriter
	exited   bool        // its exit has been received; touched by supervise's loop only
	sent     []os.Signal // the signals navlaunch sent it
}

// exit reports that children[i] has exited.
type exit struct {
	i     int
	state *os.ProcessState
}

// supervise starts procs, forwards SIGINT, SIGTERM and SIGHUP to them,
// and waits for all of them to exit; see the package comment for the
// policy. (The children are in process groups of their own, so a terminal
// hanging up reaches navlaunch only, which passes it on.)
func supervise(ctx context.Context, procs []launch.Process, s supervisor) error {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	stdout, stderr := &syncWriter{out: s.stdout}, &syncWriter{out: s.stderr}
	logf := func(format string, args ...any) {
		stderr.writeLine([]byte("[navlaunch] "), []byte(fmt.Sprintf(format, args...)))
	}

	var first error
	exits := make(chan exit, len(procs))
	var children []*child
	for _, p := range procs {
		c, err := start(p, stdout, stderr)
		if err != nil {
			logf("%s: %v", p.Name, err)
			first = fmt.Errorf("%s: %w", p.Name, err)
			break
		}
		logf("%s: started %s (pid %d)", p.Name, p.Path, c.cmd.Process.Pid)
		i := len(children)
		children = append(children, c)
		go func() {
			c.cmd.Wait() //nolint:errcheck // the state says it all
			c.out.flush()
			c.err.flush()
			exits <- exit{i, c.cmd.ProcessState}
		}()
	}

	stopping := false
	var kill <-chan time.Time
	stop := func(sig os.Signal) {
		if !stopping {
			stopping, kill = true, time.After(s.grace)
		}
		for _, c := range children {
			if c.exited {
				signalGroup(c.cmd.Process, sig) // what it started may still run in its group
				continue
			}
			c.sent = append(c.sent, signalProcess(c.cmd.Process, sig))
		}
	}
	if first != nil {
		stop(syscall.SIGTERM)
	}
	done := ctx.Done()
	for left := len(children); left > 0; {
		select {
		case e := <-exits:
			c := children[e.i]
			c.exited = true
			left--
			failed := !e.state.Success() && !endedBy(e.state, c.sent)
			logf("%s: %s", c.p.Name, describe(e.state))
			if failed && first == nil {
				first = &exitError{name: c.p.Name, code: e.state.ExitCode(), state: e.state.String()}
			}
			if s.exitOnFirst && !stopping && left > 0 {
				logf("-exit-on-first: stopping the others")
				stop(os.Interrupt)
			}
		case sig := <-sigs:
			logf("%v: stopping every process", sig)
			stop(sig)
		case <-done:
			done = nil
			stop(syscall.SIGTERM)
		case <-kill:
			kill = nil
			for _, c := range children {
				if !c.exited {
					logf("%s: still running %v after the signal: killing it", c.p.Name, s.grace)
					c.sent = append(c.sent, signalProcess(c.cmd.Process, os.Kill))
				}
			}
		}
	}
	return first
}

// start starts one process with its output prefixed.
func start(p launch.Process, stdout, stderr *syncWriter) (*child, error) {
	c := &child{p: p, out: newLineWriter(stdout, p.Name), err: newLineWriter(stderr, p.Name)}
	c.cmd = exec.Command(p.Path, p.Args...)
	c.cmd.Env = append(os.Environ(), p.Env...) // later entries win
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.err
	c.cmd.WaitDelay = 2 * time.Second // do not hang on output pipes a grandchild keeps open
	ownProcessGroup(c.cmd)
	return c, c.cmd.Start()
}

// describe says how a process ended.
func describe(st *os.ProcessState) string {
	if st.ExitCode() >= 0 {
		return fmt.Sprintf("exited with status %d", st.ExitCode())
	}
	return "ended by " + st.String()
}
