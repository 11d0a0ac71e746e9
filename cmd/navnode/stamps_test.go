package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSensorStamps(t *testing.T) {
	var s sensorStamps
	t0 := time.Unix(1000, 0)
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	require.NoError(t, s.check("points", sec(100), t0))
	require.NoError(t, s.check("points", sec(100.1), t0.Add(100*time.Millisecond)))
	require.NoError(t, s.check("points", sec(50), t0.Add(200*time.Millisecond)), "back: not this check's business")
	require.NoError(t, s.check("points", sec(110), t0.Add(300*time.Millisecond)), "a minute ahead, whenever it comes")
	require.ErrorIs(t, s.check("points", sec(171), t0.Add(300*time.Millisecond)), errStrayStamp, "61 s ahead at once")
	require.NoError(t, s.check("points", sec(171), t0.Add(300*time.Millisecond)))
	require.NoError(t, s.check("points", sec(1171), t0.Add(10300*time.Millisecond)), "100 times the 10 s since the last")
	require.ErrorIs(t, s.check("points", sec(1<<31-1), t0.Add(10400*time.Millisecond)), errStrayStamp)
	require.NoError(t, s.check("scan", sec(1<<31-1), t0.Add(10400*time.Millisecond)), "topics are judged apart")
	require.NoError(t, s.check("points", sec(1<<31-1)+sec(0.1), t0.Add(10500*time.Millisecond)),
		"a clock that really jumped is followed from its second message")
	require.NoError(t, s.check("points", sec(100), t0.Add(10600*time.Millisecond)))
}
