package tf

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestConcurrent adds /tf and /tf_static from several goroutines while
// others look up, as the node's subscriptions do; run it with -race.
// Writers run at their own pace, so a reader may see one link far ahead
// of another (ErrExtrapolation) or frames not yet added.
func TestConcurrent(t *testing.T) {
	b := newBuffer(t, Options{CacheTime: 2 * sec, Tolerance: 50 * time.Millisecond})
	const steps = 300
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	writer := func(parent, child string) {
		defer wg.Done()
		for i := range steps {
			at := time.Duration(i+1) * 10 * time.Millisecond
			if err := b.Add(stamped(parent, child, at, vec(float64(i), 0, 0), 0), false); err != nil {
				errs <- err
				return
			}
		}
	}
	wg.Add(3)
	go writer("map", "odom")
	go writer("odom", "base_link")
	go func() {
		defer wg.Done()
		for i := range steps {
			if err := b.Add(stamped("base_link", fmt.Sprint("sensor", i%5), 0, vec(0, 0, 1), 0), true); err != nil {
				errs <- err
				return
			}
		}
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range steps {
				_, err := b.Lookup("map", "sensor0", 0)
				if err != nil && !errors.Is(err, ErrUnknownFrame) && !errors.Is(err, ErrNoPath) && !errors.Is(err, ErrExtrapolation) {
					errs <- err
					return
				}
				b.Frames()
				_, _ = b.Age("odom", time.Second)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	tr, at, err := b.LookupStamp("map", "sensor0", 0)
	require.NoError(t, err)
	require.Equal(t, steps*10*time.Millisecond, at)
	requireVec(t, vec(2*(steps-1), 0, 1), tr.Translation, 1e-12)
}

// BenchmarkLookup chains map → odom → base_link → lidar at a time between
// stamps (two interpolations, one static link).
func BenchmarkLookup(b *testing.B) {
	buf, err := NewBuffer(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		at := time.Duration(i) * 10 * time.Millisecond
		_ = buf.Add(stamped("map", "odom", at, vec(float64(i), 0, 0), 0.01*float64(i)), false)
		_ = buf.Add(stamped("odom", "base_link", at, vec(0, float64(i), 0), 0.02*float64(i)), false)
	}
	_ = buf.Add(stamped("base_link", "lidar", 0, vec(0, 0, 1), 0), true)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := buf.Lookup("map", "lidar", 505*time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
}
