package tf

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/msgs/tf2_msgs"
)

// stamped returns the transform of child in parent at time at: a
// translation and a yaw (radians).
func stamped(parent, child string, at time.Duration, pos r3.Vector, yaw float64) *geometry_msgs.TransformStamped {
	return &geometry_msgs.TransformStamped{
		Header:       std_msgs.Header{Stamp: TimeMsg(at), FrameID: parent},
		ChildFrameID: child,
		Transform:    Transform{Translation: pos, Rotation: YawQuat(yaw)}.Msg(),
	}
}

func newBuffer(t *testing.T, opts Options) *Buffer {
	t.Helper()
	b, err := NewBuffer(opts)
	require.NoError(t, err)
	return b
}

func vec(x, y, z float64) r3.Vector { return r3.Vector{X: x, Y: y, Z: z} }

const sec = time.Second

// robot builds map → odom (dynamic) → base_link (dynamic) → lidar
// (static), and base_link → camera (static).
func robot(t *testing.T) *Buffer {
	b := newBuffer(t, Options{})
	require.NoError(t, b.Add(stamped("map", "odom", 1*sec, vec(1, 0, 0), math.Pi/2), false))
	require.NoError(t, b.Add(stamped("odom", "base_link", 1*sec, vec(2, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("/base_link", "lidar", 0, vec(0, 0, 0.5), 0), true))
	require.NoError(t, b.Add(stamped("base_link", "camera", 0, vec(0.2, 0, 0.1), -math.Pi/2), true))
	return b
}

func TestChain(t *testing.T) {
	b := robot(t)
	// A point 1 m ahead of the lidar is (1, 0, 0.5) in base_link, (3, 0,
	// 0.5) in odom, and (1, 3, 0.5) in map (odom turned 90° and moved 1 m).
	mapFromLidar, err := b.Lookup("map", "lidar", 1*sec)
	require.NoError(t, err)
	requireVec(t, vec(1, 3, 0.5), mapFromLidar.Apply(vec(1, 0, 0)), 1e-12)
	lidarFromMap, err := b.Lookup("/lidar", "map", 1*sec)
	require.NoError(t, err)
	requireVec(t, vec(1, 0, 0), lidarFromMap.Apply(vec(1, 3, 0.5)), 1e-12)
	requireSame(t, mapFromLidar.Inverse(), lidarFromMap, 1e-12)

	odomFromBase, err := b.Lookup("odom", "base_link", 0)
	require.NoError(t, err)
	requireVec(t, vec(2, 0, 0), odomFromBase.Apply(vec(0, 0, 0)), 0)

	// Siblings: the camera is 0.2 m ahead, 0.1 m up, turned −90°: the
	// lidar's origin is (0, 0, 0.5) in base_link, (−0.2, 0, 0.4) from the
	// camera, which is (0, −0.2, 0.4) in the camera's axes.
	camFromLidar, err := b.Lookup("camera", "lidar", 0)
	require.NoError(t, err)
	requireVec(t, vec(0, -0.2, 0.4), camFromLidar.Apply(vec(0, 0, 0)), 1e-12)

	same, err := b.Lookup("lidar", "lidar", 0)
	require.NoError(t, err)
	require.Equal(t, Identity, same)

	// Static links hold at any time; the dynamic ones only at their stamps.
	_, err = b.Lookup("camera", "lidar", 1234*sec)
	require.NoError(t, err)
	_, err = b.Lookup("map", "lidar", 2*sec)
	require.ErrorIs(t, err, ErrExtrapolation)
}

func TestInterpolation(t *testing.T) {
	b := newBuffer(t, Options{})
	require.NoError(t, b.Add(stamped("odom", "base_link", 3*sec, vec(2, 4, 0), math.Pi/2), false))
	require.NoError(t, b.Add(stamped("odom", "base_link", 1*sec, vec(0, 0, 0), 0), false), "out of order is fine")
	require.NoError(t, b.Add(stamped("odom", "base_link", 5*sec, vec(2, 4, 2), math.Pi/2), false))
	for _, c := range []struct {
		at  time.Duration
		pos r3.Vector
		yaw float64
	}{
		{1 * sec, vec(0, 0, 0), 0},
		{3 * sec, vec(2, 4, 0), math.Pi / 2},
		{5 * sec, vec(2, 4, 2), math.Pi / 2},
		{2 * sec, vec(1, 2, 0), math.Pi / 4},
		{1500 * time.Millisecond, vec(0.5, 1, 0), math.Pi / 8},
		{4 * sec, vec(2, 4, 1), math.Pi / 2},
	} {
		tr, err := b.Lookup("odom", "base_link", c.at)
		require.NoError(t, err, "%v", c.at)
		requireVec(t, c.pos, tr.Translation, 1e-15, "at %v", c.at)
		require.InDelta(t, c.yaw, tr.Rotation.Yaw(), 1e-15, "at %v", c.at)
		inv, err := b.Lookup("base_link", "odom", c.at)
		require.NoError(t, err)
		requireSame(t, tr.Inverse(), inv, 1e-12)
	}
}

func TestExtrapolation(t *testing.T) {
	b := newBuffer(t, Options{Tolerance: 200 * time.Millisecond})
	require.NoError(t, b.Add(stamped("odom", "base_link", 2*sec, vec(0, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("odom", "base_link", 3*sec, vec(1, 0, 0), 0), false))
	for _, c := range []struct {
		at   time.Duration
		x    float64
		fail bool
	}{
		{3100 * time.Millisecond, 1, false}, // within tolerance: the newest
		{1900 * time.Millisecond, 0, false}, // within tolerance: the oldest
		{3201 * time.Millisecond, 0, true},
		{1799 * time.Millisecond, 0, true},
	} {
		tr, err := b.Lookup("odom", "base_link", c.at)
		if c.fail {
			require.ErrorIs(t, err, ErrExtrapolation, "%v", c.at)
			continue
		}
		require.NoError(t, err, "%v", c.at)
		require.Equal(t, c.x, tr.Translation.X)
	}
	_, err := b.Lookup("base_link", "odom", 10*sec)
	require.ErrorIs(t, err, ErrExtrapolation, "either direction")
	require.ErrorContains(t, err, "future")
	// A review found that first.stamp − t overflowed for t far in the
	// past, so the oldest transform came back as if it were valid.
	_, err = b.Lookup("odom", "base_link", time.Duration(math.MinInt64))
	require.ErrorIs(t, err, ErrExtrapolation, "far in the past")
}

func TestLatestCommonTime(t *testing.T) {
	b := newBuffer(t, Options{})
	for s := 1; s <= 5; s++ {
		require.NoError(t, b.Add(stamped("map", "odom", time.Duration(s)*sec, vec(float64(s), 0, 0), 0), false))
	}
	for s := 1; s <= 3; s++ {
		require.NoError(t, b.Add(stamped("odom", "base_link", time.Duration(s)*sec, vec(0, float64(s), 0), 0), false))
	}
	require.NoError(t, b.Add(stamped("base_link", "lidar", 0, vec(0, 0, 1), 0), true))
	at, err := b.LatestCommonTime("map", "lidar")
	require.NoError(t, err)
	require.Equal(t, 3*sec, at)
	tr, stamp, err := b.LookupStamp("map", "lidar", 0)
	require.NoError(t, err)
	require.Equal(t, 3*sec, stamp)
	requireVec(t, vec(3, 3, 1), tr.Translation, 1e-15)
	at, err = b.LatestCommonTime("odom", "map")
	require.NoError(t, err)
	require.Equal(t, 5*sec, at, "only map → odom is on the path")
	at, err = b.LatestCommonTime("lidar", "base_link")
	require.NoError(t, err)
	require.Equal(t, time.Duration(0), at, "static path")
	at, err = b.LatestCommonTime("base_link", "base_link")
	require.NoError(t, err)
	require.Equal(t, time.Duration(0), at)
}

func TestStaticAndDynamic(t *testing.T) {
	b := newBuffer(t, Options{CacheTime: 10 * sec})
	for s := range 21 {
		require.NoError(t, b.Add(stamped("odom", "base_link", time.Duration(s)*sec, vec(float64(s), 0, 0), 0), false))
	}
	info, err := b.Info("base_link")
	require.NoError(t, err)
	require.Equal(t, FrameInfo{Parent: "odom", Records: 11, Oldest: 10 * sec, Latest: 20 * sec}, info, "10 s kept")
	require.ErrorIs(t, b.Add(stamped("odom", "base_link", 5*sec, vec(0, 0, 0), 0), false), ErrOldData)
	_, err = b.Lookup("odom", "base_link", 9*sec)
	require.ErrorIs(t, err, ErrExtrapolation)
	age, err := b.Age("base_link", 21*sec)
	require.NoError(t, err)
	require.Equal(t, sec, age)

	// Same stamp: replaced.
	require.NoError(t, b.Add(stamped("odom", "base_link", 20*sec, vec(7, 0, 0), 0), false))
	tr, err := b.Lookup("odom", "base_link", 20*sec)
	require.NoError(t, err)
	require.Equal(t, 7.0, tr.Translation.X)

	// Becoming static drops the history; its stamp no longer matters.
	require.NoError(t, b.Add(stamped("odom", "base_link", 3*sec, vec(9, 0, 0), 0), true))
	info, err = b.Info("base_link")
	require.NoError(t, err)
	require.Equal(t, FrameInfo{Parent: "odom", Static: true, Records: 1, Oldest: 3 * sec, Latest: 3 * sec}, info)
	for _, at := range []time.Duration{0, sec, 100 * sec} {
		tr, err := b.Lookup("odom", "base_link", at)
		require.NoError(t, err)
		require.Equal(t, 9.0, tr.Translation.X)
	}
	age, err = b.Age("base_link", 100*sec)
	require.NoError(t, err)
	require.Zero(t, age, "static frames do not age")
	age, err = b.Age("odom", 100*sec)
	require.NoError(t, err)
	require.Zero(t, age, "nor do roots")
	info, err = b.Info("odom")
	require.NoError(t, err)
	require.Equal(t, FrameInfo{}, info)

	// And dynamic again.
	require.NoError(t, b.Add(stamped("odom", "base_link", 50*sec, vec(1, 0, 0), 0), false))
	_, err = b.Lookup("odom", "base_link", 3*sec)
	require.ErrorIs(t, err, ErrExtrapolation)
	require.Equal(t, []string{"base_link", "odom"}, b.Frames())
	b.Clear()
	require.Empty(t, b.Frames())

	// Clear keeps static transforms, and the frames they join.
	require.NoError(t, b.Add(stamped("map", "odom", 0, vec(1, 2, 0), 0), true))
	require.NoError(t, b.Add(stamped("odom", "base_link", 50*sec, vec(1, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("base_link", "laser", 0, vec(0, 0, 1), 0), true))
	b.Clear()
	require.Equal(t, []string{"base_link", "laser", "map", "odom"}, b.Frames())
	got, err := b.Lookup("map", "odom", 7*sec)
	require.NoError(t, err)
	require.Equal(t, vec(1, 2, 0), got.Translation)
	_, err = b.Lookup("map", "base_link", 50*sec)
	require.Error(t, err, "the dynamic odom → base_link is gone")
	require.NoError(t, b.Add(stamped("odom", "base_link", 3*sec, vec(1, 0, 0), 0), false), "an older stamp is taken after a clear")
	got, err = b.Lookup("map", "laser", 3*sec)
	require.NoError(t, err)
	require.Equal(t, vec(2, 2, 1), got.Translation)
}

func TestMaxRecords(t *testing.T) {
	b := newBuffer(t, Options{MaxRecords: 3})
	for s := range 10 {
		require.NoError(t, b.Add(stamped("a", "b", time.Duration(s)*time.Millisecond, vec(0, 0, 0), 0), false))
	}
	info, err := b.Info("b")
	require.NoError(t, err)
	require.Equal(t, 3, info.Records)
	require.Equal(t, 7*time.Millisecond, info.Oldest)
}

// TestMaxTotalRecords: once the buffer holds MaxTotalRecords transforms,
// frames with a history keep updating (each new transform pushes out
// their oldest) and nothing new gets in; the count follows every kind of
// change, and a clear frees room.
func TestMaxTotalRecords(t *testing.T) {
	ms := time.Millisecond
	b := newBuffer(t, Options{MaxRecords: 4, MaxTotalRecords: 5})
	for s := range 6 {
		require.NoError(t, b.Add(stamped("a", "b", time.Duration(s)*ms, vec(0, 0, 0), 0), false))
	}
	require.NoError(t, b.Add(stamped("c", "d", 0, vec(0, 0, 0), 0), false))
	requireTotal(t, b, 5)
	require.ErrorIs(t, b.Add(stamped("e", "f", 0, vec(0, 0, 0), 0), false), ErrFull)
	require.ErrorIs(t, b.Add(stamped("e", "f", 0, vec(0, 0, 0), 0), true), ErrFull)
	require.ErrorIs(t, b.Add(stamped("d", "c", 0, vec(0, 0, 0), 0), false), ErrFull, "c is known but has no transform")
	require.NotContains(t, b.Frames(), "e", "nothing stored")

	require.NoError(t, b.Add(stamped("c", "d", 10*ms, vec(0, 0, 0), 0), false))
	info, err := b.Info("d")
	require.NoError(t, err)
	require.Equal(t, 1, info.Records)
	require.Equal(t, 10*ms, info.Latest)
	require.NoError(t, b.Add(stamped("a", "b", 3500*time.Microsecond, vec(0, 0, 0), 0), false), "into the middle")
	info, err = b.Info("b")
	require.NoError(t, err)
	require.Equal(t, 4, info.Records)
	require.Equal(t, 3*ms, info.Oldest)
	requireTotal(t, b, 5)

	require.NoError(t, b.Add(stamped("c", "d", 0, vec(0, 0, 0), 0), true), "static replaces d's history")
	require.NoError(t, b.Add(stamped("c", "d", 20*ms, vec(0, 0, 0), 0), false), "and dynamic replaces it back")
	requireTotal(t, b, 5)
	require.NoError(t, b.Add(stamped("c", "d", 0, vec(0, 0, 0), 0), true))
	b.Clear()
	requireTotal(t, b, 1)
	require.NoError(t, b.Add(stamped("e", "f", 0, vec(0, 0, 0), 0), false))
	requireTotal(t, b, 2)
}

// requireTotal checks the buffer's count of transforms against its
// frames' histories.
func requireTotal(t *testing.T, b *Buffer, want int) {
	t.Helper()
	sum := 0
	for _, name := range b.Frames() {
		info, err := b.Info(name)
		require.NoError(t, err)
		sum += info.Records
	}
	require.Equal(t, want, sum)
	require.Equal(t, want, b.total)
}

func TestParentChange(t *testing.T) {
	b := newBuffer(t, Options{})
	require.NoError(t, b.Add(stamped("a", "c", 1*sec, vec(1, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("b", "c", 3*sec, vec(3, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("b", "c", 4*sec, vec(4, 0, 0), 0), false))
	tr, err := b.Lookup("a", "c", 2*sec)
	require.NoError(t, err, "across a change of parent: the earlier transform")
	require.Equal(t, 1.0, tr.Translation.X)
	tr, err = b.Lookup("b", "c", 3500*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, 3.5, tr.Translation.X)
	_, err = b.Lookup("a", "c", 3500*time.Millisecond)
	require.ErrorIs(t, err, ErrNoPath, "c hangs under b then")
	info, err := b.Info("c")
	require.NoError(t, err)
	require.Equal(t, "b", info.Parent)
}

func TestLookupErrors(t *testing.T) {
	b := robot(t)
	_, err := b.Lookup("map", "nowhere", 0)
	require.ErrorIs(t, err, ErrUnknownFrame)
	require.ErrorContains(t, err, "nowhere")
	_, err = b.Lookup("nowhere", "map", 0)
	require.ErrorIs(t, err, ErrUnknownFrame)
	_, err = b.Age("nowhere", 0)
	require.ErrorIs(t, err, ErrUnknownFrame)

	require.NoError(t, b.Add(stamped("world", "drone", sec, vec(0, 0, 0), 0), false))
	_, err = b.Lookup("map", "drone", sec)
	require.ErrorIs(t, err, ErrNoPath)
	_, err = b.Lookup("drone", "lidar", 0)
	require.ErrorIs(t, err, ErrNoPath)

	// A loop: x → y → z → x.
	require.NoError(t, b.Add(stamped("y", "x", 0, vec(1, 0, 0), 0), true))
	require.NoError(t, b.Add(stamped("z", "y", 0, vec(1, 0, 0), 0), true))
	require.NoError(t, b.Add(stamped("x", "z", 0, vec(1, 0, 0), 0), true))
	require.NoError(t, b.Add(stamped("x", "w", 0, vec(1, 0, 0), 0), true))
	_, err = b.Lookup("map", "x", 0)
	require.ErrorIs(t, err, ErrLoop)
	_, err = b.Lookup("x", "map", 0)
	require.ErrorIs(t, err, ErrLoop)
	_, err = b.Lookup("map", "w", sec)
	require.ErrorIs(t, err, ErrLoop)
	_, err = b.Lookup("w", "map", sec)
	require.ErrorIs(t, err, ErrLoop)
	_, err = b.Lookup("y", "w", sec)
	require.ErrorIs(t, err, ErrLoop, "the answer would depend on the way round")
	tr, err := b.Lookup("x", "x", 0)
	require.NoError(t, err)
	require.Equal(t, Identity, tr)
}

func TestAddRejects(t *testing.T) {
	b := newBuffer(t, Options{MaxFrames: 4})
	nan := stamped("map", "odom", sec, vec(math.NaN(), 0, 0), 0)
	inf := stamped("map", "odom", sec, vec(0, math.Inf(-1), 0), 0)
	zeroQ := stamped("map", "odom", sec, vec(0, 0, 0), 0)
	zeroQ.Transform.Rotation = geometry_msgs.Quaternion{}
	nanQ := stamped("map", "odom", sec, vec(0, 0, 0), 0)
	nanQ.Transform.Rotation.W = math.NaN()
	badStamp := stamped("map", "odom", sec, vec(0, 0, 0), 0)
	badStamp.Header.Stamp.Nanosec = 2e9
	far := stamped("map", "odom", sec, vec(0, 0, 1.0001*MaxTranslation), 0)
	for name, ts := range map[string]*geometry_msgs.TransformStamped{
		"nan translation": nan, "inf translation": inf, "far translation": far, "zero quaternion": zeroQ, "nan quaternion": nanQ,
		"bad stamp": badStamp, "empty child": stamped("map", "", sec, vec(0, 0, 0), 0),
		"empty parent": stamped("/", "odom", sec, vec(0, 0, 0), 0), "own parent": stamped("odom", "/odom", sec, vec(0, 0, 0), 0),
	} {
		for _, static := range []bool{false, true} {
			require.ErrorIs(t, b.Add(ts, static), ErrInvalid, name)
		}
	}
	require.Empty(t, b.Frames(), "nothing stored")

	denorm := stamped("map", "odom", sec, vec(0, 0, 0), 0)
	denorm.Transform.Rotation = geometry_msgs.Quaternion{Z: 3, W: 3}
	require.NoError(t, b.Add(denorm, false))
	tr, err := b.Lookup("map", "odom", sec)
	require.NoError(t, err)
	require.InDelta(t, 1, math.Sqrt(tr.Rotation.Dot(tr.Rotation)), 1e-15, "normalised")
	require.InDelta(t, math.Pi/2, tr.Rotation.Yaw(), 1e-15)

	require.NoError(t, b.Add(stamped("odom", "base", sec, vec(0, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("base", "lidar", sec, vec(0, 0, 0), 0), false))
	require.ErrorIs(t, b.Add(stamped("base", "camera", sec, vec(0, 0, 0), 0), false), ErrFull)
	require.ErrorIs(t, b.Add(stamped("a", "b", sec, vec(0, 0, 0), 0), false), ErrFull)
	require.NoError(t, b.Add(stamped("lidar", "base", 2*sec, vec(0, 0, 0), 0), false), "known frames still update")

	_, err = NewBuffer(Options{Tolerance: -1})
	require.ErrorIs(t, err, ErrInvalid)
}

// TestFrameNameLimit: frame names longer than MaxFrameName are refused,
// so that the frames known bound the memory their names hold, and errors
// quote names cut short. A review kept 258 MiB alive with 256 transforms
// whose child frames had names of 1 MiB.
func TestFrameNameLimit(t *testing.T) {
	b := newBuffer(t, Options{})
	longest := strings.Repeat("f", MaxFrameName)
	require.NoError(t, b.Add(stamped("map", longest, sec, vec(0, 0, 0), 0), false))
	huge := strings.Repeat("\x01", 1<<20)
	for _, ts := range []*geometry_msgs.TransformStamped{
		stamped("map", longest+"g", sec, vec(0, 0, 0), 0),
		stamped(longest+"g", "odom", sec, vec(0, 0, 0), 0),
		stamped("map", huge, sec, vec(0, 0, 0), 0),
		stamped(huge, "", sec, vec(0, 0, 0), 0),
	} {
		err := b.Add(ts, false)
		require.ErrorIs(t, err, ErrInvalid)
		require.Less(t, len(err.Error()), 800, "the error quotes the names cut short")
	}
	require.Len(t, b.Frames(), 2, "map and the longest name")
	_, err := b.Lookup("map", huge, 0)
	require.ErrorIs(t, err, ErrUnknownFrame)
	require.Less(t, len(err.Error()), 800)
	_, err = b.Info(huge)
	require.ErrorIs(t, err, ErrUnknownFrame)
	require.Less(t, len(err.Error()), 800)
}

func TestAddMessage(t *testing.T) {
	b := newBuffer(t, Options{})
	msg := &tf2_msgs.TFMessage{Transforms: []geometry_msgs.TransformStamped{
		*stamped("map", "odom", sec, vec(1, 0, 0), 0),
		*stamped("odom", "base_link", sec, vec(math.NaN(), 0, 0), 0),
		*stamped("odom", "base_link", sec, vec(2, 0, 0), 0),
		*stamped("", "x", sec, vec(2, 0, 0), 0),
	}}
	err := b.AddMessage(msg, false)
	require.ErrorIs(t, err, ErrInvalid)
	require.ErrorContains(t, err, "transform 1")
	require.ErrorContains(t, err, "transform 3")
	tr, err := b.Lookup("map", "base_link", 0)
	require.NoError(t, err, "the good ones apply")
	require.Equal(t, 3.0, tr.Translation.X)
	require.NoError(t, b.AddMessage(&tf2_msgs.TFMessage{}, true))
}

func TestDeepChain(t *testing.T) {
	b := newBuffer(t, Options{})
	const depth = 200
	for i := range depth {
		require.NoError(t, b.Add(stamped(fmt.Sprint(i), fmt.Sprint(i+1), 0, vec(1, 0, 0), 0.01), true))
	}
	tr, err := b.Lookup("0", fmt.Sprint(depth), 0)
	require.NoError(t, err)
	want := Identity
	step := Transform{Translation: vec(1, 0, 0), Rotation: YawQuat(0.01)}
	for range depth {
		want = want.Compose(step)
	}
	requireSame(t, want, tr, 1e-9)
	back, err := b.Lookup(fmt.Sprint(depth), "0", 0)
	require.NoError(t, err)
	requireSame(t, want.Inverse(), back, 1e-9)
}

// TestLongestTranslations: transforms as long as MaxTranslation give
// finite lookups, interpolated or composed over the deepest chain. A
// review found that two links of 1e308 m, each finite, composed or
// interpolated to NaN with no error.
func TestLongestTranslations(t *testing.T) {
	b := newBuffer(t, Options{})
	require.NoError(t, b.Add(stamped("map", "odom", 1*sec, vec(-MaxTranslation, 0, 0), 0), false))
	require.NoError(t, b.Add(stamped("map", "odom", 3*sec, vec(MaxTranslation, 0, 0), 0), false))
	tr, err := b.Lookup("map", "odom", 2*sec)
	require.NoError(t, err)
	require.Equal(t, vec(0, 0, 0), tr.Translation, "halfway")

	parent := "root"
	for i := range MaxDepth - 1 {
		child := fmt.Sprint("f", i)
		require.NoError(t, b.Add(stamped(parent, child, 0, vec(MaxTranslation, 0, 0), 0.1), true))
		parent = child
	}
	tr, err = b.Lookup("root", parent, 0)
	require.NoError(t, err)
	require.True(t, Finite(tr.Translation), "composed %v", tr.Translation)
	require.Greater(t, tr.Translation.Norm(), MaxTranslation)
}
