package interop

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/diagnostic_msgs"
	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/nav_msgs"
	"github.com/navnode/navnode/msgs/rcl_interfaces"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
	"github.com/navnode/navnode/msgs/visualization_msgs"
	"github.com/navnode/navnode/ros"
	"github.com/navnode/navnode/ros/rmw"
)

// relayed: navnode publishes msg on /relay_in; the peer decodes it into
// its own generated type (idlc's C struct, fastddsgen's C++ class),
// encodes it again from there and publishes it on /relay_out. The
// payload the peer sent, as it came off the wire (encapsulation header,
// padding and all), must be navnode's byte for byte: every field came
// back with its value, so the peer's layout of the type, written from the
// .msg files apart from navnode's generator, reads navnode's bytes as
// navnode meant them. navnode's subscription must decode it too. kind
// names the type for the peer. The peer also prints some fields by its
// own names for them ("FIELDS kind ..."); with a non-empty fields, that
// line must read "FIELDS kind fields".
func relayed[T any, PT ros.Message[T]](t *testing.T, prog program, domain uint32, kind string, msg PT, fields string) {
	ctx := testCtx(t, 30*time.Second)
	n := newNavnode(t, ctx, prog, domain)
	decoded := make(chan struct{}, 1)
	sub, err := ros.Subscribe[T, PT](n.Node, "/relay_out", ros.QoSDefault, func(*T) { offer(decoded, struct{}{}) })
	require.NoError(t, err)
	// A reader of the raw payloads beside it: a comparison after
	// navnode's decoding would miss what the decoder skips (the
	// encapsulation options, padding bytes, bytes after the body).
	raw, err := n.mw.NewNode("navnode_raw", "/")
	require.NoError(t, err)
	t.Cleanup(func() { raw.Close() })
	back := make(chan []byte, 1)
	reader, err := raw.NewReader("/relay_out", msg.MsgType(), rmw.QoS{Depth: 10, Reliability: rmw.Reliable},
		func(p []byte) { offer(back, append([]byte(nil), p...)) }, nil)
	require.NoError(t, err)
	pub, err := ros.NewPublisher[T, PT](n.Node, "/relay_in", ros.QoSDefault)
	require.NoError(t, err)
	want, err := msg.AppendCDR(nil)
	require.NoError(t, err)

	p := startPeer(t, ctx, domain, prog, "relay", kind)
	p.waitReady(t, ctx)
	require.NoError(t, pub.WaitMatched(ctx, 1))
	require.NoError(t, sub.WaitMatched(ctx, 1))
	for reader.Matched() == 0 {
		require.NoError(t, ctx.Err(), "the raw reader never matched %s", prog.name)
		time.Sleep(5 * time.Millisecond)
	}
	var got []byte
	for got == nil { // a volatile reader that just matched may miss a sample
		require.NoError(t, pub.Publish(msg))
		select {
		case got = <-back:
		case <-ctx.Done():
			t.Fatalf("nothing came back from %s: %v\noutput so far:\n%s", prog.name, ctx.Err(), p.out.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	select {
	case <-decoded:
	case <-ctx.Done():
		t.Fatalf("navnode's subscription decoded nothing from %s (malformed: %d)", prog.name, sub.Stats().Malformed)
	}
	out := p.wait(t, ctx)
	require.Contains(t, out, "OK relayed")
	if fields != "" {
		require.Contains(t, out, "FIELDS "+kind+" "+fields+"\n")
	}
	require.Zero(t, sub.Stats().Malformed)
	require.Equal(t, len(want), len(got), "%s: payload length", kind)
	if !bytes.Equal(want, got) {
		i := 0
		for want[i] == got[i] {
			i++
		}
		t.Fatalf("%s: %s changed the payload from byte %d of %d: sent % x, got % x", kind, prog.name, i, len(want),
			want[i:min(i+16, len(want))], got[i:min(i+16, len(got))])
	}
}

// relayAll runs relayed for every type the peer can relay, each on a
// domain of its own from base on. fields: whether the peer prints fields
// by name.
func relayAll(t *testing.T, prog program, base uint32, fields bool) {
	named := func(s string) string {
		if !fields {
			return ""
		}
		return s
	}
	scan, odom, tf, markers, diag, log := relayScan(), relayOdometry(), relayTF(), relayMarkers(), relayDiagnostics(), relayLog()
	t.Run("LaserScan", func(t *testing.T) {
		relayed(t, prog, base, "scan", scan, named(fmt.Sprintf(
			"frame_id=laser angle_min=%.9g time_increment=%.9g scan_time=%.9g range_max=%.9g ranges=%d ranges[1]=%.9g intensities=%d",
			scan.AngleMin, scan.TimeIncrement, scan.ScanTime, scan.RangeMax, len(scan.Ranges), scan.Ranges[1], len(scan.Intensities))))
	})
	t.Run("Odometry", func(t *testing.T) {
		relayed(t, prog, base+1, "odom", odom, named(fmt.Sprintf(
			"child_frame_id=base_link pose.position.y=%.17g pose.covariance[35]=%.17g twist.angular.z=%.17g twist.covariance[1]=%.17g",
			odom.Pose.Pose.Position.Y, odom.Pose.Covariance[35], odom.Twist.Twist.Angular.Z, odom.Twist.Covariance[1])))
	})
	t.Run("TFMessage", func(t *testing.T) {
		relayed(t, prog, base+2, "tf", tf, named(fmt.Sprintf(
			"transforms[1]=odom->base_link transforms[3].translation.y=%.17g transforms[3].stamp.nanosec=21",
			tf.Transforms[3].Transform.Translation.Y)))
	})
	t.Run("MarkerArray", func(t *testing.T) {
		relayed(t, prog, base+3, "markers", markers, named(fmt.Sprintf(
			"markers[0].action=3 markers[1].ns=plan lifetime.nanosec=500000000 frame_locked=1 points=7 text=route"+
				" markers[2].id=-1 texture.format=png uv[0].v=%.9g mesh_file.filename=hull.stl embedded=1",
			markers.Markers[2].UvCoordinates[0].V)))
	})
	t.Run("DiagnosticArray", func(t *testing.T) {
		relayed(t, prog, base+4, "diag", diag, named(
			"status[1].level=2 status[1].name=navnode: inputs status[1].message=malformed /points status[0].values[1]=repair ms:0.202"))
	})
	t.Run("Log", func(t *testing.T) {
		relayed(t, prog, base+5, "log", log, named("level=30 name=navnode function=deliver line=212"))
	})
}

// The relayed messages set every field to a value of its own (but the
// diagnostics' empty frame id and the fields a Marker of its kind leaves
// empty), with strings of odd lengths and small fields before wide
// ones, so that a field read from the wrong offset or a misplaced pad
// shows.

func relayHeader(frame string) std_msgs.Header {
	return std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: -17, Nanosec: 999_999_999}, FrameID: frame}
}

func relayScan() *sensor_msgs.LaserScan {
	m := &sensor_msgs.LaserScan{
		Header:   relayHeader("laser"),
		AngleMin: -2.356, AngleMax: 2.356, AngleIncrement: 0.0043633, TimeIncrement: 1.7e-5,
		ScanTime: 0.025, RangeMin: 0.06, RangeMax: 30,
	}
	for i := range 1081 {
		m.Ranges = append(m.Ranges, 0.06+float32(i)*0.0271)
		if i%2 == 0 {
			m.Intensities = append(m.Intensities, float32(i)*3.5)
		}
	}
	return m
}

func relayOdometry() *nav_msgs.Odometry {
	m := &nav_msgs.Odometry{Header: relayHeader("odom"), ChildFrameID: "base_link"}
	m.Pose.Pose = geometry_msgs.Pose{
		Position:    geometry_msgs.Point{X: 1.5, Y: -2.25, Z: 0.125},
		Orientation: geometry_msgs.Quaternion{X: 0.1, Y: -0.2, Z: 0.3, W: 0.927},
	}
	m.Twist.Twist = geometry_msgs.Twist{
		Linear:  geometry_msgs.Vector3{X: 0.5, Y: 0.01, Z: -0.02},
		Angular: geometry_msgs.Vector3{X: 0.003, Y: -0.004, Z: 0.7},
	}
	for i := range 36 {
		m.Pose.Covariance[i] = float64(i) + 0.5
		m.Twist.Covariance[i] = -float64(i) / 7
	}
	return m
}

func relayTF() *tf2_msgs.TFMessage {
	m := &tf2_msgs.TFMessage{}
	for i, child := range []string{"odom", "base_link", "lidar_1", "camera_optical"} {
		m.Transforms = append(m.Transforms, geometry_msgs.TransformStamped{
			Header:       std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: int32(100 + i), Nanosec: uint32(i * 7)}, FrameID: []string{"map", "odom", "base_link", "base_link"}[i]},
			ChildFrameID: child,
			Transform: geometry_msgs.Transform{
				Translation: geometry_msgs.Vector3{X: float64(i), Y: -0.5 * float64(i), Z: 0.25},
				Rotation:    geometry_msgs.Quaternion{X: 0.125 * float64(i+1), Y: -0.0625 * float64(i+1), Z: 0.25 + 0.01*float64(i), W: 0.9 - 0.1*float64(i)},
			},
		})
	}
	return m
}

