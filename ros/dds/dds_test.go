//go:build cgo

package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/navnode/navnode/msgs/std_msgs"
	"github.com/navnode/navnode/ros/rmw"
)

// testConfig keeps DDS traffic on loopback, without multicast, on a domain
// of the test's own.
func testConfig(domain uint32) Config {
	return Loopback(domain)
}

func TestPublishSubscribe(t *testing.T) {
	mw, err := New(testConfig(71))
	require.NoError(t, err)
	a, err := mw.NewNode("talker", "/")
	require.NoError(t, err)
	defer a.Close()
	b, err := mw.NewNode("listener", "/")
	require.NoError(t, err)
	defer b.Close()

	got := make(chan string, 10)
	typ := (&std_msgs.String{}).MsgType()
	r, err := b.NewReader("/chatter", typ, rmw.Default, func(p []byte) {
		var m std_msgs.String
		if err := m.UnmarshalCDR(p); err == nil {
			got <- m.Data
		}
	}, nil)
	require.NoError(t, err)
	w, err := a.NewWriter("/chatter", typ, rmw.Default, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for w.Matched() == 0 || r.Matched() == 0 {
		require.NoError(t, ctx.Err(), "no match")
		time.Sleep(10 * time.Millisecond)
	}
	payload, _ := (&std_msgs.String{Data: "hello"}).AppendCDR(nil)
	require.NoError(t, w.Write(payload))
	select {
	case s := <-got:
		require.Equal(t, "hello", s)
	case <-ctx.Done():
		t.Fatal("nothing received")
	}
}
