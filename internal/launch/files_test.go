package launch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/internal/launch"
	"github.com/navnode/navnode/ros"
)

// repoRoot is the module root, which $(find-pkg-share navnode) gives here.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

// dummyBin returns a directory with stand-ins for navnode's executables.
func dummyBin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, exe := range []string{"navnode", "navsim"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, exe), []byte("#!/bin/sh\nexit 0\n"), 0o755))
	}
	return dir
}

// packages resolves navnode to this repository and dummyBin, with an
// environment of its own: an empty PATH and the given AMENT_PREFIX_PATH.
func packages(t *testing.T, ament string) launch.Packages {
	empty := t.TempDir()
	return launch.Packages{Share: repoRoot(t), Bin: dummyBin(t), LookupEnv: func(name string) (string, bool) {
		switch name {
		case "PATH":
			return empty, true
		case "AMENT_PREFIX_PATH":
			return ament, ament != ""
		}
		return "", false
	}}
}

// loadRepo loads launch/NAME with args.
func loadRepo(t *testing.T, name string, pk launch.Packages, args map[string]string) ([]launch.Process, error) {
	t.Helper()
	return launch.Load(filepath.Join(repoRoot(t), "launch", name), launch.Options{Args: args,
		Share: pk.PackageShare, Exec: pk.Executable, LookupEnv: func(string) (string, bool) { return "", false },
		TempDir: t.TempDir()})
}

// byName indexes processes by name.
func byName(procs []launch.Process) map[string]launch.Process {
	out := map[string]launch.Process{}
	for _, p := range procs {
		out[p.Name] = p
	}
	return out
}

// TestNavnodeLaunch checks navnode.launch.xml's command line with the
// defaults and with every argument overridden, and that navnode's own
// --ros-args parser accepts both.
func TestNavnodeLaunch(t *testing.T) {
	root := repoRoot(t)
	pk := packages(t, "")
	params := filepath.Join(root, "config", "navnode.yaml")
	remaps := func(m map[string]string) []string {
		var out []string
		for _, from := range []string{"map", "points", "scan", "obstacles", "odom", "goal_pose", "tf", "tf_static"} {
			out = append(out, "-r", from+":="+m[from])
		}
		return out
	}
	defaults := map[string]string{"map": "/map", "points": "/points", "scan": "/scan", "obstacles": "/obstacles",
		"odom": "/odom", "goal_pose": "/goal_pose", "tf": "/tf", "tf_static": "/tf_static"}

	procs, err := loadRepo(t, "navnode.launch.xml", pk, nil)
	require.NoError(t, err)
	require.Len(t, procs, 1)
	p := procs[0]
	require.Equal(t, "navnode", p.Name)
	require.Equal(t, filepath.Join(pk.Bin, "navnode"), p.Path)
	want := append([]string{"--ros-args", "--log-level", "info", "-r", "__node:=navnode"}, remaps(defaults)...)
	require.Len(t, p.TempFiles, 1)
	want = append(want, "--params-file", params, "--params-file", params, "--params-file", p.TempFiles[0])
	require.Equal(t, want, p.Args)
	text, err := os.ReadFile(p.TempFiles[0])
	require.NoError(t, err)
	require.Equal(t, "/navnode:\n    ros__parameters:\n        use_sim_time: false\n", string(text))
	acceptedByNavnode(t, p.Args)

	other := filepath.Join(t.TempDir(), "mine.yaml")
	require.NoError(t, os.WriteFile(other, []byte("/**:\n  ros__parameters:\n    resolution: 0.2\n"), 0o644))
	procs, err = loadRepo(t, "navnode.launch.xml", pk, map[string]string{
		"namespace": "/uav1", "use_sim_time": "true", "log_level": "debug", "robot_params_file": other,
		"map_topic": "/world_map", "points_topic": "lidar/points", "scan_topic": "/s", "obstacles_topic": "/o",
		"odom_topic": "odom", "goal_topic": "/g", "tf_topic": "/uav1/tf", "tf_static_topic": "/uav1/tf_static",
	})
	require.NoError(t, err)
	p = procs[0]
	want = append([]string{"--ros-args", "--log-level", "debug", "-r", "__node:=navnode", "-r", "__ns:=/uav1"},
		remaps(map[string]string{"map": "/world_map", "points": "lidar/points", "scan": "/s", "obstacles": "/o",
			"odom": "odom", "goal_pose": "/g", "tf": "/uav1/tf", "tf_static": "/uav1/tf_static"})...)
	require.Len(t, p.TempFiles, 1)
	want = append(want, "--params-file", params, "--params-file", other, "--params-file", p.TempFiles[0])
	require.Equal(t, want, p.Args)
	a := acceptedByNavnode(t, p.Args)
	require.Equal(t, "debug", a.LogLevel)
	last := a.Params[len(a.Params)-1]
	require.Equal(t, "use_sim_time", last.Name)
	require.Equal(t, true, last.Value)
}