func relayMarkers() *visualization_msgs.MarkerArray {
	line := visualization_msgs.Marker{
		Header: relayHeader("map"), Ns: "plan", ID: 3, Type: 4, Action: 0,
		Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: 0.5, Y: -1.25, Z: 0.0625},
			Orientation: geometry_msgs.Quaternion{X: 0.01, Y: 0.02, Z: 0.03, W: 0.999}},
		Scale:    geometry_msgs.Vector3{X: 0.05},
		Color:    std_msgs.ColorRGBA{R: 0.9, G: 0.4, B: 0.1, A: 1},
		Lifetime: builtin_interfaces.Duration{Sec: 2, Nanosec: 500_000_000}, FrameLocked: true,
		Text: "route",
	}
	for i := range 7 {
		line.Points = append(line.Points, geometry_msgs.Point{X: float64(i) * 0.3, Y: float64(i*i) * 0.01, Z: 1})
		line.Colors = append(line.Colors, std_msgs.ColorRGBA{R: float32(i) / 7, G: 0.5, B: 1 - float32(i)/7, A: 0.8})
	}
	mesh := visualization_msgs.Marker{
		Header: relayHeader("base_link"), Ns: "robot", ID: -1, Type: 10, Action: 0,
		Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: -0.1, Y: 0.15, Z: 0.2},
			Orientation: geometry_msgs.Quaternion{X: 0.5, Y: -0.5, Z: 0.5, W: 0.5}},
		Scale:           geometry_msgs.Vector3{X: 1, Y: 1, Z: 1},
		Color:           std_msgs.ColorRGBA{A: 0.5},
		TextureResource: "embedded://skin",
		Texture: sensor_msgs.CompressedImage{Header: relayHeader("cam"), Format: "png",
			Data: []uint8{0x89, 'P', 'N', 'G', 13, 10, 26}},
		UvCoordinates:            []visualization_msgs.UVCoordinate{{U: 0.25, V: 0.75}, {U: 1, V: 0}, {U: 0.5, V: 0.5}},
		MeshResource:             "embedded://hull",
		MeshFile:                 visualization_msgs.MeshFile{Filename: "hull.stl", Data: []uint8("solid hull\nendsolid")},
		MeshUseEmbeddedMaterials: true,
	}
	deleteAll := visualization_msgs.Marker{Header: relayHeader("m"), Action: 3}
	return &visualization_msgs.MarkerArray{Markers: []visualization_msgs.Marker{deleteAll, line, mesh}}
}

