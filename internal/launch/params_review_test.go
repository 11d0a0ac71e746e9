package launch_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/launch"
	"github.com/navnode/navnode/msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/rmw"
)

// fakeMW is a middleware that joins no network: enough for NewNode and Declare.
type fakeMW struct{}

func (fakeMW) NewNode(name, ns string) (rmw.Node, error) { return fakeNode{}, nil }

type fakeNode struct{}

func (fakeNode) NewWriter(string, msgs.TypeInfo, rmw.QoS, rmw.EventFunc) (rmw.Writer, error) {
	return fakeWriter{}, nil
}
func (fakeNode) NewReader(string, msgs.TypeInfo, rmw.QoS, rmw.Handler, rmw.EventFunc) (rmw.Reader, error) {
	return nil, os.ErrInvalid
}
func (fakeNode) Close() error { return nil }

type fakeWriter struct{}

func (fakeWriter) Write([]byte) error            { return nil }
func (fakeWriter) Matched() int                  { return 0 }
func (fakeWriter) WaitAcked(time.Duration) error { return nil }
func (fakeWriter) GID() rmw.GID                  { return rmw.GID{} }
func (fakeWriter) Close() error                  { return nil }

// fakeNavnode is a node named navnode started with args, on fakeMW,
// closed when the test ends: enough to declare parameters.
func fakeNavnode(t *testing.T, args []string) *ros.Node {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	n, err := ros.NewNode(ctx, "navnode", ros.WithMiddleware(fakeMW{}), ros.WithArgs(args))
	require.NoError(t, err)
	t.Cleanup(func() { n.Close() })
	return n
}

// TestLaunchParamBeatsEarlierParamsFiles: launch_ros writes a node's
// <param name value> into a temporary parameters file keyed by the node's
// fully qualified name (/navnode here; Node._create_params_file_from_dict),
// so with ros2 launch, use_sim_time:=true wins over every params file
// before it. navlaunch writes "-p use_sim_time:=true" instead, whose key is
// /**: when the params file (a Nav2-style one, a /** section and then a
// /**/navnode section that, like config/navnode.yaml, lists use_sim_time)
// opened the /** key first, the -p joins that first key and the file's
// /**/navnode entry, applied after it, wins: use_sim_time:=true is
// silently ignored. Right: navnode ends with use_sim_time = true.
func TestLaunchParamBeatsEarlierParamsFiles(t *testing.T) {
	common := filepath.Join(t.TempDir(), "common.yaml")
	require.NoError(t, os.WriteFile(common, []byte(`/**:
  ros__parameters:
    use_sim_time: false
/**/navnode:
  ros__parameters:
    use_sim_time: false
    resolution: 0.2
`), 0o644))
	procs, err := loadRepo(t, "navnode.launch.xml", packages(t, ""),
		map[string]string{"params_file": common, "use_sim_time": "true"})
	require.NoError(t, err)
	require.Len(t, procs, 1)

	simTime, err := ros.Declare(fakeNavnode(t, procs[0].Args), "use_sim_time", false, "")
	require.NoError(t, err)
	require.True(t, simTime, "launched with use_sim_time:=true, navnode got use_sim_time=false (argv %q)", procs[0].Args)
}

// TestLaunchParamsInDocumentOrder: launch_ros passes a node's <param
// name value> and <param from> as parameters files in document order
// (Node.parse_nested_parameters since ros2/launch_ros#99; real ros2 launch
// on Humble and Jazzy gives --params-file TMP --params-file robot.yaml for
// this file), so a file after a name/value wins: resolution = 0.2. A
// review of 2026-11-22 read it otherwise, and navlaunch passed the
// name/value file last, giving 0.5 (a second review, 2026-11-23, ran the
// real launch_ros and found it).
func TestLaunchParamsInDocumentOrder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robot.yaml")
	require.NoError(t, os.WriteFile(file, []byte("/**/navnode:\n  ros__parameters:\n    resolution: 0.2\n"), 0o644))
	lf := filepath.Join(dir, "x.launch.xml")
	require.NoError(t, os.WriteFile(lf, []byte(`<launch>
  <node pkg="demo" exec="navnode" name="navnode" namespace="/uav1">
    <param name="resolution" value="0.5"/>
    <param from="$(dirname)/robot.yaml"/>
  </node>
</launch>`), 0o644))
	procs, err := launch.Load(lf, launch.Options{
		Exec:      func(pkg, exe string) (string, error) { return "/opt/demo/bin/" + exe, nil },
		LookupEnv: func(string) (string, bool) { return "", false },
		TempDir:   t.TempDir(),
	})
	require.NoError(t, err)
	require.Len(t, procs, 1)

	res, err := ros.Declare(fakeNavnode(t, procs[0].Args), "resolution", 0.1, "")
	require.NoError(t, err)
	require.Equal(t, 0.2, res, "argv %q", procs[0].Args)
}