// acceptedByNavnode parses argv with navnode's --ros-args parser, which
// also reads the parameters files.
func acceptedByNavnode(t *testing.T, argv []string) ros.Args {
	t.Helper()
	a, _, err := ros.ParseArgs(argv)
	require.NoError(t, err)
	return a
}

// TestEveryLaunchFile loads every XML file in launch/: the Gazebo ones
// fail here, where ros_gz_bridge is not installed, with a message naming
// it; the others give commands navnode accepts.
func TestEveryLaunchFile(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "launch", "*.launch.xml"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 4)
	pk := packages(t, "")
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			procs, err := loadRepo(t, name, pk, nil)
			if strings.HasPrefix(name, "gazebo_") {
				require.ErrorIs(t, err, launch.ErrNotFound)
				require.Contains(t, err.Error(), "package ros_gz_bridge not found")
				require.Contains(t, err.Error(), name+":")
				return
			}
			require.NoError(t, err)
			require.NotEmpty(t, procs)
			for _, p := range procs {
				acceptedByNavnode(t, p.Args)
			}
		})
	}
}

func TestSimLaunch(t *testing.T) {
	procs, err := loadRepo(t, "navnode_sim.launch.xml", packages(t, ""),
		map[string]string{"world": "warehouse", "use_sim_time": "true", "namespace": "/r1"})
	require.NoError(t, err)
	m := byName(procs)
	require.Len(t, m, 2)
	sim := m["navsim"]
	require.Len(t, sim.TempFiles, 1)
	require.Equal(t, []string{"-world=warehouse", "-scenario=", "--ros-args", "-r", "__node:=navsim",
		"--params-file", sim.TempFiles[0]}, sim.Args)
	require.Contains(t, strings.Join(m["navnode"].Args, " "), "-r __ns:=/r1 ")
	// navsim has a name but no namespace: launch_ros keys its parameters
	// /** (the real ros2 launch run of this file shows it; review of 2026-11-23).
	for name, key := range map[string]string{"navsim": "/**", "navnode": "/r1/navnode"} {
		p := m[name]
		require.Len(t, p.TempFiles, 1, name)
		text, err := os.ReadFile(p.TempFiles[0])
		require.NoError(t, err)
		require.Equal(t, key+":\n    ros__parameters:\n        use_sim_time: true\n", string(text), name)
		a := acceptedByNavnode(t, p.Args)
		require.Equal(t, true, a.Params[len(a.Params)-1].Value, name)
	}
}

// bridgePackages are the packages the launch files can find, with a
// stand-in ros_gz_bridge in an ament prefix, and the path of its
// parameter_bridge, which does nothing.
func bridgePackages(t *testing.T) (launch.Packages, string) {
	prefix := t.TempDir()
	lib := filepath.Join(prefix, "lib", "ros_gz_bridge")
	require.NoError(t, os.MkdirAll(lib, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(prefix, "share", "ros_gz_bridge"), 0o755))
	exe := filepath.Join(lib, "parameter_bridge")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	return packages(t, prefix), exe
}

// TestGazeboLaunch loads the Gazebo examples with a stand-in ros_gz_bridge
// in an ament prefix and checks that every input navnode is remapped away
// from its default is a topic the bridge brings over, Gazebo to ROS.
func TestGazeboLaunch(t *testing.T) {
	pk, exe := bridgePackages(t)
	for file, want := range map[string]map[string]string{
		"gazebo_drone.launch.xml": {
			"odom":      "/model/x500/odometry",
			"points":    "/world/default/model/x500/link/lidar_link/sensor/lidar/scan/points",
			"tf":        "/model/x500/pose",
			"tf_static": "/model/x500/pose_static",
		},
		"gazebo_ground.launch.xml": {
			"odom":      "/model/vehicle_blue/odometry",
			"scan":      "/world/default/model/vehicle_blue/link/lidar_link/sensor/gpu_lidar/scan",
			"tf":        "/model/vehicle_blue/pose",
			"tf_static": "/model/vehicle_blue/pose_static",
		},
	} {
		t.Run(file, func(t *testing.T) {
			procs, err := loadRepo(t, file, pk, nil)
			require.NoError(t, err)
			m := byName(procs)
			bridge, nav := m["gz_bridge"], m["navnode"]
			require.Equal(t, exe, bridge.Path)
			bridged := map[string]bool{}
			for _, a := range bridge.Args {
				if topic, _, ok := strings.Cut(a, "@"); ok {
					require.Regexp(t, `^/[\w/]+@[\w/]+\[gz\.msgs\.\w+$`, a)
					bridged[topic] = true
				}
			}
			require.True(t, bridged["/clock"])
			a := acceptedByNavnode(t, nav.Args)
			got := map[string]string{}
			for _, r := range a.Remaps {
				if r.To != "/"+r.From && r.From != "__node" {
					got[r.From] = r.To
					require.True(t, bridged[r.To], "navnode's %s is remapped to %s, which is not bridged", r.From, r.To)
				}
			}
			require.Equal(t, want, got)
			var simTime any
			for _, o := range a.Params {
				if o.Name == "use_sim_time" {
					simTime = o.Value
				}
			}
			require.Equal(t, true, simTime)
			require.Contains(t, nav.Args, filepath.Join(repoRoot(t), "config", strings.TrimSuffix(file, ".launch.xml")+".yaml"))
		})
	}
}