func relayDiagnostics() *diagnostic_msgs.DiagnosticArray {
	return &diagnostic_msgs.DiagnosticArray{
		Header: relayHeader(""),
		Status: []diagnostic_msgs.DiagnosticStatus{
			{Level: 0, Name: "navnode: planner", Message: "following", HardwareID: "n1",
				Values: []diagnostic_msgs.KeyValue{{Key: "expansions", Value: "350"}, {Key: "repair ms", Value: "0.202"}}},
			{Level: 2, Name: "navnode: inputs", Message: "malformed /points", HardwareID: "",
				Values: []diagnostic_msgs.KeyValue{{Key: "k", Value: ""}}},
			{Level: 3, Name: "x"},
		},
	}
}

func relayLog() *rcl_interfaces.Log {
	return &rcl_interfaces.Log{
		Stamp: builtin_interfaces.Time{Sec: 1_700_000_001, Nanosec: 5}, Level: 30, Name: "navnode",
		Msg: "malformed message skipped", File: "ros/subscription.go", Function: "deliver", Line: 212,
	}
}

func TestCycloneRelay(t *testing.T) { relayAll(t, built(t, "cyclone-peer"), 141, true) }

func TestFastDDSRelay(t *testing.T) { relayAll(t, built(t, "fastdds-peer"), 151, false) }
