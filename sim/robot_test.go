package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/golang/geo/r3"
	"github.com/stretchr/testify/require"
)

func TestRobotLimits(t *testing.T) {
	const eps = 1e-9
	rng := rand.New(rand.NewPCG(7, 8))
	for _, typ := range []string{Aerial, Ground} {
		t.Run(typ, func(t *testing.T) {
			spec := robotDefaults[typ]
			spec.Type, spec.Start = typ, r3.Vector{Z: 1}
			r := NewRobot(spec)
			for i := range 5000 {
				cmd := Command{Vel: randVec(rng, -5, 5), Speed: 4 * (rng.Float64() - 0.5), YawRate: 8 * (rng.Float64() - 0.5)}
				switch i % 50 {
				case 0:
					cmd = Command{Vel: r3.Vector{X: math.NaN()}, Speed: math.Inf(1), YawRate: math.NaN()}
				case 1:
					cmd = Command{Vel: r3.Vector{X: 1e300}, Speed: -1e300, YawRate: 1e300}
				}
				before := r.State
				r.Step(cmd, StepDT)
				s := r.State
				require.True(t, finiteVec(s.Pos) && finiteVec(s.Vel) && finite(s.Yaw), "step %d: %+v", i, s)
				require.LessOrEqual(t, s.Vel.Norm(), spec.MaxSpeed+eps)
				require.LessOrEqual(t, math.Abs(wrapAngle(s.Yaw-before.Yaw)), spec.MaxYawRate*StepDT+eps)
				if typ == Aerial {
					require.LessOrEqual(t, s.Vel.Sub(before.Vel).Norm(), spec.MaxAccel*StepDT+eps)
					require.InDelta(t, 0, s.Pos.Sub(before.Pos.Add(s.Vel.Mul(StepDT))).Norm(), 1e-9)
					continue
				}
				require.LessOrEqual(t, math.Abs(s.Speed-before.Speed), spec.MaxAccel*StepDT+eps)
				require.Equal(t, 1.0, s.Pos.Z, "a ground robot stays on its floor")
				// It moves along its heading only: no sideways slip.
				mid := before.Yaw + s.YawRate*StepDT/2
				d := s.Pos.Sub(before.Pos)
				require.InDelta(t, 0, -math.Sin(mid)*d.X+math.Cos(mid)*d.Y, 1e-9)
			}
		})
	}
}

func TestRobotTurnsToItsMotion(t *testing.T) {
	spec := robotDefaults[Aerial]
	spec.Type = Aerial
	r := NewRobot(spec)
	for range 200 {
		r.Step(Command{Vel: r3.Vector{Y: 1}}, StepDT)
	}
	require.InDelta(t, math.Pi/2, r.State.Yaw, 1e-6, "an aerial robot faces where it flies")
	require.InDelta(t, 1, r.State.Vel.Y, 1e-9)
}
