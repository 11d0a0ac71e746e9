package interop

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/navnode/navnode/msgs/geometry_msgs"
	"github.com/navnode/navnode/msgs/sensor_msgs"
	"github.com/navnode/navnode/ros"
)

// The benchmarks put navnode next to two CycloneDDS C peers doing the same
// exchange in the same run: round trips through a C echo peer, and 1 MB
// PointCloud2s streamed into a C sink. Ratios (vs_C) above 1 mean navnode
// is faster than C-to-C; the target is at least 0.8.

var rttRE = regexp.MustCompile(`rtt_us p50=([0-9.]+) p99=([0-9.]+)`)

func BenchmarkRoundTripPoseStamped(b *testing.B) {
	benchRoundTrip[geometry_msgs.PoseStamped](b, "pose", 131, func() *geometry_msgs.PoseStamped {
		m := expectedGoal()
		return &m
	})
}

func BenchmarkRoundTripPointCloud2_1MB(b *testing.B) {
	benchRoundTrip[sensor_msgs.PointCloud2](b, "cloud", 132, func() *sensor_msgs.PointCloud2 {
		m := expectedCloud()
		m.Data = m.Data[:1<<20]
		m.Width, m.RowStep = 1<<20/16, 1<<20
		return m
	})
}

// rounds alternates navnode and C-to-C blocks so that machine noise hits
// both alike; each figure reported is the median over the rounds.
const rounds = 21

func benchRoundTrip[T any, PT ros.Message[T]](b *testing.B, kind string, domain uint32, msg func() *T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	prog := built(b, "cyclone-peer")
	echo := startPeer(b, ctx, domain, prog, "echo", kind)
	echo.waitReady(b, ctx)
	n := newNavnode(b, ctx, prog, domain)
	m := msg()
	per := max(b.N/rounds, 50)
	var ours, theirs [2][]float64 // p50s and p99s per round, in microseconds
	b.ResetTimer()
	for range rounds {
		p50, p99 := navnodeRoundTrips[T, PT](b, ctx, n, echo, m, per)
		ours[0], ours[1] = append(ours[0], p50), append(ours[1], p99)
		b.StopTimer()
		c50, c99 := cRoundTrips(b, ctx, prog, domain, kind, per)
		theirs[0], theirs[1] = append(theirs[0], c50), append(theirs[1], c99)
		b.StartTimer()
	}
	b.StopTimer()
	p50, p99, c50, c99 := median(ours[0]), median(ours[1]), median(theirs[0]), median(theirs[1])
	b.ReportMetric(p50, "p50_us")
	b.ReportMetric(p99, "p99_us")
	b.ReportMetric(c50, "C_p50_us")
	b.ReportMetric(c99, "C_p99_us")
	b.ReportMetric(c50/p50, "vs_C_p50")
	b.ReportMetric(c99/p99, "vs_C_p99")
}

// navnodeRoundTrips sends count messages through the echo peer, one at a
// time, and returns the median and 99th percentile round trip in
// microseconds, measured when the subscription's handler runs.
func navnodeRoundTrips[T any, PT ros.Message[T]](b *testing.B, ctx context.Context, n *navnode, echo *peer, m *T, count int) (float64, float64) {
	pongs := make(chan time.Time, 1)
	sub, err := ros.Subscribe[T, PT](n.Node, "/bench_pong", ros.QoSDefault, func(*T) {
		select {
		case pongs <- time.Now():
		default:
		}
	})
	must(b, err)
	defer sub.Close()
	pub, err := ros.NewPublisher[T, PT](n.Node, "/bench_ping", ros.QoSDefault)
	must(b, err)
	defer pub.Close()
	must(b, pub.WaitMatched(ctx, 1))
	must(b, sub.WaitMatched(ctx, 1))
	for range 20 { // warm up; the first samples may be lost to the new match
		must(b, pub.Publish(m))
		select {
		case <-pongs:
		case <-time.After(time.Second):
		}
	}
	rtts := make([]float64, 0, count)
	for i := range count {
		t0 := time.Now()
		must(b, pub.Publish(m))
		select {
		case t1 := <-pongs:
			rtts = append(rtts, float64(t1.Sub(t0).Nanoseconds())/1e3)
		case <-time.After(5 * time.Second):
			b.Fatalf("round trip %d timed out; echo peer:\n%s", i, echo.out.String())
		}
	}
	return percentiles(rtts)
}

// cRoundTrips runs the C ping peer against the same echo.
func cRoundTrips(b *testing.B, ctx context.Context, prog program, domain uint32, kind string, count int) (float64, float64) {
	out, err := prog.command(ctx, domain, "ping", kind, strconv.Itoa(count)).CombinedOutput()
	if err != nil {
		b.Fatalf("C ping: %v\n%s", err, out)
	}
	c := rttRE.FindStringSubmatch(string(out))
	if c == nil {
		b.Fatalf("C ping printed %q", out)
	}
	c50, _ := strconv.ParseFloat(c[1], 64)
	c99, _ := strconv.ParseFloat(c[2], 64)
	return c50, c99
}

func percentiles(v []float64) (p50, p99 float64) {
	slices.Sort(v)
	return v[len(v)/2], v[len(v)*99/100]
}

func median(v []float64) float64 {
	p50, _ := percentiles(v)
	return p50
}

var sinkRE = regexp.MustCompile(`OK received (\d+) messages, ([0-9.]+) MB/s`)

// BenchmarkThroughputPointCloud2_1MB streams reliable 1 MB PointCloud2s
// into a C sink for a few seconds, from navnode and from a C source, in
// alternating rounds; it reports the median rate of each.
func BenchmarkThroughputPointCloud2_1MB(b *testing.B) {
	const domain, seconds, rounds = 133, 3, 3
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog := built(b, "cyclone-peer")
	cloud := expectedCloud()
	cloud.Data, cloud.Width, cloud.RowStep = cloud.Data[:1<<20], 1<<20/16, 1<<20
	n := newNavnode(b, ctx, prog, domain)
	var ours, theirs []float64
	for range rounds {
		sink := startPeer(b, ctx, domain, prog, "sink", strconv.Itoa(seconds+2))
		sink.waitReady(b, ctx)
		pub, err := ros.NewPublisher[sensor_msgs.PointCloud2](n.Node, "/bench_tput", ros.QoSDefault)
		must(b, err)
		must(b, pub.WaitMatched(ctx, 1))
		end := time.Now().Add(seconds * time.Second)
		for time.Now().Before(end) {
			must(b, pub.Publish(cloud))
		}
		must(b, pub.WaitAcked(ctx))
		pub.Close()
		ours = append(ours, sinkRate(b, sink.wait(b, ctx)))

		sink = startPeer(b, ctx, domain, prog, "sink", strconv.Itoa(seconds+2))
		sink.waitReady(b, ctx)
		if out, err := prog.command(ctx, domain, "source", strconv.Itoa(1<<20), strconv.Itoa(seconds)).
			CombinedOutput(); err != nil {
			b.Fatalf("C source: %v\n%s", err, out)
		}
		theirs = append(theirs, sinkRate(b, sink.wait(b, ctx)))
	}
	b.ReportMetric(median(ours), "MB/s")
	b.ReportMetric(median(theirs), "C_MB/s")
	b.ReportMetric(median(ours)/median(theirs), "vs_C")
}

func sinkRate(b *testing.B, out string) float64 {
	m := sinkRE.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("sink printed %q", out)
	}
	v, _ := strconv.ParseFloat(m[2], 64)
	return v
}

func must(b testing.TB, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
