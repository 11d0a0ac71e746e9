package tf

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/builtin_interfaces"
	"github.com/navnode/navnode/msgs/geometry_msgs"
)

// randTransform returns a transform with a uniformly random rotation and a
// translation within ±10 m.
func randTransform(rng *rand.Rand) Transform {
	q, err := NewQuat(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	if err != nil {
		return Identity
	}
	return Transform{Translation: randVec(rng, 10), Rotation: q}
}

func randVec(rng *rand.Rand, s float64) r3.Vector {
	return r3.Vector{X: s * (2*rng.Float64() - 1), Y: s * (2*rng.Float64() - 1), Z: s * (2*rng.Float64() - 1)}
}

func requireVec(t *testing.T, want, got r3.Vector, tol float64, msgAndArgs ...any) {
	t.Helper()
	require.InDelta(t, want.X, got.X, tol, msgAndArgs...)
	require.InDelta(t, want.Y, got.Y, tol, msgAndArgs...)
	require.InDelta(t, want.Z, got.Z, tol, msgAndArgs...)
}

// requireSame checks that two transforms move points alike, within tol
// metres, over a few points up to 10 m away.
func requireSame(t *testing.T, want, got Transform, tol float64, msgAndArgs ...any) {
	t.Helper()
	for _, p := range []r3.Vector{{}, {X: 10}, {Y: 10}, {Z: 10}, {X: -3, Y: 4, Z: 5}} {
		requireVec(t, want.Apply(p), got.Apply(p), tol, msgAndArgs...)
	}
}

func TestTransformIdentities(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const tol = 1e-12
	for i := range 1000 {
		a, b, c := randTransform(rng), randTransform(rng), randTransform(rng)
		p := randVec(rng, 10)
		requireVec(t, p, a.Inverse().Apply(a.Apply(p)), tol, "inverse undoes, case %d", i)
		requireVec(t, p, a.Compose(a.Inverse()).Apply(p), tol, "a∘a⁻¹ = id, case %d", i)
		requireVec(t, a.Apply(b.Apply(p)), a.Compose(b).Apply(p), tol, "compose applies b first, case %d", i)
		requireSame(t, b.Inverse().Compose(a.Inverse()), a.Compose(b).Inverse(), tol, "(ab)⁻¹ = b⁻¹a⁻¹, case %d", i)
		requireSame(t, a.Compose(b).Compose(c), a.Compose(b.Compose(c)), tol, "associative, case %d", i)
		requireSame(t, a, Identity.Compose(a), tol)
		requireSame(t, a, a.Compose(Identity), tol)
		v := randVec(rng, 1)
		require.InDelta(t, v.Norm(), a.Rotate(v).Norm(), tol, "rotation keeps lengths")
		requireVec(t, a.Apply(v).Sub(a.Apply(r3.Vector{})), a.Rotate(v), tol, "Rotate has no translation")
		requireSame(t, a, Interpolate(a, b, 0), tol)
		requireSame(t, b, Interpolate(a, b, 1), 1e-9)
	}
}

func TestQuat(t *testing.T) {
	for _, yaw := range []float64{0, 0.3, -1.2, math.Pi / 2, 3} {
		q := YawQuat(yaw)
		require.InDelta(t, yaw, q.Yaw(), 1e-12)
		require.InDelta(t, 0, q.Tilt(), 1e-7)
	}
	requireVec(t, r3.Vector{Y: 1}, YawQuat(math.Pi/2).Rotate(r3.Vector{X: 1}), 1e-15, "REP 103: +yaw turns x toward y")
	roll, err := NewQuat(math.Sin(0.25), 0, 0, math.Cos(0.25)) // 0.5 rad about x
	require.NoError(t, err)
	require.InDelta(t, 0.5, roll.Tilt(), 1e-12)

	q, err := NewQuat(0, 0, 2, 0)
	require.NoError(t, err, "a non-unit quaternion is normalised")
	require.Equal(t, Quat{Z: 1}, q)
	for _, bad := range [][4]float64{{0, 0, 0, 0}, {math.NaN(), 0, 0, 1}, {0, math.Inf(1), 0, 1}, {1e-10, 0, 0, 0}, {1e300, 1e300, 0, 0}} {
		_, err := NewQuat(bad[0], bad[1], bad[2], bad[3])
		require.ErrorIs(t, err, ErrInvalid, "%v", bad)
	}

	// Slerp: halfway between 0 and 90° of yaw is 45°, a quarter 22.5°,
	// and the short way round across ±π.
	a, b := YawQuat(0), YawQuat(math.Pi/2)
	require.InDelta(t, math.Pi/4, Slerp(a, b, 0.5).Yaw(), 1e-15)
	require.InDelta(t, math.Pi/8, Slerp(a, b, 0.25).Yaw(), 1e-15)
	require.InDelta(t, math.Pi, math.Abs(Slerp(YawQuat(3), YawQuat(-3), 0.5).Yaw()), 1e-12)
	c := YawQuat(0.001)
	require.InDelta(t, 0.0005, Slerp(a, c, 0.5).Yaw(), 1e-12, "nearly equal rotations")
	neg := Quat{-b.X, -b.Y, -b.Z, -b.W}
	require.InDelta(t, math.Pi/4, Slerp(a, neg, 0.5).Yaw(), 1e-15, "q and −q are one rotation")
}

func TestFromMsg(t *testing.T) {
	tr, err := FromMsg(&geometry_msgs.Transform{Translation: geometry_msgs.Vector3{X: 1, Y: 2, Z: 3}, Rotation: geometry_msgs.Quaternion{W: 2}})
	require.NoError(t, err)
	require.Equal(t, Transform{Translation: r3.Vector{X: 1, Y: 2, Z: 3}, Rotation: NoRotation}, tr)
	m := tr.Msg()
	back, err := FromMsg(&m)
	require.NoError(t, err)
	require.Equal(t, tr, back)
	require.Equal(t, tr.Translation, tr.Pose().Position)
	require.Equal(t, 1.0, tr.Pose().Orientation.W)

	_, err = FromMsg(&geometry_msgs.Transform{Translation: geometry_msgs.Vector3{Z: math.NaN()}, Rotation: geometry_msgs.Quaternion{W: 1}})
	require.ErrorIs(t, err, ErrInvalid)
	_, err = FromMsg(&geometry_msgs.Transform{})
	require.ErrorIs(t, err, ErrInvalid, "zero quaternion")
}

func TestStamp(t *testing.T) {
	for _, d := range []time.Duration{0, 1, time.Second, 1700000000*time.Second + 999999999} {
		got, err := Stamp(TimeMsg(d))
		require.NoError(t, err)
		require.Equal(t, d, got)
	}
	require.Equal(t, builtin_interfaces.Time{Sec: -2, Nanosec: 500000000}, TimeMsg(-1500*time.Millisecond))
	_, err := Stamp(builtin_interfaces.Time{Sec: -1})
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Stamp(builtin_interfaces.Time{Nanosec: 1e9})
	require.ErrorIs(t, err, ErrInvalid)
	require.Equal(t, "map", FrameName("/map"))
	require.Equal(t, "/map", FrameName("//map"), "one slash only, as tf2")
}