func TestPackages(t *testing.T) {
	prefix, bin, path := t.TempDir(), t.TempDir(), t.TempDir()
	for _, f := range []string{filepath.Join(prefix, "lib", "navnode", "navnode"), filepath.Join(prefix, "lib", "demo", "talker"),
		filepath.Join(bin, "navnode"), filepath.Join(path, "tool"), filepath.Join(path, "plain")} {
		require.NoError(t, os.MkdirAll(filepath.Dir(f), 0o755))
		require.NoError(t, os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755))
	}
	require.NoError(t, os.Chmod(filepath.Join(path, "plain"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(prefix, "share", "demo"), 0o755))
	env := func(name string) (string, bool) {
		return map[string]string{"PATH": path, "AMENT_PREFIX_PATH": prefix}[name], true
	}
	pk := launch.Packages{Share: "/src/navnode", Bin: bin, LookupEnv: env}

	got, err := pk.Executable("navnode", "navnode")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(bin, "navnode"), got, "-bin comes first")
	got, err = launch.Packages{LookupEnv: env}.Executable("navnode", "navnode")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(prefix, "lib", "navnode", "navnode"), got)
	got, err = pk.Executable("demo", "talker")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(prefix, "lib", "demo", "talker"), got)
	got, err = pk.Executable("anything", "tool")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(path, "tool"), got, "other packages' executables may be on PATH")

	_, err = pk.Executable("anything", "plain")
	require.ErrorContains(t, err, "package anything not found")
	_, err = pk.Executable("demo", "listener")
	require.ErrorContains(t, err, "executable listener of package demo not found")
	_, err = pk.Executable("navnode", "navsim")
	require.ErrorContains(t, err, "go build -o "+filepath.Join(bin, "navsim")+" ./cmd/navsim")
	_, err = pk.Executable("demo", "../talker")
	require.Error(t, err)

	share, err := pk.PackageShare("navnode")
	require.NoError(t, err)
	require.Equal(t, "/src/navnode", share)
	share, err = pk.PackageShare("demo")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(prefix, "share", "demo"), share)
	_, err = pk.PackageShare("ros_gz_bridge")
	require.ErrorIs(t, err, launch.ErrNotFound)
	require.ErrorContains(t, err, "package ros_gz_bridge not found")

	require.Equal(t, repoRoot(t), launch.ShareOf(filepath.Join(repoRoot(t), "launch", "navnode.launch.xml")))
	require.Equal(t, "", launch.ShareOf(filepath.Join(t.TempDir(), "x.launch.xml")))
}

// TestGazeboStaticPosesQoS checks that navnode can receive the static
// poses the Gazebo examples bridge to its tf_static. navnode subscribes to
// tf_static transient local, as tf2_ros's static listener does; a
// transient-local reader matches no volatile writer. ros_gz_bridge
// creates every ROS publisher with rclcpp::QoS(KeepLast(n)), that is
// volatile (ros_gz_bridge/src/factory.hpp), unless the bridge's
// qos_overrides.<topic>.publisher.durability parameter says otherwise. Before
// the launch files set it, navnode never matched /model/MODEL/pose_static,
// and every transform in it (the lidar's link) was missing.
func TestGazeboStaticPosesQoS(t *testing.T) {
	pk, _ := bridgePackages(t)
	for _, file := range []string{"gazebo_drone.launch.xml", "gazebo_ground.launch.xml"} {
		for _, model := range []string{"", "uav7"} {
			t.Run(file+"/"+model, func(t *testing.T) {
				var args map[string]string
				if model != "" {
					args = map[string]string{"model": model}
				}
				procs, err := loadRepo(t, file, pk, args)
				require.NoError(t, err)
				m := byName(procs)
				var static string
				for _, r := range acceptedByNavnode(t, m["navnode"].Args).Remaps {
					if r.From == "tf_static" {
						static = r.To
					}
				}
				require.NotEmpty(t, static)
				if model != "" {
					require.Contains(t, static, "/"+model+"/")
				}
				// The bridge's own --ros-args, after its topic arguments.
				bridge := m["gz_bridge"].Args
				i := slices.Index(bridge, "--ros-args")
				require.GreaterOrEqual(t, i, 0, "the bridge has no --ros-args: its publishers are volatile")
				a, _, err := ros.ParseArgs(bridge[i:])
				require.NoError(t, err)
				durability := "volatile" // rclcpp::QoS(KeepLast(n))
				for _, p := range a.Params {
					if p.Name == "qos_overrides."+static+".publisher.durability" {
						durability = fmt.Sprint(p.Value)
					}
				}
				require.Equal(t, "transient_local", durability,
					"navnode's tf_static (transient local) cannot match the bridge's %s publisher on %s", durability, static)
			})
		}
	}
}
